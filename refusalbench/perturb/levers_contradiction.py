"""P-Contradiction levers: add a statement that conflicts with the passage.

Single passage: the conflicting sentence goes right after the sentence it contradicts. Multi-passage:
exactly one noise passage (seeded) is replaced by the conflicting statement, per the method's
"noise injection" strategy. The query is never touched.
"""

from __future__ import annotations

import math
import re

from refusalbench import taxonomy as tx
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import (
    NOISE,
    Item,
    NotApplicable,
    Proposal,
    complete,
    embeddable,
    insert_after,
    lever,
    rebuild,
    restated,
)
from refusalbench.perturb.distractors import with_value
from refusalbench.perturb.text import contains_any, embed, end_sentence, split_sentences

CO = tx.CONTRADICTION
MAX_WORDS = 60

EQUAL_SOURCE = (
    "However, an equally authoritative source states that {s}.",
    "A second source of equal standing, however, reports that {s}.",
    "Another equally reliable record, however, says that {s}.",
)
FRINGE_SOURCE = (
    "An anonymous post on an online fan forum, however, claims that {s}.",
    "A single unsourced comment on a social media site insists that {s}.",
)
SELF_CLASH = "The same source, however, also states that {s}, and explicitly denies that it was {a}."
SELF_CLASH_ALONE = "{S} The record is explicit that it was not {a}."
FRINGE_DENIAL = "An anonymous post on an online fan forum, however, claims that it was not {a}."
AS_FACT = "{S}"
ROUNDED = "Another source rounds the figure, stating that {s}."
PERIPHERAL = "Another account, however, states that {s}."


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


# answer types a bare "it was not X" reads naturally for (who / where / when / how many questions)
DENIABLE = (at.PERSON, at.ORGANISATION, at.PLACE, at.DATE, at.YEAR, at.NUMBER)


def _denial(item: Item, template: str, alone: str, reason: str) -> Proposal:
    """A statement that the answer is wrong, after the first sentence stating it (no distractor needed)."""
    if item.atype not in DENIABLE:
        raise NotApplicable("'it was not ...' has no clear referent for this kind of answer")
    passage = item.passages[item.answer_passages()[0]]
    sents = split_sentences(passage)
    k = next((i for i, s in enumerate(sents) if contains_any(s, item.answers)), None)
    if k is None:
        raise NotApplicable("no single sentence states the answer")
    if not complete(sents[k]):
        raise NotApplicable("the answer sentence is cut off by the passage's edge")
    statement = end_sentence(template.format(a=item.anchor_text))
    standalone = end_sentence(alone.format(S=sents[k], a=item.anchor_text))
    return Proposal(item.query, place(item, sents[k], statement, standalone), reason)


_CONNECTIVE = re.compile(
    r"(?:however|but|and|also|thus|therefore|moreover|furthermore|instead|meanwhile|still|yet)\b", re.I
)


def _conflict(item: Item, value: str, templates, reason: str, alone: str = "") -> Proposal:
    """Restate the answer sentence with `value` in a template; `alone` (or the template) for a noise passage."""
    if item.atype == at.OTHER and value.lower().split()[-1:] != item.anchor_text.lower().split()[-1:]:
        # an untyped phrase is replaced only by one of the same kind ("long bone" → "irregular bone")
        raise NotApplicable("the answer is an untyped phrase and the rival value is not of the same kind")
    original, new = restated(item, value, MAX_WORDS)
    if _CONNECTIVE.match(original.strip()):
        raise NotApplicable("the answer sentence opens with a connective ('However, ...') that cannot follow 'that'")
    template = item.rng.choice(templates) if isinstance(templates, tuple) else templates
    statement = end_sentence(template.format(s=embed(new, item.vocabulary), a=item.anchor_text))
    standalone = end_sentence(alone.format(S=end_sentence(new), a=item.anchor_text)) if alone else statement
    return Proposal(item.query, place(item, original, statement, standalone), reason.format(v=value))


# -- MEDIUM ------------------------------------------------------------------------------------


@lever(CO, tx.MEDIUM, "Dual-authoritative Dates", NOISE)
def dual_dates(item: Item) -> Proposal:
    item.need_anchor()
    if item.atype not in (at.DATE, at.YEAR):
        raise NotApplicable("the answer is not a date")
    return _conflict(
        item, item.distractor(), EQUAL_SOURCE, "Added an equally authoritative source dating the event to {v}.", AS_FACT
    )


@lever(CO, tx.MEDIUM, "Spatial Location Clash", NOISE)
def location_clash(item: Item) -> Proposal:
    item.need_anchor()
    if item.atype != at.PLACE:
        raise NotApplicable("the answer is not a place")
    return _conflict(
        item,
        item.distractor(),
        EQUAL_SOURCE,
        "Added an equally authoritative source placing it in {v} instead.",
        AS_FACT,
    )


@lever(CO, tx.MEDIUM, "Equal-standing Value Clash", NOISE)
def equal_standing(item: Item) -> Proposal:
    """A different figure from a source of equal standing; numbers only, as a drawn name or phrase can be of
    the wrong kind for its slot (a person where a platform belongs, an actress cast as a male role)."""
    item.need_anchor()
    if item.atype != at.NUMBER:
        raise NotApplicable("only a numeric answer has a rival value that is surely of the same kind")
    return _conflict(
        item,
        other_figure(item),
        EQUAL_SOURCE,
        "Added an equally authoritative source giving {v} for the same figure.",
        AS_FACT,
    )


_HEDGE = re.compile(
    r"\b(?:about|around|approximately|roughly|nearly|almost|over|more than|less than|fewer than|at least|"
    r"up to|some|circa|c\.|under)\b",
    re.I,
)
_YEARLIKE = re.compile(r"^(?:1[5-9]\d\d|20[0-4]\d)$")


def other_figure(item: Item) -> str:
    """A distractor of the answer's type that differs in its year (dates, years) or clearly in value (numbers:
    at least a quarter apart); hedged answers ("over 74", "around 2011") and year-like counts are declined."""
    if len(item.aliases()) < len(item.answers):
        raise NotApplicable("the question has several different answers ('six', 'two'); one rival leaves another right")
    if any(_HEDGE.search(a) for a in item.aliases()):
        raise NotApplicable("the answer is hedged ('over 74'); a nearby rival value would not contradict it")
    value = item.distractor()
    if item.atype in (at.DATE, at.YEAR):
        years = r"(?<!\d)\d{4}(?!\d)"
        stated = {d for a in item.answers for d in re.findall(years, a)}
        if not re.search(years, value) or set(re.findall(years, value)) & stated:
            raise NotApplicable("no rival date in another year")
        return value
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
    return value


# -- HIGH --------------------------------------------------------------------------------------


@lever(CO, tx.HIGH, "Order-of-Magnitude Numeric Clash", NOISE)
def magnitude_clash(item: Item) -> Proposal:
    item.need_anchor()
    num = at.parse_number(item.anchor) if item.atype == at.NUMBER else None
    if num is None or num.value <= 0:
        raise NotApplicable("the answer is not a plain number")
    factor = 10.0 if num.value < 1000 or item.rng.random() < 0.5 else 0.1
    value = with_value(num, num.value * factor)
    if value == item.anchor or contains_any(value, item.answers):
        raise NotApplicable("the scaled number cannot be written distinctly")
    return _conflict(
        item,
        value,
        EQUAL_SOURCE,
        "Added an equally authoritative source giving {v}, a tenfold different figure.",
        AS_FACT,
    )


@lever(CO, tx.HIGH, "Same-source Self-contradiction", NOISE)
def self_contradiction(item: Item) -> Proposal:
    """The same source gives a different date, year or figure and denies the original; other kinds of
    answer are declined (a drawn person or phrase is often of the wrong kind, and a bare denial names no rival)."""
    item.need_anchor()
    if item.atype not in (at.DATE, at.YEAR, at.NUMBER):
        raise NotApplicable("only a date, year or figure has a rival value that is surely of the same kind")
    return _conflict(
        item,
        other_figure(item),
        SELF_CLASH,
        "The same source also asserts {v} and denies the original value, so the statements cannot both hold.",
        SELF_CLASH_ALONE,
    )


# -- LOW ---------------------------------------------------------------------------------------


@lever(CO, tx.LOW, "Fringe vs. Official Source", NOISE)
def fringe_source(item: Item) -> Proposal:
    item.need_anchor()
    value = item.maybe_distractor()
    if value is None:
        return _denial(
            item,
            FRINGE_DENIAL,
            FRINGE_DENIAL,
            "Added a clearly low-credibility source denying the answer; the authoritative statement stays.",
        )
    return _conflict(
        item,
        value,
        FRINGE_SOURCE,
        "Added a clearly low-credibility source claiming {v}; the authoritative statement stays.",
    )


def rounded(num: at.NumberValue) -> float | None:
    """The value rounded to two significant figures, if that changes it by at most 5 %."""
    if num.value < 10 or num.words:
        return None
    digits = int(math.floor(math.log10(num.value)))
    value = round(num.value, -(digits - 1))
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
    return _conflict(
        item, with_value(num, value), ROUNDED, "Restated the figure rounded to {v}, which agrees within rounding."
    )


_PERIPHERAL_YEAR = re.compile(r"(?<![\w,.])(1[5-9]\d\d|20[0-2]\d)(?![\w,])")


@lever(CO, tx.LOW, "Peripheral Attribute Clash", NOISE)
def peripheral_clash(item: Item) -> Proposal:
    item.need_anchor()
    passage = item.passages[item.answer_passages()[0]]
    sents = split_sentences(passage)
    options = [
        (i, m)
        for i, s in enumerate(sents)
        if not contains_any(s, item.answers)
        for m in _PERIPHERAL_YEAR.finditer(s)
        if complete(s) and embeddable(s)
    ]
    if not options:
        raise NotApplicable("no non-answer sentence carries a year to disagree about")
    i, m = item.rng.choice(options)
    year = int(m.group(1))
    new_year = year + item.rng.choice((-2, -1, 1, 2))
    sentence = sents[i]
    changed = sentence[: m.start()] + str(new_year) + sentence[m.end() :]
    if contains_any(changed, item.answers) or len(sentence.split()) > MAX_WORDS:
        raise NotApplicable("the peripheral sentence is unsuitable")
    statement = end_sentence(PERIPHERAL.format(s=embed(changed, item.vocabulary)))
    return Proposal(
        item.query,
        place(item, sentence, statement, end_sentence(changed)),
        f"Added a conflicting account of a side detail ({year} vs {new_year}); the asked fact is untouched.",
    )
