"""P-MissingInfo LOW levers that trim a detail inside a sentence: the month and day of a date (the year stays),
the city before its country or state (the country stays).

The question is never about the detail, so it stays answerable from what is left; the query is never touched.
Both decline where the trimmed phrase scopes a ranking, a count or a quantifier ("the largest stadium in Lyon,
France" would become a false "the largest stadium in France"), where something else in the passage leans on
the detail (a "days later", a second mention of the city), and inside quotations.
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import CONTEXT, Item, NotApplicable, Proposal, lever
from refusalbench.perturb.missing_gates import RANK_WORDS
from refusalbench.perturb.text import contains, contains_any, inside_quotes, tidy

MI = tx.MISSING_INFO

_DAY = at.DAY_NUMBER
_YEAR = rf"(?P<year>{at.MODERN_YEAR})"
_MONTH = at.MONTH_NAME
# "on 3 May 1932", "on May 3, 1932", "in May 1932": the preposition goes with the date, so "in 1932" replaces it
_DATE = re.compile(
    rf"\b(?:[Oo]n\s+(?:{_DAY}\s+{_MONTH}|(?P<mdy>{_MONTH}\s+{_DAY}),?)|[Ii]n\s+{_MONTH},?)\s+{_YEAR}\b(?P<comma>,(?=\s))?"
    # never a range ("on 3 May 1932 – 5 May 1933") nor a date run on into another ("3 May 1932 and 4 May")
    r"(?!\s*(?:[-–—]|to\b|and\s+\d))"
)
# a question about a time: the trimmed date may be what it asks, or what ties the query to the answer
_TIME_QUESTION = re.compile(
    rf"\b(?:when|what\s+(?:year|date|day|month|time)|which\s+(?:year|date|day|month)|how\s+long|how\s+old|age|"
    rf"date|dates|day|days|month|months|season|{at.MONTH_NAMES.lower()})\b",
    re.I,
)
# what in the passage may lean on the day or month ("two days later", "the same month", "that morning")
_RELATIVE_TIME = re.compile(
    r"\b(?:day|days|week|weeks|fortnight|month|months|morning|afternoon|evening|night|nights|weekend|"
    r"yesterday|tomorrow|tonight|date|dated|anniversary)\b",
    re.I,
)
# a question that asks which came first or what held at a time: trimming a date may change the order
_ORDER_QUESTION = re.compile(
    r"\b(?:first|last|earliest|latest|before|after|until|till|since|recent|current|currently|newest|oldest|"
    r"youngest|previous|next|ever|still|now|today|during)\b",
    re.I,
)
# a ranking, count or quantifier whose scope the phrase sets: without the phrase the claim is a broader, false one
# (a year is no count: "born in 1932 in Lyon, France" keeps its meaning)
_SCOPED = re.compile(
    rf"{RANK_WORDS.pattern}|\b(?:all|every|each|no|none|any|many|most|few|several|some|both|only|numerous|"
    rf"one|two|three|four|five|six|seven|eight|nine|ten|dozen|hundreds|thousands|millions)\b"
    rf"|(?<![\d,.])(?!{at.MODERN_YEAR}s?\b)\d",
    re.I,
)
# a superlative in lower case ("the largest", "the busiest"), not a word that only ends so ("west", "contest")
_SUPERLATIVE = re.compile(r"\b[a-z]{2,}est\b")
_NOT_SUPERLATIVE = frozenset(
    """west midwest northwest southwest forest interest contest protest request suggest arrest honest modest harvest
    invest test rest quest guest nest chest pest crest conquest manifest earnest digest inquest tempest behest
    priest attest detest infest""".split()
)


def _before_in_sentence(text: str, pos: int) -> str:
    """What the sentence holding `pos` says before it."""
    start = max(text.rfind(mark, 0, pos) for mark in (". ", "? ", "! "))
    return text[start + 1 if start >= 0 else 0 : pos]


def _rest_of_sentence(text: str, m: re.Match) -> str:
    """The sentence holding match `m`, without the matched phrase."""
    ends = [e for e in (text.find(mark, m.end()) for mark in (". ", "? ", "! ")) if e >= 0]
    return _before_in_sentence(text, m.start()) + " " + text[m.end() : min(ends) if ends else len(text)]


def _scopes_a_claim(text: str, m: re.Match) -> bool:
    """True when the phrase's sentence ranks, counts or quantifies something: the phrase may set its scope."""
    rest = _rest_of_sentence(text, m)
    return bool(_SCOPED.search(rest)) or any(w not in _NOT_SUPERLATIVE for w in _SUPERLATIVE.findall(rest))


def _ask_free(item: Item, asked: re.Pattern[str]) -> None:
    """Decline a question that asks what the trim would touch, or about an order in time."""
    if asked.search(item.query) or _ORDER_QUESTION.search(item.query):
        raise NotApplicable("the question asks about what the trim would remove, or about an order in time")


def _trim_one(item: Item, pattern: re.Pattern[str], keep, usable) -> list[str]:
    """Replace one seeded match of `pattern` in each answer-bearing passage by `keep(match)`, among the
    matches `usable(passage, match)` accepts; never one inside quotes, holding an answer or a query word."""
    words = item.query_words()

    def edit(passage: str) -> str:
        spans = [
            m
            for m in pattern.finditer(passage)
            if not inside_quotes(passage, m.start())
            and not contains_any(m.group(0), item.answers)
            and not any(contains(m.group(0), w) for w in words)
            and not _scopes_a_claim(passage, m)
            and usable(passage, m)
        ]
        if not spans:
            return passage
        m = item.rng.choice(spans)
        return tidy(passage[: m.start()] + keep(m) + passage[m.end() :])

    return item.edit_signal(edit)


def _date_usable(passage: str, m: re.Match) -> bool:
    """The year of the trimmed date dates nothing else in the passage (two events of one year would lose
    their order), and nothing in the passage counts days, weeks or months from it."""
    others = passage[: m.start()] + passage[m.end() :]
    return not re.search(rf"\b{m.group('year')}\b", others) and not _RELATIVE_TIME.search(others)


# a word after which a comma that only closed the phrase's pair is better gone ("based in England that ...",
# "released in 1964 by ..."); before any other word (", specialising in ...", ", it tells ...", ", where ...")
# the comma may set off a phrase or close an opening one, so it stays
_FLOWS_ON = re.compile(
    r"\s+(?:that|and|or|in|on|at|by|for|from|to|with|during|since|until|after|before|the\s+(?:previous|following|"
    r"next|same)\s+(?:day|week|month|year|spring|summer|autumn|fall|winter|season))\b"
)


def _closing_comma(m: re.Match) -> str:
    """The comma matched after the phrase, or nothing where it only closed the phrase's own pair ("May 3,
    1932," or "Lyon, France,") mid-sentence and the sentence flows on (`_FLOWS_ON`); it stays where the sentence
    opens on the phrase ("On May 3, 1932, the ...") or an earlier comma may pair with it."""
    comma = m.group("comma") or ""
    before = _before_in_sentence(m.string, m.start())
    if comma and before.strip() and "," not in before and _FLOWS_ON.match(m.string[m.end() :]):
        return ""
    return comma


def _year_alone(m: re.Match) -> str:
    """ "in 1932" for the matched date (see `_closing_comma` for the comma after it)."""
    year = f"{'In' if m.group(0)[0].isupper() else 'in'} {m.group('year')}"
    return year + (_closing_comma(m) if m.group("mdy") else m.group("comma") or "")


@lever(MI, tx.LOW, "Trim Month but Keep Year", CONTEXT)
def trim_month(item: Item) -> Proposal:
    """ "on 3 May 1932" becomes "in 1932" where the question asks neither a time nor an order."""
    item.need_anchor()
    _ask_free(item, _TIME_QUESTION)
    if any(re.search(rf"\d|\b(?:{at.MONTH_NAMES})\b", a, re.I) for a in item.answers):
        raise NotApplicable("an answer holds a figure or a month")
    passages = _trim_one(item, _DATE, _year_alone, _date_usable)
    return Proposal(item.query, passages, "Removed the month and day from a date; the year and the answer stay.")


# the larger places a city is written with: countries, and the states or provinces of a few federations
_REGIONS = (
    "Afghanistan|Albania|Algeria|Andorra|Angola|Argentina|Armenia|Australia|Austria|Azerbaijan|Bahrain|Bangladesh|"
    "Barbados|Belarus|Belgium|Belize|Benin|Bhutan|Bolivia|Botswana|Brazil|Bulgaria|Burundi|Cambodia|Cameroon|Canada|"
    "Chad|Chile|China|Colombia|Croatia|Cuba|Cyprus|Denmark|Ecuador|Egypt|Eritrea|Estonia|Ethiopia|Fiji|Finland|"
    "France|Gabon|Georgia|Germany|Ghana|Greece|Guatemala|Guinea|Guyana|Haiti|Honduras|Hungary|Iceland|India|"
    "Indonesia|Iran|Iraq|Ireland|Israel|Italy|Jamaica|Japan|Jordan|Kazakhstan|Kenya|Kuwait|Kyrgyzstan|Laos|Latvia|"
    "Lebanon|Lesotho|Liberia|Libya|Liechtenstein|Lithuania|Luxembourg|Madagascar|Malawi|Malaysia|Mali|Malta|"
    "Mauritania|Mauritius|Mexico|Moldova|Monaco|Mongolia|Montenegro|Morocco|Mozambique|Myanmar|Namibia|Nepal|"
    "Netherlands|New Zealand|Nicaragua|Niger|Nigeria|North Korea|Norway|Oman|Pakistan|Panama|Paraguay|Peru|"
    "Philippines|Poland|Portugal|Qatar|Romania|Russia|Rwanda|Saudi Arabia|Senegal|Serbia|Singapore|Slovakia|"
    "Slovenia|Somalia|South Africa|South Korea|Spain|Sri Lanka|Sudan|Suriname|Sweden|Switzerland|Syria|Taiwan|"
    "Tajikistan|Tanzania|Thailand|Togo|Tunisia|Turkey|Turkmenistan|Uganda|Ukraine|Uruguay|Uzbekistan|Venezuela|"
    "Vietnam|Yemen|Zambia|Zimbabwe|England|Scotland|Wales|Northern Ireland|"
    "Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Hawaii|Idaho|Illinois|Indiana|"
    "Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|Michigan|Minnesota|Mississippi|Missouri|Montana|"
    "Nebraska|Nevada|New Hampshire|New Jersey|New Mexico|New York|North Carolina|North Dakota|Ohio|Oklahoma|Oregon|"
    "Pennsylvania|Rhode Island|South Carolina|South Dakota|Tennessee|Texas|Utah|Vermont|Virginia|Washington|"
    "West Virginia|Wisconsin|Wyoming|Ontario|Quebec|British Columbia|Alberta|Manitoba|Saskatchewan|Nova Scotia|"
    "New South Wales|Queensland|Victoria|Tasmania"
)
_NAME = r"[A-Z][a-zà-ÿ'-]+"
# "in Lyon, France" / "from Austin, Texas": only after "in" or "from", where the country alone reads the same way
# ("the mayor of Lyon" or "near Lyon" would not); the city one to three capitalised words
_CITY = re.compile(
    rf"\b(?P<prep>[Ii]n|[Ff]rom)\s+(?P<city>(?:St\.\s+)?{_NAME}(?:\s+{_NAME}){{0,2}}),\s+(?P<region>{_REGIONS})"
    # followed by a comma and a word in lower case, by punctuation, or by a function word: "in Paris, Washington
    # signed ..." names a person, not a state
    r"(?:(?P<comma>,)(?=\s+[a-z])|(?=[.,;:)]|\s+(?:in|on|at|to|and|or|where|when|for|with|before|after|during|until|"
    r"as|but|by|since)\b))"
)
# a place question: the city may be what it asks or what places the answer
_PLACE_QUESTION = re.compile(
    r"\b(?:where|city|cities|town|towns|village|state|country|countries|county|province|region|located|location|"
    r"place|capital|born|based|headquarters?|headquartered|home|hometown|venue|held|hosted|site|from|live|lives|"
    r"lived|native|nationality)\b",
    re.I,
)
# a later pointer to the city ("the city's mayor", "the town"): without its name it would point at the country
_CITY_POINTER = re.compile(r"\b(?:the|its|this|that)\s+(?:city|town|village|municipality|capital|suburb|port)\b", re.I)


# the adjectives of the regions that do not share their first four letters ("Portuguese" does with "Portugal")
_ADJECTIVE_OF = {
    "France": "French",
    "Netherlands": "Dutch",
    "Finland": "Finnish",
    "Ireland": "Irish",
    "Northern Ireland": "Irish",
    "Spain": "Spanish",
    "Wales": "Welsh",
    "Denmark": "Danish",
    "Switzerland": "Swiss",
    "Poland": "Polish",
    "Sweden": "Swedish",
    "Iceland": "Icelandic",
    "Scotland": "Scots",
    "New Zealand": "New Zealand",
    "Philippines": "Filipino",
    "Thailand": "Thai",
}


def _region_named_again(sentence: str, region: str) -> bool:
    """True when the sentence names the region, or its adjective, besides the phrase: "a Portuguese chain
    headquartered in Braga, Portugal" would read "a Portuguese chain headquartered in Portugal"."""
    adjective = _ADJECTIVE_OF.get(region, region[:4])
    return bool(re.search(rf"\b{re.escape(region)}\b|\b{re.escape(adjective)}", sentence))


def _city_usable(item: Item):
    """The test of a matched "in <city>, <region>" for `item`: the city is no part of a name, the title or an answer,
    nothing later names or points to it, and its sentence does not name the region otherwise."""
    title = (item.title or "").lower()

    def usable(passage: str, m: re.Match) -> bool:
        city = m.group("city")
        others = passage[: m.start()] + passage[m.end() :]
        before = passage[: m.start()].rstrip()
        prev = before.split()[-1] if before.split() else ""
        opens = not before or before.endswith((".", "!", "?")) or len(before.split()) == 1
        return (
            not (prev[:1].isupper() and not opens)  # "University College in London, England": part of a name
            and not re.fullmatch(_REGIONS, city)  # "from Manitoba, Ontario and Nova Scotia": a list of regions
            and city.lower() not in title
            and not any(contains(a, city) for a in item.answers)
            and not re.search(rf"\b{re.escape(city)}\b", others)
            and not _CITY_POINTER.search(passage[m.end() :])
            and not _region_named_again(_rest_of_sentence(passage, m), m.group("region"))
        )

    return usable


@lever(MI, tx.LOW, "Remove City Phrase", CONTEXT)
def remove_city(item: Item) -> Proposal:
    """ "born in Lyon, France" becomes "born in France" where the question asks nothing about a place."""
    item.need_anchor()
    _ask_free(item, _PLACE_QUESTION)
    passages = _trim_one(
        item, _CITY, lambda m: f"{m.group('prep')} {m.group('region')}{_closing_comma(m)}", _city_usable(item)
    )
    return Proposal(
        item.query,
        passages,
        "Removed a city's name where the passage also gives its country or state; the answer stays.",
    )
