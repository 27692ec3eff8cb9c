"""P-Contradiction levers: add a statement that conflicts with the passage.

Single passage: the conflicting sentence goes right after the sentence it contradicts. Multi-passage:
exactly one noise passage (seeded) is replaced by the conflicting statement, per the method's
"noise injection" strategy. The query is never touched.
"""

from __future__ import annotations

import dataclasses
import math
import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Callable, Optional

from refusalbench import taxonomy as tx
from refusalbench.perturb import answer_types as at
from refusalbench.perturb import contradiction_gates as gates
from refusalbench.perturb.base import (
    NOISE,
    Item,
    NotApplicable,
    Proposal,
    insert_after,
    lever,
    rebuild,
    restated,
)
from refusalbench.perturb.distractors import with_value
from refusalbench.perturb.restatement import shortened, up_to_value_noun
from refusalbench.perturb.text import end_sentence, split_sentences

CO = tx.CONTRADICTION
MAX_WORDS = 60

EQUAL_SOURCE = (
    "However, an equally authoritative source states that {s}.",
    "A second source of equal standing, however, reports that {s}.",
    "Another equally reliable record, however, says that {s}.",
)
# topic-neutral: "an online fan forum" read oddly as the source of a date in history or nature (the first Christmas,
# the last wolves of Yellowstone)
FRINGE_SOURCE = (
    "An anonymous, unsourced blog post, however, claims that {s}.",
    "A single unsourced comment on a social media site insists that {s}.",
)
AS_FACT = "{S}"
ROUNDED = "Another source rounds the figure, stating that {s}."


def place(item: Item, anchor_sentence: str, statement: str, standalone: str) -> list[str]:
    """Insert `statement` after `anchor_sentence` (single) or put `standalone` in one noise passage (multi)."""
    if item.multi:
        if not item.noise:
            raise NotApplicable("the item has no noise passage to edit")
        k = item.rng.choice(sorted(item.noise))
        return item.with_passages({k: standalone})
    sents = split_sentences(item.passages[0])
    pos = (
        sents.index(anchor_sentence)
        if anchor_sentence in sents
        else next((i for i, s in enumerate(sents) if anchor_sentence.rstrip(".") in s), len(sents) - 1)
    )
    return [rebuild(insert_after(sents, pos, statement))]


_CONNECTIVE = re.compile(
    r"(?:however|but|and|also|thus|therefore|moreover|furthermore|instead|meanwhile|still|yet)\b", re.I
)


PLAIN_WORDS = 25
YEAR_TOKEN = re.compile(r"(?<!\d)(?:1[0-9]\d\d|20\d\d)(?!\d)")
# a colon too: "The band has eight members: vocalist Kim Do-hyun, ..." names the five the count is about
_AWKWARD_PUNCTUATION = re.compile(r"[—–;:()\[\]]")
_PREPOSITION_OPENER = re.compile(
    r"(?:to|in|on|at|by|as|after|before|during|from|since|until|with|when|while|following|according|upon|"
    r"principal|originally|initially|later|today|currently|instead|despite|although|though|unlike|first|last|"
    r"once|formerly|previously|recently)\b",
    re.I,
)


_UNCERTAIN = re.compile(
    r"\b(?:uncertain|unclear|unknown|suggested|possibly|possibility|possible|probably|likely|perhaps|claimed|"
    r"believed|thought|reportedly|allegedly|might|disputed|estimated)\b",
    re.I,
)
# a pointer into the page the sentence stands on, which a second source cannot share: "961 cities in the sections
# below", "the following list", "this article"
_PAGE_POINTER = re.compile(
    r"\b(?:sections?|tables?|lists?|charts?|figures?|articles?|pages?|see|listed|shown|given)\s+(?:below|above)\b"
    r"|\b(?:below|above)\s*[.!?]?\s*$|\bthe following\b|\bthis (?:list|article|page|section|table|category)\b",
    re.I,
)
_PARTICIPLE_OPENER = re.compile(r"\s*[A-Z][a-z]*(?:ed|ing)\b(?! (?:is|was|are|were|has|had)\b)")  # "Released on ..."


def plain_restatement(original: str, new: str, value: str) -> None:
    """Raise NotApplicable unless the restated sentence is short and plain enough to carry a rival value
    without contradicting itself: at most 25 words, no dash, semicolon or bracket, no year other than the
    rival's (a copied "announced on July 22, 2017 ... premiere in 2013" reads as nonsense), no pointer into
    its own page ("in the sections below"), and not opening on a preposition or adverb ("says that To date ...")."""
    if len(new.split()) > PLAIN_WORDS:
        raise NotApplicable(f"the answer sentence is longer than {PLAIN_WORDS} words")
    if _AWKWARD_PUNCTUATION.search(new):
        raise NotApplicable("the answer sentence has a dash, semicolon, colon or bracket")
    if set(YEAR_TOKEN.findall(new)) - set(YEAR_TOKEN.findall(value)):
        raise NotApplicable("the answer sentence names other years, which the rival value could contradict")
    if not YEAR_TOKEN.search(value) and re.search(r"\d", new.replace(value, "")):
        raise NotApplicable("the answer sentence gives other figures, which the rival value could clash with")
    before = new[: new.find(value)] if value in new else ""
    if re.search(rf"(?:{_HEDGE.pattern})\s*$", before, re.I):
        raise NotApplicable("the value is hedged in its sentence ('more than 80'); a rival would not contradict it")
    if re.search(r"\b(?:which|who|whom|whose|that|and|but|or|as|while|although|though|where|when)\W*$", new):
        raise NotApplicable("the restated clause is cut before its end ('... in Iceland which,')")
    if _PAGE_POINTER.search(new):
        raise NotApplicable("the answer sentence points into its own page ('in the sections below'), not a fact")
    if _UNCERTAIN.search(new):
        raise NotApplicable(
            "the answer sentence is itself hedged ('uncertain', 'has been suggested'), not a plain fact"
        )
    if re.search(rf"\ball\s+{re.escape(value)}\b", new, re.I):
        raise NotApplicable("the value follows 'all' ('all four volumes'), which a rival count turns into nonsense")
    if _PREPOSITION_OPENER.match(original.strip()) or _PARTICIPLE_OPENER.match(original):
        raise NotApplicable("the answer sentence opens on a preposition or adverb, not on its subject")


def shifted_year(item: Item) -> str:
    """The answer date or year with its year moved one to three years (same form, so the rival is surely a
    date of the same kind and close enough to be credible)."""
    anchor = item.anchor_text
    years = YEAR_TOKEN.findall(anchor)
    if len(years) != 1:
        raise NotApplicable("the answer does not hold exactly one year")
    gates.no_year_arithmetic(item)
    stated = {y for a in item.answers for y in YEAR_TOKEN.findall(a)}
    options = [str(int(years[0]) + d) for d in (-3, -2, -1, 1, 2, 3)]
    options = [y for y in options if y not in stated and int(y) <= gates.LATEST_YEAR]
    free = set(gates.years_free([int(y) for y in options], int(years[0]), item))
    options = [y for y in options if int(y) in free]
    if not options:
        raise NotApplicable("no nearby year is free (each passes or meets another year of the passage)")
    return YEAR_TOKEN.sub(item.rng.choice(options), anchor, count=1)


def conflict(
    item: Item,
    value: str,
    templates,
    reason: str,
    alone: str = "",
    plain: bool = False,
    gate: Optional[Callable[[str, str], None]] = None,
    contested: bool = True,
    core_only: bool = False,
    gates_on_whole: bool = False,
    short: bool = False,
    rewrite: Optional[Callable[[str], str]] = None,
) -> Proposal:
    """Restate the answer sentence with `value` in a template; `alone` (or the template) for a noise passage.
    `plain` also requires a short, plain answer sentence (`plain_restatement`), and unless `contested` is
    False (LOW, where the answer stays) one that alone states the answer (`gates.stated_once`);
    `gate(original, new)` adds the lever's own gates; `core_only` restates the sentence only up to the value (and up to
    four words of its noun) where a clause set off by a comma follows it, and `gates_on_whole` has the plain and
    the lever's gates read the whole restated sentence all the same; `short` then states only the subject and the
    predicate with the value (`restatement.shortened`), and `rewrite` turns the restatement into another sentence before
    it fills the template. The statement must be well-formed (`gates.well_formed`)."""
    if item.atype == at.OTHER and value.lower().split()[-1:] != item.anchor_text.lower().split()[-1:]:
        # an untyped phrase is replaced only by one of the same kind ("long bone" → "irregular bone")
        raise NotApplicable("the answer is an untyped phrase and the rival value is not of the same kind")
    gates.grounded(item)
    original, new = restated(item, value, MAX_WORDS)
    whole = new
    if item.atype == at.NUMBER:
        gates.figure_once(item, original)
    if core_only:
        start = new.find(value)
        new = up_to_value_noun(new, value)
        if ", and " in new[:start]:
            # "the island is a breeding site for herons, and surveys have recorded 110 species" would repeat the
            # first clause too (the fifty-sixth review's R012)
            raise NotApplicable("another clause comes before the value; the restatement would repeat it")
    checked = whole if gates_on_whole else new
    if plain:
        plain_restatement(original, checked, value)
        if contested:
            gates.stated_once(item, original)
    if gate:
        gate(original, checked)
    if _CONNECTIVE.match(original.strip()):
        raise NotApplicable("the answer sentence opens with a connective ('However, ...') that cannot follow 'that'")
    if short:
        new = shortened(new, value)
    if rewrite:
        new = rewrite(new)
    template = item.rng.choice(templates) if isinstance(templates, tuple) else templates
    statement = end_sentence(_fill(item, template, new))
    standalone = end_sentence(_fill(item, alone, new)) if alone else statement
    gates.well_formed(item, statement)
    gates.well_formed(item, standalone)
    return Proposal(item.query, place(item, original, statement, standalone), reason.format(v=value))


def _fill(item: Item, template: str, new: str) -> str:
    """`template` with the restated sentence as `{s}` (to follow "that"), `{S}` (standing alone) or `{B}` (standing
    alone, its closing full stop left for the template to follow)."""
    fields = {"a": item.anchor_text, "S": end_sentence(new)}
    if "{s}" in template:
        fields["s"] = item.embedded(new)
    if "{B}" in template:
        if not re.search(r"[^.\"”'’)]\.$", fields["S"]):
            raise NotApplicable("the answer sentence does not end on a plain full stop that a clause can follow")
        fields["B"] = fields["S"][:-1]
    return template.format(**fields)


# -- MEDIUM ------------------------------------------------------------------------------------


@lever(CO, tx.MEDIUM, "Dual-authoritative Dates", NOISE)
def dual_dates(item: Item) -> Proposal:
    item.need_anchor()
    if item.atype not in (at.DATE, at.YEAR):
        raise NotApplicable("the answer is not a date")
    value = other_figure(item)
    return conflict(
        item,
        value,
        EQUAL_SOURCE,
        "Added an equally authoritative source dating the event to {v}.",
        AS_FACT,
        plain=True,
        gate=lambda original, new: dated_gates(item, original, new, value),
        short=True,  # not the whole lead again (the sixty-second review's R055, R093)
    )


def dated_gates(item: Item, original: str, new: str, value: str, pronoun_subject: bool = False) -> None:
    """A date clash needs a one-time fact dated against no other event, restated as a short plain core
    whose rival year dates the same event (`contradiction_gates`)."""
    gates.chronology_free(original)
    gates.not_periodic(item)
    gates.day_not_asked(item)
    gates.time_not_pointed_back(item, original)
    for year in YEAR_TOKEN.findall(item.anchor_text):
        gates.exclusive_year(original, year)
    _core(new, value, pronoun_subject)


def _core(new: str, value: str, pronoun_subject: bool = False) -> None:
    """The restatement copies a short plain core (`gates.short_core`) and a rival year keeps the time frame."""
    gates.short_core(new, value, pronoun_subject)
    for year in YEAR_TOKEN.findall(value):
        gates.same_time_frame(new, year)


@lever(CO, tx.MEDIUM, "Equal-standing Value Clash", NOISE)
def equal_standing(item: Item) -> Proposal:
    """A different figure from a source of equal standing; numbers only, as a drawn name or phrase can be of
    the wrong kind for its slot (a person where a platform belongs, an actress cast as a male role)."""
    item.need_anchor()
    if item.atype != at.NUMBER:
        raise NotApplicable("only a numeric answer has a rival value that is surely of the same kind")
    # a rival more than twice or under half the stated count is easy to dismiss ("57 episodes" for a season that
    # ran from October to May beside a stated 23): then the clash is no longer between sources of equal standing
    value = other_figure(item, most_apart=2.0)
    return conflict(
        item,
        value,
        EQUAL_SOURCE,
        "Added an equally authoritative source giving {v} for the same figure.",
        AS_FACT,
        plain=True,
        gate=lambda original, new: gates.count_unsettled(item, original, new, value),
        # not the whole sentence again: "... 9 teams, four from each country, who play ..." also kept a clause
        # that gave the stated count back (the fifty-ninth review's R047; R007, R016, R084 read as copied); the
        # gates still read the whole sentence ("served from 2010 to 2018" settles a rival "five years")
        core_only=True,
        gates_on_whole=True,
        short=True,  # "has 412 beds", not "... and provides emergency, maternity and ..." (R031)
    )


_HEDGE = re.compile(
    r"\b(?:about|around|approximately|roughly|nearly|almost|over|more than|less than|fewer than|at least|"
    r"up to|some|circa|c\.|under)\b",
    re.I,
)
_YEARLIKE = re.compile(r"^(?:1[5-9]\d\d|20[0-4]\d)$")


def other_figure(item: Item, most_apart: float | None = None) -> str:
    """A distractor of the answer's type that differs in its year (dates, years) or clearly in value (numbers:
    at least a quarter apart, and at most `most_apart` times, if given); hedged answers ("over 74", "around
    2011") and year-like counts are declined."""
    if most_apart is not None and item.atype not in (at.DATE, at.YEAR):
        for _ in range(8):  # a few draws: the pool offers values up to three times the answer
            value = other_figure(item)
            a, b = at.parse_number(item.anchor).magnitude, at.parse_number(value).magnitude
            if max(a, b) / min(a, b) <= most_apart:
                return value
        raise NotApplicable(f"no rival figure within {most_apart} times the stated one was drawn")
    if len(item.aliases()) < len(item.answers):
        raise NotApplicable("the question has several different answers ('six', 'two'); one rival leaves another right")
    if any(_HEDGE.search(a) for a in item.aliases()):
        raise NotApplicable("the answer is hedged ('over 74'); a nearby rival value would not contradict it")
    if item.atype in (at.DATE, at.YEAR):
        return shifted_year(item)
    value = item.distractor()
    mine, rival = at.parse_number(item.anchor), at.parse_number(value)
    if mine is None or rival is None or _YEARLIKE.match(mine.text) or _YEARLIKE.match(rival.text):
        raise NotApplicable("the answer or the rival is not a plain count or measure")
    if mine.unit.strip() != rival.unit.strip() or _HEDGE.search(value):
        raise NotApplicable("the rival figure is in another unit or hedged")
    a, b = mine.magnitude, rival.magnitude
    if 1 in (mine.value, rival.value):
        raise NotApplicable("one of the figures is 1, whose noun is singular ('one season' / 'two seasons')")
    if min(a, b) <= 0 or max(a, b) / min(a, b) < 1.25:
        raise NotApplicable("the rival figure is too close to the stated one to contradict it")
    if not any(_BARE_THOUSANDS.search(p) for p in item.passages):
        # "1024 rooms" beside a passage that groups its figures (the fifty-ninth review's R084)
        value = _BARE_THOUSANDS.sub(lambda m: f"{int(m.group(0)):,}", value)
    return value


# a figure of four or more digits written without a thousands separator, not a year
_BARE_THOUSANDS = re.compile(r"(?<![\d,.])(?!(?:1[5-9]|20)\d\d(?!\d))\d{4,}(?![\d,.]*\d)")


_WHEN = re.compile(r"\s*(?:when|what year|which year|in what year|what date|what time)\b", re.I)


# -- LOW ---------------------------------------------------------------------------------------


@lever(CO, tx.LOW, "Fringe vs. Official Source", NOISE)
def fringe_source(item: Item) -> Proposal:
    """A plainly unreliable source restates the answer sentence with a nearby date, year or figure. Other
    kinds of answer are declined: a person or place drawn from other questions is often of the wrong kind,
    gender or era ("the neutron was discovered by Abbot Suger"), and a bare "it was not X" has no referent."""
    item.need_anchor()
    if item.atype not in (at.DATE, at.YEAR, at.NUMBER):
        raise NotApplicable("only a date, year or figure has a rival value that is surely of the same kind")
    value = other_figure(item)
    return conflict(
        item,
        value,
        FRINGE_SOURCE,
        "Added a clearly low-credibility source claiming {v}; the authoritative statement stays.",
        plain=True,
        contested=False,
        gate=lambda original, new: _fringe_gate(item, original, new, value),
        short=True,  # not the whole lead again (the sixty-second review's R007, R044, R071)
    )


def _fringe_gate(item: Item, original: str, new: str, value: str) -> None:
    for year in YEAR_TOKEN.findall(item.anchor_text):
        gates.exclusive_year(original, year)
    _core(new, value)


def rounded(num: at.NumberValue) -> float | None:
    """The value rounded half up to two significant figures, if that changes it by at most 5 % (1,850 -> 1,900:
    Python's `round` rounds a half to the even digit, 1,800, which no reader calls rounding)."""
    if num.value < 10 or num.words:
        return None
    digits = int(math.floor(math.log10(num.value)))
    step = Decimal(10) ** (digits - 1)
    value = float((Decimal(str(num.value)) / step).quantize(Decimal(1), rounding=ROUND_HALF_UP) * step)
    if value == num.value or abs(value - num.value) / num.value > 0.05:
        return None
    return value


@lever(CO, tx.LOW, "Minor Numeric Rounding", NOISE)
def minor_rounding(item: Item) -> Proposal:
    item.need_anchor()
    num = at.parse_number(item.anchor) if item.atype == at.NUMBER else None
    value = rounded(num) if num else None
    if value is None:
        raise NotApplicable("the answer is not a number that rounding changes slightly")
    if _WHEN.match(item.query) or _YEARLIKE.match(num.text):
        raise NotApplicable("the figure is a year; a year is not rounded ('in Rome in 340')")
    # written to the precision it was rounded to: "16.5 metres" rounds to "17 metres", not to "17.0" (the
    # sixty-sixth review's R047)
    places = max(0, 1 - int(math.floor(math.log10(num.value))))
    like = dataclasses.replace(num, text=num.text.split(".")[0] + ("." + "0" * places if places else ""))
    return conflict(
        item,
        with_value(like, value),
        ROUNDED,
        "Restated the figure rounded to {v}, which agrees within rounding.",
        plain=True,
        contested=False,
        core_only=True,  # not the whole sentence again (the fifty-fifth review's R053)
        short=True,  # nor its second predicate (the sixty-second review's R103)
    )


# "Peripheral Attribute Clash" (a side sentence's year moved 1–2 years, from "another account") is out of the
# rotation: in two blind reviews 1 of 7 and 0 of 6 of its items were valid (the moved year left the passage's
# chronology in doubt, clashed on another year or time frame, or touched what the question asks).
