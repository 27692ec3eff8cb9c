"""P-Ambiguity MEDIUM and HIGH: the passage of another work of the same kind beside the item's own, the query
asking about "this song" (MEDIUM) or "that one" among three works (HIGH).

The base set holds other questions of the same shape about works of the same kind ("who sang <song>",
"when did <film> come out"; `work_index`). Their passages are whole encyclopaedia leads, each stating its
own work's answer, so the query that no longer names its work has one reading per passage, each with
its own, different answer, and none of the item's answers is stated under the other readings. Each
passage is kept whole and of comparable length, so that neither reading is the natural one (a blind
review found a one-sentence distractor beside a long passage too weak: the passage's own subject stayed
the salient referent).
"""

from __future__ import annotations

import re
from typing import Sequence

from refusalbench import taxonomy as tx
from refusalbench.generation.ids import seed_for
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import BOTH, Item, NotApplicable, Proposal, lever
from refusalbench.perturb.subject import title_core, work_subject
from refusalbench.perturb.text import (
    as_question,
    contains,
    contains_any,
    ends_sentence,
    join_sentences,
    normalise_space,
    split_sentences,
)
from refusalbench.perturb.work_index import WorkQuestion, asked_of_work

AM = tx.AMBIGUITY
PARAGRAPH = "\n\n"  # the passages stay apart: two leads run together would read as one article
_MIN_WORDS, _MAX_WORDS, _MAX_RATIO = 30, 220, 2.5


def _years(texts: Sequence[str]) -> set[str]:
    return {y for t in texts for y in re.findall(r"(?<!\d)1[0-9]{3}(?!\d)|(?<!\d)20[0-9]{2}(?!\d)", t)}


def _words(text: str) -> int:
    return len(text.split())


def whole_sentences(passage: str) -> str:
    """The passage without a trailing fragment (a retrieved chunk often stops mid-sentence)."""
    sents = split_sentences(passage)
    while sents and not ends_sentence(sents[-1]):
        sents.pop()
    return join_sentences(sents)


def _stated(work: WorkQuestion) -> list[str]:
    return [a for a in work.answers if contains(whole_sentences(work.passage), a)]


# slips in another question's passage become slips in this item's new text: "in" before a day's date
# ("released in August 22, 1980"), a release date run into what the work was ("released in March 1994 the fifth
# and final single", the "as" lost)
_SLIPS = (
    re.compile(rf"\bin\s+(?:{at.MONTH_NAMES})\.?\s+\d{{1,2}}\b"),
    re.compile(r"\b(?:released|issued|published)\b[^.;]*?\b\d{4}\s+the\s+(?:first|final|last|lead|\w+(?:nd|rd|th))\b"),
)


def _clean_lead(work: WorkQuestion) -> bool:
    """False for a lead with a slip a blind review marked in added text (`_SLIPS`)."""
    lead = whole_sentences(work.passage)
    return not any(slip.search(lead) for slip in _SLIPS)


def _apart(a: WorkQuestion, b: WorkQuestion) -> bool:
    """True when the two works have different answers, neither passage states the other's answer or names the
    other work, and their dated answers fall in different years."""
    if not _stated(a) or not _stated(b):
        return False
    if {x.casefold() for x in a.answers} & {x.casefold() for x in b.answers}:
        return False
    if contains_any(a.passage, list(b.answers)) or contains_any(b.passage, list(a.answers)):
        return False
    if contains(a.passage, title_core(b.title)) or contains(b.passage, title_core(a.title)):
        return False
    if _years(a.answers) & _years(b.answers):
        return False
    sizes = sorted((_words(whole_sentences(a.passage)), _words(whole_sentences(b.passage))))
    return sizes[0] >= _MIN_WORDS and sizes[1] <= _MAX_WORDS and sizes[1] <= _MAX_RATIO * sizes[0]


def _own(item: Item) -> WorkQuestion:
    if item.multi or not item.title:
        raise NotApplicable("the item has no titled single passage")
    item.need_anchor()
    asked = asked_of_work(item.query, item.title)
    if asked is None:
        raise NotApplicable(
            "the query does not ask 'who sang / wrote / directed' or 'when did ... come out' of its work"
        )
    subject = work_subject(normalise_space(item.passages[0]), item.title)
    if subject is None:
        raise NotApplicable("the passage does not open as the lead of a work ('X is a 1983 song by ...')")
    if item.atype not in (at.PERSON, at.ORGANISATION, at.DATE, at.YEAR):
        raise NotApplicable("the answer is not a person, group, date or year")
    return WorkQuestion(
        item.source_id,
        asked.relation,
        subject.kind,
        item.title,
        normalise_space(item.passages[0]),
        tuple(item.answers),
    )


def _companions(item: Item, own: WorkQuestion, n: int) -> list[WorkQuestion]:
    """`n` works asked the same of the same kind, pairwise apart (see `_apart`), drawn with the item's seed."""
    pool = [
        w
        for w in item.pool.works.get(f"{own.relation}|{own.kind}", [])
        if w.source_id != own.source_id and title_core(w.title).casefold() != title_core(own.title).casefold()
    ]
    # each candidate work gets its own seeded rank, so a work that a new gate takes out of the index changes only
    # the items that had drawn it, not every item's draw
    salt = item.rng.getrandbits(64)
    pool = sorted((w for w in pool if _clean_lead(w) and _apart(own, w)), key=lambda w: seed_for(salt, w.source_id))
    chosen: list[WorkQuestion] = []
    for w in pool:
        if all(_apart(w, c) for c in chosen):
            chosen.append(w)
        if len(chosen) == n:
            return chosen
    raise NotApplicable(f"the base set has fewer than {n} other {own.kind}s asked '{own.relation}' with other answers")


def _side_by_side(item: Item, own: WorkQuestion, others: list[WorkQuestion]) -> str:
    # the passages in a seeded order, each without a cut-off fragment (a retrieved chunk often stops mid-sentence;
    # `_apart` has checked that the answers and 30 words stand before it). The item's own passage used to keep its
    # fragment and so come last, which made its reading the last-mentioned one on NQ's cut chunks (the fifty-second
    # review's annotators noted "that one" might be taken for the last song)
    passages = [whole_sentences(w.passage) for w in (own, *others)]
    item.rng.shuffle(passages)
    return PARAGRAPH.join(passages)


def _query(item: Item, words: str) -> str:
    asked = asked_of_work(item.query, item.title)
    text = normalise_space(item.query)
    return as_question(text[: asked.start] + words + text[asked.end :])


@lever(AM, tx.MEDIUM, "Ambiguous Deictic Reference", BOTH)
def deictic_between_two_works(item: Item) -> Proposal:
    """ "Who sang this song?" beside the leads of two songs, each with its own singer."""
    own = _own(item)
    (other,) = _companions(item, own, 1)
    context = _side_by_side(item, own, [other])
    return Proposal(
        _query(item, f"this {own.kind}"),
        [context],
        f"Put the lead of another {own.kind} asked the same question ('{title_core(other.title)}') beside the "
        f"passage and referred to the work as 'this {own.kind}'; each passage answers for its own {own.kind}.",
    )


@lever(AM, tx.HIGH, "Anaphoric 'One' Collision", BOTH)
def one_among_three_works(item: Item) -> Proposal:
    """ "Who sang that one?" beside the leads of three songs, each with its own singer."""
    own = _own(item)
    others = _companions(item, own, 2)
    context = _side_by_side(item, own, others)
    names = ", ".join(f"'{title_core(w.title)}'" for w in others)
    return Proposal(
        _query(item, "that one"),
        [context],
        f"Put the leads of two other {own.kind}s asked the same question ({names}) beside the passage and "
        f"referred to the work only as 'that one'; each passage answers for its own {own.kind}.",
    )
