"""A small answer-type detector: date, year, number, person, place, organisation or other.

The answer string decides the temporal and numeric types; the question's wording ("who",
"where", "which city", ...) and a few keyword lists decide between person, place and
organisation. It is deliberately conservative: anything unsure is "other".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

DATE, YEAR, NUMBER, PERSON, PLACE, ORGANISATION, OTHER = (
    "date",
    "year",
    "number",
    "person",
    "place",
    "organisation",
    "other",
)
TYPES = (DATE, YEAR, NUMBER, PERSON, PLACE, ORGANISATION, OTHER)

MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
# the capitalised names as a regex alternation ("January|February|..."), for date patterns in passages
MONTH_NAMES = "|".join(m.capitalize() for m in MONTHS)
# words that date an event by counting years from another, as a regex alternation ("to mark Canada's centennial",
# "the company's 50th anniversary"): with one year they give the other back
ANNIVERSARY_WORDS = (
    "anniversary|centenary|centennial|bicentenary|bicentennial|sesquicentennial|tercentenary|millennium|jubilee"
)
_MONTH_ABBR = {m[:3]: i + 1 for i, m in enumerate(MONTHS)}
_MONTH_RE = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
# pieces of date patterns for passages: a day of the month, a capitalised month name, a year of modern history
DAY_NUMBER = r"(?:[12]\d|3[01]|0?[1-9])"
MONTH_NAME = rf"(?:{MONTH_NAMES})"
MODERN_YEAR = r"(?:1[5-9]\d\d|20\d\d)"
_DAY = rf"{DAY_NUMBER}(?:st|nd|rd|th)?"
_YEAR = r"(?:1[0-9]\d\d|20\d\d)"
DATE_FORMS = [  # (regex, has_day, has_year)
    (re.compile(rf"^(?P<m>{_MONTH_RE})\s+(?P<d>{_DAY}),?\s+(?P<y>{_YEAR})$", re.I), "MDY"),
    (re.compile(rf"^(?P<d>{_DAY})\s+(?P<m>{_MONTH_RE}),?\s+(?P<y>{_YEAR})$", re.I), "DMY"),
    (re.compile(rf"^(?P<m>{_MONTH_RE}),?\s+(?P<y>{_YEAR})$", re.I), "MY"),
    (re.compile(rf"^(?P<m>{_MONTH_RE})\s+(?P<d>{_DAY})$", re.I), "MD"),
    (re.compile(rf"^(?P<d>{_DAY})\s+(?P<m>{_MONTH_RE})$", re.I), "DM"),
]
YEAR_RE = re.compile(rf"^(?:in\s+)?(?P<y>{_YEAR})$", re.I)

NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "hundred": 100,
    "a hundred": 100,
}
SCALE_WORDS = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
NUMBER_RE = re.compile(
    r"^(?P<prefix>(?:about|approximately|around|over|nearly|some|roughly|almost|more than|less than|up to|\$|£|€)\s*)?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?P<scale>\s+(?:thousand|million|billion|trillion))?"
    r"(?P<unit>(?:\s*%|\s+[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*)?)?)$",
    re.I,
)
# the number words of one word, longest first (so a regex alternation takes "seventeen" before "seven")
SINGLE_WORD_NUMBERS = sorted((w for w in NUMBER_WORDS if " " not in w), key=len, reverse=True)
WORD_NUMBER_RE = re.compile(
    r"^(?P<num>" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")"
    r"(?P<scale>\s+(?:thousand|million|billion|trillion))?(?P<unit>(?:\s+[a-z][a-z\-]*){0,2})$",
    re.I,
)

ORG_WORDS = frozenset(
    """inc inc. corp corporation company co. ltd limited university college school institute party club fc
    association council society bank records airlines airways group foundation agency department ministry
    army navy force committee church league union band orchestra commission court congress parliament
    senate federation organization organisation network studios pictures entertainment press times
    newspaper magazine team order international resorts holdings industries systems motors enterprises
    media communications railway railways sports technologies studio museum hospital police navy""".split()
)
PLACE_WORDS = frozenset(
    """city county river mountain mountains mount lake island islands ocean sea state states republic kingdom
    province region valley desert bay gulf coast park street avenue road square stadium arena
    airport peninsula canyon falls strait channel district territory continent village town""".split()
)
PARTICLES = frozenset(
    {"de", "van", "von", "da", "di", "del", "der", "la", "le", "du", "bin", "al", "ibn", "y", "the", "of"}
)
_PLACE_Q = re.compile(
    r"\b(?:where|what|which)\s+(?:country|city|state|county|continent|town|island|river|ocean|sea|"
    r"region|province|capital|place|part|mountain|lake|location)\b|^where\b|\bwhere\b|\bcapital of\b",
    re.I,
)
_PERSON_Q = re.compile(
    r"^(?:who|whom|whose|who's)\b|\bwho\s+(?:is|was|were|are|did|does|has|had|plays|played|sang|sings|wrote)\b|"
    r"\b(?:name of the|which)\s+(?:actor|actress|singer|player|president|author|writer|person|king|queen)\b",
    re.I,
)


@dataclass(frozen=True)
class DateValue:
    """A parsed date; `form` is one of MDY, DMY, MY, MD, DM."""

    month: int
    day: Optional[int]
    year: Optional[int]
    form: str

    def format(self) -> str:
        name = MONTHS[self.month - 1].capitalize()
        return {
            "MDY": f"{name} {self.day}, {self.year}",
            "DMY": f"{self.day} {name} {self.year}",
            "MY": f"{name} {self.year}",
            "MD": f"{name} {self.day}",
            "DM": f"{self.day} {name}",
        }[self.form]


@dataclass(frozen=True)
class NumberValue:
    """A parsed number with its prefix ('about'), scale word ('million') and unit ('km')."""

    value: float
    text: str  # the numeral as written
    prefix: str
    scale: str
    unit: str
    words: bool  # written as a number word

    @property
    def magnitude(self) -> float:
        return self.value * SCALE_WORDS.get(self.scale.strip().lower(), 1.0)


def parse_date(answer: str) -> Optional[DateValue]:
    text = " ".join(answer.replace("\u00a0", " ").split())
    for pattern, form in DATE_FORMS:
        m = pattern.match(text)
        if not m:
            continue
        month = _month_number(m.group("m"))
        day = int(re.sub(r"\D", "", m.group("d"))) if m.groupdict().get("d") else None
        year = int(m.group("y")) if m.groupdict().get("y") else None
        return DateValue(month, day, year, form)
    return None


def _month_number(token: str) -> int:
    return _MONTH_ABBR[token.lower().rstrip(".")[:3]]


def parse_year(answer: str) -> Optional[int]:
    m = YEAR_RE.match(" ".join(answer.split()))
    return int(m.group("y")) if m else None


def parse_number(answer: str) -> Optional[NumberValue]:
    text = " ".join(answer.replace("\u00a0", " ").split())
    m = NUMBER_RE.match(text)
    if m:
        raw = m.group("num")
        value = float(raw.replace(",", ""))
        return NumberValue(value, raw, m.group("prefix") or "", m.group("scale") or "", m.group("unit") or "", False)
    m = WORD_NUMBER_RE.match(text)
    if m:
        raw = m.group("num")
        return NumberValue(
            float(NUMBER_WORDS[raw.lower()]), raw, "", m.group("scale") or "", m.group("unit") or "", True
        )
    return None


def _capitalised_name(answer: str) -> bool:
    tokens = answer.replace(",", " ").split()
    if not 1 <= len(tokens) <= 5:
        return False
    caps = [t for t in tokens if t.lower() not in PARTICLES]
    return bool(caps) and all(t[:1].isupper() or t[:1] in "'\"(" for t in caps)


OFFICES = frozenset(
    """president vice general speaker minister chancellor governor secretary senator attorney chairman chairperson
    chief justice judge commissioner mayor captain lieutenant sergeant colonel major admiral officer director
    committee council court assembly parliament""".split()
)
ROYAL = frozenset("king emperor empress pope lord lady sir duke duchess".split())
DEMONYMS = frozenset(
    """french dutch english greek norman czech thai swiss welsh irish scots scottish british danish norwegian swedish
    finnish italian german germans russian russians indian egyptian roman romans persian arab arabs arabic latin
    allies axis american americans chinese japanese spanish portuguese polish turkish mexican canadian australian
    african european asian""".split()
)
_ABSTRACT = re.compile(r"(?:ing|ism|isms|tion|tions|ment|ness|ity|ology|ics)$", re.I)


def is_demonym(answer: str) -> bool:
    """A nationality or people word ("Danish", "Norwegians", "the Americans"), not a place or a person."""
    words = [w for w in answer.lower().split() if w != "the"]
    return len(words) == 1 and (words[0] in DEMONYMS or bool(re.search(r"(?:ish|ese|ans|eans|ians)$", words[0])))


def person_name(answer: str) -> bool:
    """Looks like the name of a person or a performing group: 1-4 capitalised words, no office title,
    nationality, abstract noun, place or organisation word, digit or comma ("Stanton, Giancarlo")."""
    if "," in answer or re.search(r"\d|[()\[\]\"/&]", answer):
        return False
    tokens = [t for t in answer.split() if t.lower() not in PARTICLES]
    if not 1 <= len(tokens) <= 4 or not all(t[:1].isupper() for t in tokens):
        return False
    low = [t.lower().strip(".'") for t in tokens]
    if set(low) & (OFFICES | ORG_WORDS | PLACE_WORDS) or all(w in ROYAL for w in low) or is_demonym(answer):
        return False
    if len(tokens) == 1 and ("-" in tokens[0] or "–" in tokens[0] or _ABSTRACT.search(tokens[0])):
        return False  # "Austria-Hungary", "Sharecropping"
    return True


def well_formed(answer: str) -> bool:
    """An answer usable as a value: brackets and quotes paired, no leading conjunction, no dangling punctuation."""
    text = answer.strip()
    if not text or text[0] in ",;:.)]-–" or text[-1] in ",;:([-–" or re.match(r"(?:or|and|but|nor)\s", text, re.I):
        return False
    if text.count("(") != text.count(")") or text.count("[") != text.count("]") or text.count('"') % 2:
        return False
    return text[0] not in '(["' or text[-1] not in ')]"'


def detect(answer: str, question: str = "") -> str:
    """The answer's type, given the question it answers (the question may be '')."""
    text = " ".join(str(answer).split())
    if not text:
        return OTHER
    if parse_date(text):
        return DATE
    year = parse_year(text)
    if year is not None and (not question or not re.search(r"\bhow many\b", question, re.I)):
        return YEAR
    if parse_number(text) and not re.search(r"[A-Z]", text):
        return NUMBER
    if year is not None:
        return NUMBER
    words = {w.strip(".,()").lower() for w in text.split()}
    if re.fullmatch(r"[A-Z][A-Z&.\-]{1,5}", text):  # an acronym: BBC, NASA, U.N.
        return ORGANISATION
    if words & ORG_WORDS and _capitalised_name(text):
        return ORGANISATION
    if is_demonym(text):
        return OTHER  # "Danish", "the Americans": a people or a language, not a place or a person
    if _PERSON_Q.search(question or "") and _capitalised_name(text):
        if words & ORG_WORDS or text.lower().startswith("the ") or len(text.split()) > 4:
            return ORGANISATION
        return PERSON if person_name(text) else OTHER
    if _PLACE_Q.search(question or "") and _capitalised_name(text.removeprefix("in ").removeprefix("the ")):
        return PLACE
    if words & PLACE_WORDS and _capitalised_name(text):
        return PLACE
    return OTHER
