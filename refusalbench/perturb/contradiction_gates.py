"""Gates of the Contradiction levers: what makes a clash valid, not only fluent.

- the new statement is well-formed: every value of the form it replaces (one month to a date, a range that
  ends after it starts, a full plausible year) and every copied name keeps its capital (`well_formed`);
- MEDIUM/HIGH leave no answer uncontested: the answer, its other forms and a date's year are stated in no
  sentence but the one the rival restates (`stated_once`);
- nothing else in the passage settles the clash: a rival year keeps its order to every other year of the
  passages (`order_kept`), the restated sentence ties the date to no other event ("after World War II",
  `chronology_free`), and a count is not listed or restated elsewhere (`count_unsettled`);

Each gate raises NotApplicable with its reason (the lever declines, counted).
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from refusalbench.generation.value_shape import lowered_names, new_shape_faults
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import Item, NotApplicable
from refusalbench.perturb.missing_gates import TIME_POINTER
from refusalbench.perturb.text import answer_pattern, normalise_space, split_sentences

YEAR = re.compile(r"(?<![\d.])(?<!\d,)(1[0-9]\d\d|20\d\d)(?!\d)(?!,\d)")
LATEST_YEAR = 2018  # the passages are from about 2018: a later "released" year reads as a mistake


def well_formed(item: Item, statement: str) -> None:
    """The new statement's values are well-formed for their kind and its copied names keep their case."""
    faults = new_shape_faults([statement], item.passages)
    if faults:
        raise NotApplicable(f"the rival value is malformed ({faults[0]})")
    lowered = lowered_names([statement], item.passages)
    if lowered:
        raise NotApplicable(f"the restated sentence lowers a name ({lowered[0]})")


def _same(sentence: str, restated: str) -> bool:
    a, b = normalise_space(sentence).rstrip(" ."), normalise_space(restated).rstrip(" .")
    return bool(b) and (b in a or a in b)


def other_sentences(item: Item, restated: str) -> list[str]:
    """The sentences of all passages except the restated one."""
    return [s for p in item.passages for s in split_sentences(p) if not _same(s, restated)]


def answer_forms(item: Item) -> list[str]:
    """The answers with a date's year and a count's other spelling ("3" / "three")."""
    forms = list(item.answers)
    for a in item.answers:
        if item.atype in (at.DATE, at.YEAR):
            forms += YEAR.findall(a)
        num = at.parse_number(a) if item.atype == at.NUMBER else None
        if num is not None and num.value == int(num.value):
            forms.append(str(int(num.value)))
            forms += [w for w, v in at.NUMBER_WORDS.items() if v == num.value and " " not in w]
    return list(dict.fromkeys(f for f in forms if f.strip()))


# an answer that is a bound, not a value: "by 1926" stays true beside a rival 1923, "over 500" beside 800
_BOUND = re.compile(
    r"\b(?:by|before|after|since|until|till|prior to|no later than|as of|up to|more than|less than|fewer than|"
    r"over|under|at least|at most|almost|nearly)\s+(?:the\s+)?\S*\d",
    re.I,
)


def stated_once(item: Item, restated: str) -> None:
    """MEDIUM/HIGH: no answer is a bound ("by 1926", which a rival 1923 leaves true) and no sentence but the
    restated one states an answer in any form (else that one stays uncontested: "was then released on
    8 September 2010" after the disputed expected date)."""
    from refusalbench.generation.semantic import variants_in

    bound = next((a for a in item.answers if _BOUND.search(a)), None)
    if bound:
        raise NotApplicable(f"an answer is a bound ({bound!r}), which a rival value can leave true")

    forms = answer_forms(item)
    for s in other_sentences(item, restated):
        found = variants_in(s, forms)
        if found:
            raise NotApplicable(f"another sentence also states the answer ({found[0]!r}), which stays uncontested")


def grounded(item: Item) -> None:
    """Some passage stating the answer shares a content word with the question besides the answer (else it
    may not answer the question at all: "The following 3 pages are in this category" for "how many nuclear
    power plants ...", where no clash can make a careful reader decline what was never answerable)."""
    from refusalbench.generation.semantic import content_words, variants_in

    answer = {_stem(w) for a in item.answers for w in content_words(a)}
    query = {_stem(w) for w in content_words(item.query)} - answer
    for p in (item.passages[i] for i in item.signal):
        if variants_in(p, item.answers) and {_stem(w) for w in content_words(p)} & query:
            return
    raise NotApplicable("no passage stating the answer shares a word with the question")


def passage_years(item: Item) -> list[int]:
    return [int(y) for p in item.passages for y in YEAR.findall(p)]


def order_kept(old: int, new: int, others: Iterable[int]) -> bool:
    """True when `new` stands on the same side as `old` of every other year (so no stated chronology can
    tell which is right), and is none of them."""
    return all((new > y) == (old > y) and (new < y) == (old < y) for y in others)


_RELATION = re.compile(
    r"\b(?:after|before|following|prior to|until|since|during|later|earlier|previously|preceding|then|"
    r"once|when|while|ahead of)\b",
    re.I,
)


def chronology_free(sentence: str) -> None:
    """The restated sentence does not date its event against another one ("after World War II", "was later
    rescheduled"), which could settle a rival year."""
    m = _RELATION.search(sentence)
    if m:
        raise NotApplicable(f"the answer sentence dates the event against another one ('{m.group(0)}')")


# events held every few years: a year moved by one or two names an edition that never was
_PERIODIC = re.compile(r"\b(?:olympi\w*|world cups?|games|elections?|census|commonwealth|biennale|expo)\b", re.I)
_SENTENCE_OPENERS = frozenset("in on at by of for from since until during after before around about the".split())
_ADDITIVE = re.compile(r"\b(?:also|again|too|as well|another|among|one of)\b", re.I)


def exclusive_year(sentence: str, year: str) -> None:
    """The year is the one value of a one-time fact: not added to others ("He also won the 1996 contest"
    leaves room for a 1993 win), not part of a name ("the 1998 FIFA World Cup" moved to 1999 is no World Cup;
    "Christmas 2009")."""
    m = _ADDITIVE.search(sentence)
    if m:
        raise NotApplicable(f"the answer sentence adds to other facts ('{m.group(0)}'); a rival need not exclude it")
    if _PERIODIC.search(sentence):
        raise NotApplicable("the year dates a periodic event (Olympics, World Cup, election); a moved one never was")
    from refusalbench.generation.value_shape import MONTHS

    for hit in re.finditer(rf"(?<!\d){year}(?!\d)", sentence):
        before = re.search(r"([A-Z][a-z]+)\s+$", sentence[: hit.start()])
        after = re.match(r"\s+[A-Z]", sentence[hit.end() :])
        word = before.group(1) if before else ""
        named = word and word not in MONTHS and (before.start() > 0 or word.lower() not in _SENTENCE_OPENERS)
        if after or named:
            raise NotApplicable("the year is part of a name ('the 1998 FIFA World Cup', 'Christmas 2009')")


def _stem(word: str) -> str:
    """A crude common stem of a word and its plural ("episode"/"episodes", "city"/"cities")."""
    word = word.lower()
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and len(word) > 3:
        word = word[:-1]
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def counted_words(sentence: str, value: str) -> list[str]:
    """Content words in the four words after the figure ("three high fantasy adventure films" → films...)."""
    at_value = sentence.find(value)
    if at_value < 0:
        return []
    after = re.findall(r"[A-Za-z][\w'-]*", sentence[at_value + len(value) :])[:4]
    stop = {"the", "a", "an", "of", "in", "on", "to", "for", "and", "or", "with", "by", "at", "from", "as"}
    return [w for w in after if w.lower() not in stop and len(w) > 2]


# a physical unit, which has no parts to count
_MEASURE = re.compile(
    r"(?:square\s+|cubic\s+)?(?:metres?|meters?|m|km|kilometres?|kilometers?|cm|mm|feet|foot|ft|inch(?:es)?|"
    r"miles?|mi|yards?|kg|kilograms?|grams?|g|tonnes?|tons?|lbs?|litres?|liters?|gallons?|acres?|hectares?|ha|"
    r"degrees?|°|mph|km/h|knots?|seconds?|minutes?|hours?)\b",
    re.I,
)

_NUMBER_WORD = "|".join(at.SINGLE_WORD_NUMBERS)
# a figure, in digits or words; "two-year terms" qualifies a noun and counts nothing
_OTHER_FIGURE = re.compile(rf"(?:\d[\d,.]*|\b(?:{_NUMBER_WORD})\b)(?![\d-])", re.I)


# a count with no noun of its own ("three appointed by the duke", "the other six."): it counts the noun counted before
_ELLIPTICAL_COUNT = re.compile(
    rf"\b({_NUMBER_WORD}|\d+)\b(?=\s+(?:[a-z]+ed|[a-z]+en|of\s+them|were|are|was|is|by|from)\b|\s*[,.;:]|\s*$)", re.I
)


# the count's members listed right after it, one of them counted: ", a commander ... and three paying participants"
_LISTED_PARTS = re.compile(
    rf"\s*[,:(]\s*(?:an?|one|\d+|{_NUMBER_WORD})\s[^.;]*?\band\s+(?:\d+|{_NUMBER_WORD})\s",
    re.I,
)


def count_unsettled(item: Item, original: str, new: str, value: str) -> None:
    """A rival count is not settled by the passage: the answer sentence counts no parts of the counted thing, and
    no other sentence names it (there it may be listed: "The films are subtitled ...", "the first and second
    levels"), and it is not the stated count plus or minus another figure there (`not_the_difference`)."""
    not_the_difference(item, value)
    rest = new.replace(value, " ")
    words = counted_words(new, value)
    if not words:
        raise NotApplicable("the figure counts nothing named after it")
    stated = original
    for answer in sorted(item.answers, key=len, reverse=True):
        stated = stated.replace(answer, " ")
    noun = value.split()[-1] if len(value.split()) > 1 else words[0]  # "four platforms" carries its noun
    parts = re.compile(rf"{_OTHER_FIGURE.pattern}\s+(?:of them\s+)?(?:[\w-]+\s+)?{re.escape(noun)}\b", re.I)
    part = None if _MEASURE.fullmatch(noun) else parts.search(rest) or parts.search(stated)  # a unit has no parts
    if part:
        # "twelve platforms, four of them through platforms and two bay platforms": the parts add up to the stated six
        raise NotApplicable(f"the answer sentence counts parts of the same '{noun}' ({part.group(0)!r}) that settle it")
    tail = new[new.find(value) + len(value) :]
    listed = _LISTED_PARTS.match(tail)
    if listed:
        # "four astronauts, a commander ... and three paying participants": the parts listed after the count
        raise NotApplicable(f"the count is followed by its parts ({listed.group(0).strip()!r}) that settle it")
    stated_count = at.parse_number(item.anchor)
    if stated_count is not None and _named_members(tail) == stated_count.magnitude:
        # "six teams, in Kagoshima, Kumamoto, Miyazaki, Ōita, Saga and Nagasaki": the members named after the count
        # count it again (the eighty-sixth review's R037); "20 factories in Japan, Thailand, China and Mexico" does not
        raise NotApplicable("the count is followed by a list of its members, which settles it")
    counts = [m.group(0) for m in _ELLIPTICAL_COUNT.finditer(rest) if m.group(1).lower() != "one"]
    if len(counts) >= 2:
        # "eleven judges, three appointed by the duke, three elected by the diet and a president chosen by the other
        # six": counts with no noun of their own count the judges, and add up to the stated seven (thirty-fifth
        # blind review); "every four years ... from five constituencies" count other things
        raise NotApplicable(f"the answer sentence splits the count into parts ({', '.join(counts)}) that add up to it")
    stems = {_stem(w) for w in words}
    for s in other_sentences(item, original):
        hit = [w for w in re.findall(r"[A-Za-z][\w'-]*", s) if _stem(w) in stems]
        if hit:
            raise NotApplicable(f"another sentence names the counted '{hit[0]}' and may settle the count")


def _named_members(tail: str) -> int:
    """How many names a list right after a count gives ("teams, in Kagoshima, Kumamoto, ... and Nagasaki": 6)."""
    clause = re.split(r"[.;]", tail, maxsplit=1)[0]
    if "," not in clause:
        return 0
    items = re.split(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", clause.split(",", 1)[1])
    names = [re.sub(r"^(?:in|at|from|on|including|namely)\s+", "", i.strip()) for i in items]
    return sum(1 for n in names if n[:1].isupper() and len(n.split()) <= 4)


def not_the_difference(item: Item, value: str) -> None:
    """The rival count is not the stated one less or more a part the passage counts of it: "has six platforms, two
    of which are used only by terminating trains" reconciles a rival "four" (the seventy-eighth review's R060)."""
    mine, rival = at.parse_number(item.anchor), at.parse_number(value)
    if mine is None or rival is None:
        return
    text = " ".join(item.passages)
    words = "|".join(w for w in at.SINGLE_WORD_NUMBERS if at.NUMBER_WORDS[w] <= 100)
    parts = rf"(?<![\d.,])(\d(?:[\d,]*\d)?|{words})(?:(?<=\d),)?\s+of\s+(?:which|them|these|those|the)\b"
    for m in re.finditer(parts, text, re.I):
        other = at.parse_number(m.group(1)).magnitude
        if other and rival.magnitude in (mine.magnitude - other, mine.magnitude + other):
            raise NotApplicable(f"the rival is the stated figure less or more a part the passage counts ({other:g})")


def years_free(options: Sequence[int], old: int, item: Item) -> list[int]:
    """The candidate rival years that keep their order to every other year of the passages."""
    others = [y for y in passage_years(item) if y != old]
    return [y for y in options if order_kept(old, y, others)]


CORE_WORDS = 18
_APPOSITIVE = re.compile(r",\s+(?:a|an|the|who|which|whose|where)\s+[^,]+,")
# a pointer back, or a pronoun subject, which after "a source states that" reads as the source ("insists that it
# was adapted by OLM" beside "a comment on a social media site")
_POINTER = re.compile(r"[\"'“‘]?(?:this|these|that|those|such|it|its|they|their|he|his|she|her)\b", re.I)

_PERSONAL = re.compile(r"(?:it|its|they|their|he|his|she|her)\b", re.I)


def short_core(new: str, value: str, pronoun_subject: bool = False) -> None:
    """A restatement copies only a short plain core of the answer sentence (subject, verb, value and at most
    a short phrase after it): at most 18 words, no appositive or relative clause set off by commas ("Blue
    Bloods, a police procedural drama series created by ..., premiered"), no clause after the value (",
    through Island Records as the band's major label debut") and no pointer back or pronoun subject ("this season
    was ...", "it was adapted by ...").
    A long copy reads as a mechanical duplicate, not as a second source. `pronoun_subject` lets the restatement
    open on a personal pronoun ("It opened ..."), for a flat statement that follows the answer sentence at once."""
    body = new.strip().rstrip(".!?")
    if len(body.split()) > CORE_WORDS:
        raise NotApplicable(f"the restated sentence would copy more than {CORE_WORDS} words of the original")
    if _APPOSITIVE.search(body):
        raise NotApplicable("the restated sentence would copy an appositive or relative clause set off by commas")
    if _POINTER.match(body) and not (pronoun_subject and _PERSONAL.match(body)):
        raise NotApplicable(
            "the restated sentence opens on a pointer back or a pronoun ('this season', 'it'), not on its subject"
        )
    at_value = body.find(value)
    if at_value < 0:
        raise NotApplicable("the rival value is not found in the restated sentence")
    tail = body[at_value + len(value) :].strip()
    if tail.startswith(",") or len(tail.split()) > 5:
        raise NotApplicable("the restated sentence would copy a clause after the value")


# words that may follow a year stating when something happened ("in 2015 in the U.S.", "2015 and")
_AFTER_DATE = frozenset(
    """in on at by for from to with and or but as when while after before until through against was were is are
    had has have which who where alone only""".split()
)
_FRAME_BEFORE = re.compile(r"\b(?:for|fiscal|of|the|a|an|its|his|her|their|our|this|that|each|every)\s+$", re.I)


def same_time_frame(new: str, year: str) -> None:
    """The rival year dates the same event, not another period: a year that qualifies a noun ("the 2014 season",
    "after the 2014 model year") or names a time frame ("revenue for 2008") moves the clash to another thing."""
    for hit in re.finditer(rf"(?<!\d){year}(?!\d)", new):
        nxt = re.match(r"\s+([a-z][\w'-]*)", new[hit.end() :])
        if nxt and nxt.group(1) not in _AFTER_DATE:
            raise NotApplicable(f"the year qualifies a noun ('{year} {nxt.group(1)}'): another period")
        if _FRAME_BEFORE.search(new[: hit.start()]):
            raise NotApplicable("the year names a time frame ('for 2008', 'the 2014 ...'): another period")


# an anniversary, an age or a span of years: with another year of the passage, arithmetic that dates the answer
# ("as part of the celebrations of the millennium of the Hungarian state" gives 1896 back)
_YEAR_ARITHMETIC = re.compile(
    rf"\b(?:{at.ANNIVERSARY_WORDS})\b"
    r"|\bat the age of\b|\baged\s+\d+|\b\d+\s+years?\s+(?:later|after|earlier|before|old)\b"
    r"|\b(?:a|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:years?|decades?)\s+(?:later|after|earlier|before)\b",
    re.I,
)


def no_year_arithmetic(item: Item) -> None:
    """The passage does not tie the answer's year to another by an anniversary, an age or a span ("In 2015 it was
    reissued for its thirtieth anniversary" gives 1985 back against a rival 1983)."""
    m = _YEAR_ARITHMETIC.search(" ".join(item.passages))
    if m:
        raise NotApplicable(f"the passage ties the year to another one ({m.group(0)!r}); it settles a rival")


_DAY_ASKED = re.compile(r"\b(?:what|which)\s+day\b|\bon what day\b", re.I)


def day_not_asked(item: Item) -> None:
    """The query does not ask for the day: a rival date keeps the day and month ("January 14, 1937" against
    "January 14, 1934"), which then answer "what day" under both."""
    if _DAY_ASKED.search(item.query):
        raise NotApplicable("the query asks for the day, which the rival date leaves standing")


def time_not_pointed_back(item: Item, sentence: str) -> None:
    """The sentence after `sentence` does not point back to its time ("... on Rádio Nacional that year"): a statement
    inserted between them would take the pointer."""
    for passage in item.passages:
        sents = split_sentences(passage)
        for k, s in enumerate(sents[:-1]):
            if _same(s, sentence) and TIME_POINTER.search(sents[k + 1]):
                raise NotApplicable("the next sentence points back to the answer's time ('that year')")


def figure_once(item: Item, sentence: str) -> None:
    """A numeric answer's figure stands in its sentence only where the answer does: "composed of seven judges, each
    appointed for a single term of seven years" would have its rival written over both sevens."""
    num = at.parse_number(item.need_anchor())
    if num is None:
        return
    figure = re.compile(rf"(?<![\w,.]){re.escape(num.text)}(?![\w]|[,.]\d)", re.I)
    answers = len(answer_pattern(item.anchor).findall(sentence))
    if len(figure.findall(sentence)) > answers:
        raise NotApplicable(f"the answer's figure {num.text!r} stands in its sentence outside the answer too")


# "a biennial film festival ... Its 2012 edition": a period and an edition's year give back the first one's year
_RECURRING = re.compile(
    r"\b(?:biennial|biennially|triennial|quadrennial|biannual|every\s+(?:other|two|three|four|five)\s+years)\b", re.I
)


def not_periodic(item: Item) -> None:
    """A date clash declines where the passage says the event recurs every few years (the fifty-fourth review's R009:
    "first held in 2001, and not in 1998" of a biennial festival whose 2012 edition fits 1998 only)."""
    m = _RECURRING.search(" ".join(item.passages))
    if m:
        raise NotApplicable(f"the passage gives a period ({m.group(0)!r}) from which an edition's year dates the first")
