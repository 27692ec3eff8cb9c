"""The working view of one base item, the lever registry and the editing helpers levers share.

A lever is a function `fn(item) -> Proposal` registered for one (class, intensity) cell with
`@lever(...)`. It raises `NotApplicable` when the item does not suit it (no answer in the passage,
no typed distractor, nothing left to delete, ...). Levers see passages as lists of sentences and
return whole passage lists; the engine checks the class invariants afterwards.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from refusalbench.perturb import answer_types as at
from refusalbench.perturb.distractors import DistractorPool, content_words
from refusalbench.perturb.text import (
    answer_pattern, balanced, contains, contains_any, join_sentences, lower_vocabulary, normalise_space,
    split_sentences,
)

QUERY, CONTEXT, BOTH, NOISE = "query", "context", "query+context", "noise"


class NotApplicable(ValueError):
    """No lever of the requested cell (or not the requested lever) applies to this item."""


@dataclass
class Proposal:
    query: str
    passages: list[str]
    reasoning: str


@dataclass(frozen=True)
class LeverImpl:
    cls: str
    intensity: str
    name: str
    fn: Callable[["Item"], Proposal]
    edits: str  # QUERY | CONTEXT | BOTH | NOISE


REGISTRY: dict[tuple[str, str], list[LeverImpl]] = {}


def lever(cls: str, intensity: str, name: str, edits: str):
    """Register a lever implementation for one cell (decorator)."""

    def wrap(fn: Callable[["Item"], Proposal]) -> Callable[["Item"], Proposal]:
        REGISTRY.setdefault((cls, intensity), []).append(LeverImpl(cls, intensity, name, fn, edits))
        return fn

    return wrap


@dataclass
class Item:
    """One base item prepared for perturbation (passages as stored; single passage → one entry)."""

    source_id: str
    query: str
    answers: list[str]
    passages: list[str]
    signal: list[int]
    noise: list[int]
    multi: bool
    pool: DistractorPool
    rng: random.Random = field(default_factory=random.Random)
    title: Optional[str] = None
    anchor: Optional[str] = None
    atype: str = at.OTHER

    def __post_init__(self) -> None:
        self.answers = [normalise_space(a) for a in self.answers if normalise_space(str(a))]
        stated = [a for a in self.answers if any(contains(self.passages[i], a) for i in self.signal)]
        typed = [(a, at.detect(a, self.query)) for a in stated]
        # the first stated answer, preferring one of a definite type ("Sebastian Vettel" over "Ferrari driver ...")
        best = next((p for p in typed if p[1] != at.OTHER), typed[0] if typed else None)
        if best:
            self.anchor, self.atype = best

    @functools.cached_property
    def vocabulary(self) -> frozenset[str]:
        """Words the passages use in lower case (so a capitalised sentence opener can be lowered)."""
        return lower_vocabulary(" ".join(self.passages))

    # -- answer helpers --------------------------------------------------------------------------

    def need_anchor(self) -> str:
        if not self.anchor:
            raise NotApplicable("no answer string occurs in the (signal) passage")
        return self.anchor

    def aliases(self) -> list[str]:
        """The anchor plus the answers that contain it or that it contains ("Ledger" / "Heath Ledger")."""
        anchor = self.need_anchor()
        low = anchor.lower()
        return [a for a in self.answers if a.lower() == low or contains(a, anchor) or contains(anchor, a)]

    def answer_passages(self) -> list[int]:
        """Signal passages that state an answer."""
        return [i for i in self.signal if contains_any(self.passages[i], self.answers)]

    @property
    def anchor_text(self) -> str:
        """The anchor as it reads inside a sentence (no trailing full stop or comma)."""
        return self.need_anchor().rstrip(" .,;:")

    def maybe_distractor(self) -> Optional[str]:
        try:
            return self.distractor()
        except NotApplicable:
            return None

    def distractor(self, atype: Optional[str] = None) -> str:
        value = self.pool.pick(atype or self.atype, self.need_anchor(), self.rng, self.answers, self.passages, self.query)
        if not value:
            raise NotApplicable(f"no {atype or self.atype} distractor differs from the answers and the passage")
        return value

    def query_words(self) -> set[str]:
        return content_words(self.query)

    # -- editing ---------------------------------------------------------------------------------

    def with_passages(self, edited: dict[int, str]) -> list[str]:
        out = list(self.passages)
        for i, text in edited.items():
            out[i] = text
        return out

    def edit_signal(self, fn: Callable[[str], str]) -> list[str]:
        """Apply a passage edit to every answer-bearing signal passage; NotApplicable if none changes."""
        targets = self.answer_passages()
        if not targets:
            raise NotApplicable("no signal passage states an answer")
        edited = {}
        for i in targets:
            new = fn(self.passages[i])
            if normalise_space(new) != normalise_space(self.passages[i]):
                edited[i] = new
        if not edited:
            raise NotApplicable("the edit changes no passage")
        return self.with_passages(edited)


def sentences_with(sentences: Sequence[str], answers: Sequence[str]) -> list[int]:
    return [i for i, s in enumerate(sentences) if contains_any(s, answers)]


def first_answer_sentence(item: Item, passage: str) -> tuple[list[str], int]:
    """The passage's sentences and the index of the first one stating the anchor (or any answer)."""
    sents = split_sentences(passage)
    hits = sentences_with(sents, [item.need_anchor()]) or sentences_with(sents, item.answers)
    if not hits:
        raise NotApplicable("the passage has no sentence stating the answer")
    return sents, hits[0]


def starts_cleanly(sentence: str) -> bool:
    """True when the sentence starts like a sentence (capital, digit or opening quote)."""
    s = sentence.lstrip("\"'“‘(")
    return bool(s) and (s[0].isupper() or s[0].isdigit())


def substitute(sentence: str, item: Item, value: str) -> str:
    """The sentence with the anchor and its aliases replaced by `value` (longest first).

    An alias that contains the anchor keeps its extra words ("in New Mexico" → "in Canada"); an
    occurrence followed by a capitalised word is part of a longer name ("The United Nations
    Convention") and is left alone.
    """
    anchor = item.need_anchor()
    out = sentence
    for a in sorted(item.aliases(), key=len, reverse=True):
        pat = answer_pattern(a)
        if pat is None:
            continue
        repl = value
        if a.lower() != anchor.lower() and contains(a, anchor):
            repl = answer_pattern(anchor).sub(lambda _m: value, a, count=1)
        out = pat.sub(lambda m: m.group(0) if _NAME_GOES_ON.match(m.string, m.end()) else repl, out)
    if item.atype == at.PERSON and value[:1].isupper():  # "the Kidz Bop Kids" → "Ludacris", not "the Ludacris"
        out = re.sub(r"\b[Tt]he\s+(" + re.escape(value) + r")", r"\1", out)
    return out


_NAME_GOES_ON = re.compile(r"\s+[A-Z][a-z]")


def restated(item: Item, value: str, max_words: int = 0) -> tuple[str, str]:
    """(answer sentence, that sentence with the answer replaced by `value`) from the first answer passage."""
    bearing = item.answer_passages()
    sents, k = first_answer_sentence(item, item.passages[bearing[0]] if bearing else "")
    sentence = sents[k]
    if not starts_cleanly(sentence):
        raise NotApplicable("the answer sentence starts mid-sentence (a cut passage)")
    if max_words and len(sentence.split()) > max_words:
        clause = answer_clause(sentence, item)
        if not clause or len(clause.split()) > max_words:
            raise NotApplicable(f"the answer sentence is longer than {max_words} words")
        sentence = clause
    new = substitute(sentence, item, value)
    if new == sentence:
        raise NotApplicable("the answer could not be replaced in its sentence")
    if not balanced(new):
        raise NotApplicable("the answer sentence has unpaired brackets or quotes")
    return sentence, new


_CLAUSE_BREAK = re.compile(r"[;:]\s+|,\s+(?=(?:which|who|whose|where|while|and|but|although|though|as|when)\b)")


def answer_clause(sentence: str, item: Item) -> Optional[str]:
    """The sentence cut after the clause holding the answer, when that clause opens the sentence."""
    span = next((m.span() for a in item.aliases() if (p := answer_pattern(a)) and (m := p.search(sentence))), None)
    if not span:
        return None
    breaks = list(_CLAUSE_BREAK.finditer(sentence))
    if any(m.start() < span[0] for m in breaks):
        return None
    after = [m for m in breaks if m.start() >= span[1]]
    if not after:
        return None
    clause = sentence[:after[0].start()].rstrip(" ,;:")
    return clause + "." if len(clause.split()) >= 4 else None


def rebuild(sentences: Sequence[str]) -> str:
    return join_sentences(sentences)
