"""Semantic detectors: deterministic tests of whether a candidate is what its label says.

They work on a candidate's texts only (original and perturbed query and passages, the answers,
class and intensity), so they apply to any generator, LLM or programmatic. Each detector returns
a reason string when the item fails, else None. `detect` runs all single-item detectors;
`identical_intensities` compares the intensities of one item and needs the whole table.

Detectors (names as recorded in the check table):

- `answer_variant_survives`: MissingInfo MEDIUM/HIGH still states an answer, up to case, plural,
  common suffixes and diacritics ("Longlines" for "Longline", "optic chiasma" for "optic chiasm").
- `answer_uncontested`: Contradiction MEDIUM/HIGH leaves a stated answer that no added statement
  disputes (a denial of one sentence while another still states it; a date clash within its year).
- `answer_in_both_readings`: Ambiguity MEDIUM/HIGH adds text that itself states an answer, so the
  answer is safe under both readings.
- `ambiguity_reads_as_contradiction`: Ambiguity adds a copy of the answer sentence with only the
  answer swapped (same subject, two values: a contradiction, not an ambiguous query).
- `frame_unsuitable`: a question frame that makes no sense for this question (a forecast or trend
  for a single past event, a worldwide average of a non-quantity, an aesthetic judgement of a number,
  an "ought" about a definition) or a FalsePremise LOW aside that carries no premise at all.
- `broken_capitalisation`: a capitalised common word inside a sentence ("states that Ultimately, ...",
  "in the U.S. After the 2014 model year")
  or a sentence of new text starting in lower case.
- `insertion_in_quotation`: new text put inside a quotation of the original.
- `malformed_rival_value`: new text holds a value no careful writer would give (two months in one date,
  "1965–64", "202 season", "in 3360", 130 %, an age over 130) that the original passages do not have
  (not MissingInfo, which writes no value).
- `name_case_changed`: new text copies a name in lower case ("states that player, from South Africa").
- `answer_name_word_survives` and `dangling_opening_pronoun` (in `semantic_cuts`): a distinctive word
  of a multi-word answer (a surname) left after MissingInfo MEDIUM/HIGH removed the answer; a passage
  left opening on a pronoun, or a demonstrative left after a cut sentence, whose antecedent was cut.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from typing import Iterable, Optional, Sequence

from refusalbench import taxonomy as tx
from refusalbench.generation.semantic_cuts import answer_name_word_survives, dangling_opening_pronoun

STOP = frozenset(
    """a an the of in on at to for from by with and or but is are was were be been being it its this that
these those which who whom whose what when where why how do does did has have had as not no than then there their
his her he she they them we you i also into over under about after before during between since until while""".split()
)
SUFFIXES = r"(?:s|es|'s|a|e|ed|d|ing|er|ers|ian|ians|n|ns|ic|al)?"
_WORD = re.compile(r"[\w'’-]+")
_YEAR = re.compile(r"(?<!\d)(1[0-9]{3}|20[0-9]{2})(?!\d)")


# -- normalising and matching ----------------------------------------------------------------


def fold(text: str) -> str:
    """Lower case without diacritics, curly quotes straightened (same length is not kept)."""
    text = unicodedata.normalize("NFKD", str(text))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.replace("’", "'").replace("‘", "'").casefold()


def _stem(token: str) -> str:
    for suffix in ("'s", "es", "s", "a", "e"):
        if token.endswith(suffix) and len(token) - len(suffix) >= 4:
            return token[: -len(suffix)]
    return token


def variant_pattern(answer: str) -> Optional[re.Pattern[str]]:
    """A pattern over folded text for `answer` and its case, plural, suffix and diacritic variants."""
    tokens = _WORD.findall(fold(answer))
    if not tokens:
        return None
    parts = [re.escape(t) for t in tokens[:-1]]
    last = tokens[-1]
    if last.isalpha() and len(last) >= 4:
        parts.append(
            re.escape(_stem(last)) + r"[a-z]{0,3}" if len(_stem(last)) >= 5 else re.escape(_stem(last)) + SUFFIXES
        )
    else:
        parts.append(re.escape(last))
    return re.compile(r"(?<![\w])" + r"[\W_]+".join(parts) + r"(?![\w])")


def variants_in(text: str, answers: Iterable[str]) -> list[str]:
    """Answers stated in `text` in any variant form."""
    folded = fold(text)
    return [a for a in answers if (p := variant_pattern(a)) and p.search(folded)]


def sentences(text: str) -> list[str]:
    """Sentences of `text`, keeping initials and abbreviations inside ("J. R. R. Tolkien", "Dr.")."""
    from refusalbench.perturb.text import split_sentences  # lazily: the perturb package is heavy to import

    return split_sentences(str(text))


def content_words(text: str) -> set[str]:
    return {w for w in _WORD.findall(fold(text)) if w not in STOP and len(w) > 2}


def new_sentences(original: Sequence[str], perturbed: Sequence[str]) -> list[str]:
    """Sentences of the perturbed passages that no original passage has (whitespace-insensitive)."""
    old = {" ".join(s.split()) for p in original for s in sentences(p)}
    return [s for p in perturbed for s in sentences(p) if " ".join(s.split()) not in old]


# -- the item view ---------------------------------------------------------------------------


class Candidate:
    """The texts a detector sees: class, intensity, queries, passages and answers."""

    def __init__(
        self,
        cls: str,
        intensity: str,
        original_query: str,
        perturbed_query: str,
        original_passages: Sequence[str],
        perturbed_passages: Sequence[str],
        answers: Sequence[str],
    ):
        self.cls, self.intensity = cls, intensity
        self.original_query, self.perturbed_query = str(original_query or ""), str(perturbed_query or "")
        self.original = [str(p) for p in original_passages]
        self.perturbed = [str(p) for p in perturbed_passages]
        self.answers = [str(a).strip().rstrip(".").strip() for a in answers if str(a).strip()]
        self.added = new_sentences(self.original, self.perturbed)

    @property
    def refuse(self) -> bool:
        return self.intensity in (tx.MEDIUM, tx.HIGH)

    def stated(self) -> list[str]:
        """Answers the original passages state."""
        return variants_in(" ".join(self.original), self.answers)


# -- detectors -------------------------------------------------------------------------------


def answer_variant_survives(c: Candidate) -> Optional[str]:
    if c.cls != tx.MISSING_INFO or not c.refuse:
        return None
    left = variants_in(" ".join(c.perturbed), c.answers)
    return f"an answer survives in a variant form: {', '.join(repr(a) for a in left)}" if left else None


_NEGATED = r"(?:not|never|no longer|denies|denied|disputes?|rejects?|wrong|incorrect|false)\b[^.;]{0,60}"


def _contested(answer: str, c: Candidate) -> bool:
    pattern = variant_pattern(answer)
    year = _YEAR.search(answer)
    originals = [s for p in c.original for s in sentences(p) if pattern.search(fold(s))]
    answer_words = content_words(answer)
    for s in c.added:
        folded = fold(s)
        if re.search(_NEGATED + pattern.pattern, folded):
            return True
        if year and re.search(_NEGATED + rf"\b{year.group(1)}\b", folded):
            return True  # "... on May 18, 2016, and not in 2018": the answer's year itself denied
        if year and re.search(rf"\b(?:not|never)\b[^.;]*\bby\s+the\s+end\s+of\s+{year.group(1)}\b", folded):
            return True  # "He had not yet led the ... Survey by the end of 1986": the whole year denied
        if pattern.search(folded):
            continue
        if year and year.group(1) in s and not _YEAR.fullmatch(answer.strip()):
            continue  # "May 3, 1950" against "May 9, 1950": the year is not in dispute
        if _rival_count(answer, folded):
            return True
        words = content_words(s) - answer_words
        for o in originals:
            base = content_words(o) - answer_words
            if base and (len(words & base) >= 3 or len(words & base) / len(base) >= 0.3):
                return True
    return False


_FIGURE = (
    r"(?:\d[\d,.]*|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-[a-z]+)?|one|two|three|four|five|six|"
    r"seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|hundred)"
)
_COUNT_ANSWER = re.compile(rf"^{_FIGURE}\s+(?P<noun>[a-z][\w'-]*)$")


def _rival_count(answer: str, folded: str) -> bool:
    """True when `folded` (an added sentence) gives another figure of the noun a count answer counts: "it is made up
    of 31 seats" against "47 seats", however little else of the answer sentence it repeats."""
    m = _COUNT_ANSWER.match(fold(answer).strip())
    if not m:
        return False
    noun = re.escape(_stem(m.group("noun")))
    return bool(re.search(rf"(?<![\w,.]){_FIGURE}\s+(?:[a-z-]+\s+)?{noun}[a-z]{{0,3}}\b", folded))


def answer_uncontested(c: Candidate) -> Optional[str]:
    if c.cls != tx.CONTRADICTION or not c.refuse:
        return None
    present = [a for a in c.stated() if variants_in(" ".join(c.perturbed), [a])]
    contested = [a for a in present if _contested(a, c)]

    def overlaps(a: str, b: str) -> bool:  # "turlough" disputed disputes "A turlough, or turlach"
        return bool(variants_in(a, [b]) or variants_in(b, [a]))

    safe = [a for a in present if a not in contested and not any(overlaps(a, b) for b in contested)]
    return f"no added statement disputes the answer {', '.join(repr(a) for a in safe)}" if safe else None


def answer_in_both_readings(c: Candidate) -> Optional[str]:
    if c.cls != tx.AMBIGUITY or not c.refuse:
        return None
    both = variants_in(" ".join(c.added), c.answers)
    return f"the added reading also states the answer {', '.join(repr(a) for a in both)}" if both else None


def ambiguity_reads_as_contradiction(c: Candidate) -> Optional[str]:
    if c.cls != tx.AMBIGUITY or not c.added:
        return None
    answer_words = set().union(*(content_words(a) for a in c.answers)) if c.answers else set()
    originals = [s for p in c.original for s in sentences(p) if variants_in(s, c.answers)]
    for s in c.added:
        words = content_words(s) - answer_words
        for o in originals:
            base = content_words(o) - answer_words
            if len(base) >= 3 and len(words & base) / len(base) >= 0.75:
                return "an added sentence repeats the answer sentence with another value (reads as a contradiction)"
    return None


# question types of the original query and answers
PAST_EVENT, QUANTITY, DEFINITION, PERSON, PLACE, DATE = (
    "past event",
    "quantity",
    "definition",
    "person",
    "place",
    "date",
)
CHANGEABLE, CHOICE = "changeable state", "choice"
_PAST = re.compile(
    r"^(?:when|what year|in what year|which year)\b.*\b(?:did|was|were)\b|\b(?:did|was|were|won|wrote|"
    r"died|invented|discovered|founded|built|signed|released|sang|played|became|began|ended|started)\b"
)
_QUANTITY = re.compile(
    r"^(?:how (?:many|much|long|old|tall|far|big|high|deep|wide|fast)|what (?:is|was) the "
    r"(?:number|population|size|height|length|amount|cost|price))\b"
)
_DEFINITION = re.compile(
    r"^(?:what (?:is|are|does|do) (?:an? |the )?[\w\s'-]+(?:mean|stand for)?$|define\b|meaning of\b)"
)
# a state that can change over time: "who is the current ...", "how many ... are there", "what is the population"
_CHANGEABLE = re.compile(
    r"\b(?:current(?:ly)?|now|today|present|latest|reigning|record|population|how many \w+(?: \w+)? "
    r"(?:are|is) (?:there|in)|who (?:is|are) the (?:\w+ )?(?:president|prime minister|ceo|leader|head|"
    r"coach|owner|chairman|governor|mayor|speaker|king|queen|champion|captain|host)s?)\b"
)
# an outcome someone chose: an election, an award, an appointment, a casting
_CHOICE = re.compile(
    r"\b(?:won|win|wins|elected|appointed|chosen|selected|awarded|nominated|named|cast|drafted|picked|"
    r"decided|voted|hired|fired|replaced|succeeded)\b"
)


def question_types(query: str, answers: Sequence[str]) -> set[str]:
    """Kinds of the question (past event, quantity, definition, person, place, date, changeable state, choice)."""
    q = fold(query).strip(" ?")
    kinds = set()
    if _PAST.search(q):
        kinds.add(PAST_EVENT)
    if _QUANTITY.search(q):
        kinds.add(QUANTITY)
    if _DEFINITION.search(q) and not _PAST.search(q) and len(q.split()) <= 8:
        kinds.add(DEFINITION)
    if q.startswith(("who ", "whom ")):
        kinds.add(PERSON)
    if q.startswith("where "):
        kinds.add(PLACE)
    if q.startswith(("when ", "what year", "in what year", "which year")) or any(
        _YEAR.fullmatch(a.strip()) for a in answers
    ):
        kinds.add(DATE)
    if _CHANGEABLE.search(q):
        kinds.add(CHANGEABLE)
    if _CHOICE.search(q):
        kinds.add(CHOICE)
    return kinds


# frame family → (pattern on the folded perturbed query, test of the question's kinds that it suits, why not)
FRAMES = {
    "forecast": (
        re.compile(r"\b(?:years? from now|in the (?:distant |far )?future|a century from now|will the answer be)\b"),
        lambda k: CHANGEABLE in k,
        "a forecast of something that does not change (a past event, a fixed fact)",
    ),
    "trend": (
        re.compile(
            r"\b(?:from decade to decade|decade by decade|over the past (?:century|hundred years)|changed over)\b"
        ),
        lambda k: CHANGEABLE in k or (QUANTITY in k and DATE not in k),
        "a trend over time for a single event or fact",
    ),
    "aggregate": (
        re.compile(r"\b(?:averaged over|in every country|worldwide average|typical answer|global average)\b"),
        lambda k: QUANTITY in k,
        "a worldwide average of something that is not a quantity",
    ),
    "coordinates": (
        re.compile(r"\b(?:latitude and longitude|gps coordinates|to the nearest metre)\b"),
        lambda k: PLACE in k,
        "a metre-precise position asked of something the question does not place",
    ),
    "street address": (
        re.compile(r"\bstreet address\b"),
        lambda k: PLACE in k,
        "a street address asked of something the question does not place",
    ),
    "group member": (
        re.compile(r"\bwhich member of the (?:band|group|duo|trio|quartet|quintet)\b"),
        lambda k: PERSON in k,
        "a member of a group asked where the question asks for no one",
    ),
    "aesthetic": (
        re.compile(r"\bmost beautiful\b"),
        lambda k: not k & {QUANTITY, DATE, DEFINITION},
        "an aesthetic judgement of a number, a date or a definition",
    ),
    "normative": (
        re.compile(r"\b(?:should the answer|ought to have been|should have been different)\b"),
        lambda k: CHOICE in k and not k & {DEFINITION, QUANTITY},
        "an 'ought' about something nobody chose",
    ),
    "counterfactual": (
        re.compile(r"\b(?:had history taken|in an alternate history|if history had)\b"),
        lambda k: not k & {DEFINITION, QUANTITY},
        "an alternate history of a definition or a measure",
    ),
}
_ASIDE_WORDS = frozenset(
    "question quiz pub friend school project topic subject mentioned recently asked wondering "
    "curious class homework trivia night week".split()
)


# frames that may also ask a new question about the passage's subject instead of wrapping the original question
_ABOUT_SUBJECT = frozenset({"forecast", "aesthetic", "counterfactual"})


def _wraps_original(c: Candidate) -> bool:
    """The perturbed query still carries the original question (a frame put around it), rather than asking
    a new question about the passage's subject ("Will the song ... still be known in fifty years?")."""
    words = content_words(c.original_query)
    return words <= content_words(c.perturbed_query)


def frame_unsuitable(c: Candidate) -> Optional[str]:
    if c.perturbed_query == c.original_query:
        return None
    q = fold(c.perturbed_query)
    kinds = question_types(c.original_query, c.answers)
    for name, (pattern, suits, why) in FRAMES.items():
        if not pattern.search(q) or pattern.search(fold(c.original_query)):
            continue
        if name in _ABOUT_SUBJECT and not _wraps_original(c):
            continue
        if not suits(kinds):
            return f"{name} frame on this question: {why}"
    if c.cls == tx.FALSE_PREMISE and c.intensity == tx.LOW:
        added = content_words(c.perturbed_query) - content_words(c.original_query)
        topic = content_words(" ".join(c.original))
        if added and not (added & topic) and added <= _ASIDE_WORDS | added - topic and added & _ASIDE_WORDS:
            return "the added aside carries no premise about the question's subject"
    return None


_OPENERS = frozenset(
    """the a an in on at it this these those there however ultimately after before during when while as
following although though originally initially later eventually today currently meanwhile his her their its he she they
we some many most several both each one two three other another such since despite unlike""".split()
)
_MID_CAPITAL = re.compile(r"\b(?:that|which|who|and|but|or|because|whether|if)\s+([A-Z][a-z]+)(?![\w'’-])(,?)\s*(\S*)")
_LOWER_START = re.compile(r"^[\"'“‘(]*[a-z]")
# a capitalised function word after an abbreviation with inner stops, mid-sentence ("in the U.S. After the 2014")
_CAPITAL_AFTER_ABBREVIATION = re.compile(r"(?<![\w.])((?:[A-Za-z]\.){2,})\s+([A-Z][a-z]+)\b")
_FUNCTION_WORDS = _OPENERS | frozenset("of to for from with by into until than and but or".split())
_LOWER_AFTER_STOP = re.compile(r"[.!?][\"'”’)\]]*\s+[a-z]\w*")


def _edited(c: Candidate, text: str) -> bool:
    """True when `text` is the query or lies in a passage edited from its original, not one replaced whole (a
    replacement's "in Washington, D.C. It was ..." is its source's own sentence break)."""
    from refusalbench.perturb.text import normalise_space

    if text == c.perturbed_query:
        return True
    for old, new in zip(c.original, c.perturbed):
        if text in normalise_space(new):
            return difflib.SequenceMatcher(None, old.split(), new.split(), autojunk=False).ratio() >= 0.5
    return True


def broken_capitalisation(c: Candidate) -> Optional[str]:
    from refusalbench.perturb.text import is_abbreviation

    texts = list(c.added)
    if c.perturbed_query != c.original_query:
        texts.append(c.perturbed_query)
    for s in texts:
        for m in _MID_CAPITAL.finditer(s):
            word, comma, nxt = m.groups()
            if (
                word.lower() in _OPENERS
                and (comma or not nxt[:1].isupper())
                and not re.search(rf"(?<![.!?]\s)\b{word}\b", " ".join(c.original) + " " + c.original_query)
            ):
                return f"a capitalised '{word}' inside a sentence: {m.group(0)[:60]!r}"
        for m in _CAPITAL_AFTER_ABBREVIATION.finditer(s):
            if m.group(2).lower() in _FUNCTION_WORDS and m.group(0) not in " ".join(c.original) and _edited(c, s):
                return f"a capitalised '{m.group(2)}' after the abbreviation {m.group(1)!r}: {m.group(0)!r}"
        for m in _LOWER_AFTER_STOP.finditer(s):
            token = s[: m.start() + 1].rsplit(" ", 1)[-1]
            if not is_abbreviation(token) and not token.endswith("..") and m.group(0) not in " ".join(c.original):
                return f"lower case after a full stop: {s[max(0, m.start() - 30) : m.end() + 20]!r}"
        if s is c.perturbed_query and _LOWER_START.match(c.original_query):
            continue  # a query written in lower case throughout (as NQ's are) is not broken
        if _LOWER_START.match(s) and not s.split(" ", 1)[0].lower().startswith(("e.g", "i.e", "c.")):
            if s.split(" ", 1)[0] not in " ".join(c.original):
                return f"a sentence starts in lower case: {s[:60]!r}"
    return None


def _open_quote_before(tokens: Sequence[str]) -> list[bool]:
    """For each gap i (before token i, i = 0..n): whether a quotation is open there."""
    out, straight, curly = [False], 0, 0
    for t in tokens:
        straight += t.count('"')
        curly += t.count("“") - t.count("”")
        out.append(straight % 2 == 1 or curly > 0)
    return out


def insertion_in_quotation(c: Candidate) -> Optional[str]:
    for old, new in zip(c.original, c.perturbed):
        if old == new or ('"' not in old and "“" not in old):
            continue
        a, b = old.split(), new.split()
        matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
        if matcher.ratio() < 0.5:
            continue  # a replaced passage, not an edit of this one
        inside = _open_quote_before(a)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            edit = op == "insert" or (op == "replace" and i2 - i1 <= 2)
            if edit and j2 - j1 >= 2 and inside[i1] and inside[i2]:
                return f"text inserted inside a quotation: {' '.join(b[j1:j2])[:60]!r}"
    return None


def malformed_rival_value(c: Candidate) -> Optional[str]:
    from refusalbench.generation.value_shape import new_shape_faults

    if c.cls == tx.MISSING_INFO:
        return None  # it removes text or swaps in another question's passage; it writes no value
    faults = new_shape_faults(c.added, c.original)
    return f"malformed value in new text: {faults[0]}" if faults else None


def name_case_changed(c: Candidate) -> Optional[str]:
    from refusalbench.generation.value_shape import lowered_names

    lowered = lowered_names(c.added, c.original)
    return f"a name lost its capital: {lowered[0]}" if lowered else None


DETECTORS = (
    answer_variant_survives,
    answer_uncontested,
    answer_in_both_readings,
    ambiguity_reads_as_contradiction,
    frame_unsuitable,
    broken_capitalisation,
    insertion_in_quotation,
    malformed_rival_value,
    name_case_changed,
    answer_name_word_survives,
    dangling_opening_pronoun,
)


def detect(c: Candidate) -> list[tuple[str, str]]:
    """(detector name, reason) for every single-item detector the candidate fails."""
    hits = []
    for fn in DETECTORS:
        reason = fn(c)
        if reason:
            hits.append((fn.__name__, reason))
    return hits


IDENTICAL = "identical_intensities"


def identical_intensities(texts: dict[str, tuple]) -> dict[str, str]:
    """Per intensity of one item (same question, class, generator): a reason when another intensity
    has exactly the same perturbed texts."""
    out = {}
    for intensity, text in texts.items():
        same = [k for k, t in texts.items() if k != intensity and t == text]
        if same:
            out[intensity] = f"the same perturbed text as the {'/'.join(sorted(same))} item of this question"
    return out
