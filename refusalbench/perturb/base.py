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

from refusalbench.generation.ids import seed_for
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.distractors import DistractorPool, content_words
from refusalbench.perturb.text import (
    IRREGULAR_PARTICIPLES,
    answer_pattern,
    balanced,
    capitalise,
    contains,
    contains_any,
    embed,
    ends_sentence,
    is_abbreviation,
    join_sentences,
    lower_vocabulary,
    normalise_space,
    split_sentences,
    starts_sentence,
    strip_stop,
)

QUERY, CONTEXT, BOTH, NOISE = "query", "context", "query+context", "noise"


class NotApplicable(ValueError):
    """No lever of the requested cell (or not the requested lever) applies to this item."""


# a sentence opening on a participle phrase set off by a comma ("Used from ..., it contains", "Built in 1890, the
# hall ..."), before its subject
_PARTICIPLE_OPENER = re.compile(
    rf"^[\"'“‘]?(?!(?:During|Following)\b)(?:[A-Z][a-z]*(?:ed|ing)|"
    rf"{IRREGULAR_PARTICIPLES.title()})\b[^,.;]*,\s"
)


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
    fn: Callable[[Item], Proposal]
    edits: str  # QUERY | CONTEXT | BOTH | NOISE


REGISTRY: dict[tuple[str, str], list[LeverImpl]] = {}


def lever(cls: str, intensity: str, name: str, edits: str):
    """Register a lever implementation for one cell (decorator)."""

    def wrap(fn: Callable[[Item], Proposal]) -> Callable[[Item], Proposal]:
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
    raw_answers: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.raw_answers = [normalise_space(a) for a in self.answers if normalise_space(str(a))]
        # "Louis Prima." → "Louis Prima": an answer's closing full stop is the sentence's, not the name's
        # (kept after an abbreviation: "Jr.", "J."), so an edit of the name leaves the sentence its stop
        self.answers = list(dict.fromkeys(strip_stop(a) for a in self.raw_answers))
        stated = [a for a in self.answers if any(contains(self.passages[i], a) for i in self.signal)]
        typed = [(a, at.detect(a, self.query)) for a in stated]
        # the first stated answer, preferring one of a definite type ("Sebastian Vettel" over "Ferrari driver ...")
        best = next((p for p in typed if p[1] != at.OTHER), typed[0] if typed else None)
        if best:
            self.anchor, self.atype = best

    @property
    def names(self) -> tuple[str, ...]:
        """Names a sentence may open with that must keep their capitals (the passage's title)."""
        return (re.sub(r"\s*\([^)]*\)\s*$", "", self.title).strip(),) if self.title else ()

    def embedded(self, sentence: str) -> str:
        """`sentence` ready to follow "that" (see text.embed); NotApplicable when it would still open on a
        capitalised word that is neither a name here (written capitalised mid-sentence in the passages, or
        the title) nor a word the passages use in lower case ("states that Construction took place")."""
        if _PARTICIPLE_OPENER.match(sentence):
            # "states that used from the late Old Kingdom ..., it contains 42 tombs" reads as broken (the
            # seventy-seventh review's R063)
            raise NotApplicable("the sentence opens with a participle phrase, which cannot follow 'that'")
        s = embed(sentence, self.vocabulary, self.names)
        first = re.match(r"[\"'“‘]?([A-Z][a-z]+)\b(?!\s+[A-Z])", s)
        if first and not any(s.startswith(n) for n in self.names):
            word = first.group(1)
            mid = re.search(rf"(?<![.!?:\"“]\s)(?<!^)(?<=\s){re.escape(word)}\b", " ".join(self.passages))
            if not mid:
                raise NotApplicable(f"'{word}' would stay capitalised inside the sentence")
        return s

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
        """A same-type value that differs from the answers; a date also differs in its year (a clash
        inside one year would leave a year-level answer safe)."""
        value = self.pool.pick(
            atype or self.atype, self.need_anchor(), self.rng, self.answers, self.passages, self.query
        )
        year = _year_of(self.need_anchor()) if (atype or self.atype) == at.DATE else None
        for _ in range(8):
            if not value or year is None or _year_of(value) != year:
                break
            value = self.pool.pick(at.DATE, self.need_anchor(), self.rng, self.answers, self.passages, self.query)
        if value and year is not None and _year_of(value) == year:
            raise NotApplicable("no date distractor falls in another year")
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


def _year_of(text: str) -> Optional[str]:
    m = re.search(r"(?<!\d)(\d{3,4})(?!\d)", text)
    return m.group(1) if m else None


def sentences_with(sentences: Sequence[str], answers: Sequence[str]) -> list[int]:
    return [i for i, s in enumerate(sentences) if contains_any(s, answers)]


def first_answer_sentence(item: Item, passage: str) -> tuple[list[str], int]:
    """The passage's sentences and the index of the first one stating the anchor (or any answer)."""
    sents = split_sentences(passage)
    hits = sentences_with(sents, [item.need_anchor()]) or sentences_with(sents, item.answers)
    if not hits:
        raise NotApplicable("the passage has no sentence stating the answer")
    return sents, hits[0]


def wording(options: Sequence[str], subject: str) -> str:
    """One of a question's `options`, drawn by its `subject` (the work's or person's name): different subjects read
    differently, so that no one form marks the refusals, while two source questions about one subject get the same
    text, which the check stage then sees as one item."""
    return options[seed_for("wording", subject) % len(options)]


def starts_cleanly(sentence: str) -> bool:
    """True when the sentence starts like a sentence (capital, digit or opening quote)."""
    return starts_sentence(sentence)


def embeddable(sentence: str) -> bool:
    """False for a sentence opening with "That" ("That year ..."), which would read "states that that year"."""
    return not re.match(r"[\"'“‘(]*that\b", sentence, re.I)


def complete(sentence: str) -> bool:
    """A whole sentence: it starts like one and ends with terminal punctuation (not a cut passage's edge)."""
    return starts_sentence(sentence) and ends_sentence(sentence)


def insert_after(sentences: Sequence[str], k: int, new: str) -> list[str]:
    """`new` inserted after sentence `k`; NotApplicable when `k` is a passage's cut-off last fragment."""
    if not ends_sentence(sentences[k]):
        raise NotApplicable("the sentence is cut off at the end of the passage")
    return list(sentences[: k + 1]) + [new] + list(sentences[k + 1 :])


def append_sentence(passage: str, new: str) -> str:
    """`new` added after the passage's last complete sentence (before a cut-off final fragment)."""
    sents = split_sentences(passage)
    if not sents:
        raise NotApplicable("the passage is empty")
    if ends_sentence(sents[-1]):
        return join_sentences(sents + [new])
    if len(sents) < 2 or not ends_sentence(sents[-2]):
        raise NotApplicable("the passage has no complete sentence to follow")
    return join_sentences(sents[:-1] + [new, sents[-1]])


def substitute(sentence: str, item: Item, value: str) -> str:
    """The sentence with the anchor and its aliases replaced by `value` (longest first).

    An alias that contains the anchor keeps its extra words ("in New Mexico" → "in Canada"). An
    occurrence is left alone when it is part of a longer name ("The United Nations Convention"),
    of a compound ("Lead–acid") or written as a common noun where a name would go in. The value is
    fitted to its slot: no second preposition or article ("in in", "the the"), the replaced
    alias's preposition kept ("in the Near East" → "in Toledo"), no "the" before a name that
    takes none ("the Ludacris"), "a"/"an" agreeing, and a capital at a sentence start.
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
            # the alias's own article or preposition and the value's ("or the" + "the House ...") make one
            repl = re.sub(r"\b(the|an?)\s+(?:the|an?)\s+", r"\1 ", repl, flags=re.I)
            repl = re.sub(rf"\b({'|'.join(PREPOSITIONS)})\s+(?:{'|'.join(PREPOSITIONS)})\s+", r"\1 ", repl, flags=re.I)
        out = replace_spans(out, pat, lambda text, m, r=repl: _fit(text, m, r, item, value))
    return out


def replace_spans(text: str, pattern: re.Pattern[str], decide: Callable[[str, re.Match], Optional[tuple]]) -> str:
    """`text` with each match of `pattern` replaced as `decide(text, match)` says: (start, replacement)
    replaces text[start:match.end()] (start may reach back to take a word before it), (start,
    replacement, end) up to `end`; None keeps the match."""
    pieces, pos = [], 0
    for m in pattern.finditer(text):
        if m.start() < pos:
            continue
        choice = decide(text, m)
        if choice is None or choice[0] < pos:
            continue
        start, repl, end = choice if len(choice) == 3 else (*choice, m.end())
        pieces += [text[pos:start], repl]
        pos = end
    return "".join(pieces + [text[pos:]])


PREPOSITIONS = frozenset(
    "in on at from to by for with into near during since until till within across through under over "
    "throughout around".split()
)
ARTICLES = frozenset({"the", "a", "an"})
_NAME_GOES_ON = re.compile(r"\s+[A-Z][a-z]")
_WORD_BEFORE = re.compile(r"(?:^|(?<=\s))([A-Za-z]+)\s+$")
_SENTENCE_START = re.compile(r"(?:^|[.!?][\"'”’)]*\s+)[\"'“‘(]*$")


def at_sentence_start(before: str) -> bool:
    """True when text following `before` opens a sentence; a stop that ends an abbreviation ("in the U.S.
    after ...", "Dr.") opens none, as `split_sentences` also reads it."""
    m = _SENTENCE_START.search(before)
    if not m:
        return False
    stop = before[: m.start() + 1].rstrip("\"'”’)")
    token = stop.rsplit(None, 1)[-1] if stop.strip() else ""
    return not (token.endswith(".") and is_abbreviation(token))


def lead_word(phrase: str) -> str:
    """The phrase's leading preposition or article, lower-cased ("" if none)."""
    first = phrase.split(" ", 1)[0].lower()
    return first if first in PREPOSITIONS | ARTICLES and " " in phrase else ""


def in_compound(text: str, start: int, end: int) -> bool:
    """True when text[start:end] is glued to a word by a hyphen, dash or slash ("Lead–acid", "pro-Tolkien")."""
    return bool(re.search(r"\w[-–/]$", text[max(0, start - 2) : start]) or re.match(r"[-–/]\w", text[end : end + 2]))


def a_or_an(word: str) -> str:
    """The indefinite article for a following word ("an" before a vowel sound, by spelling)."""
    low = word.lower()
    if re.match(r"(?:uni|use|usu|eu|one|once|ur)", low):
        return "a"
    if re.match(r"(?:hour|honou?r|honest|heir)", low) or re.match(r"(?:8|11|18)\b", low) or re.match(r"[aeiou]", low):
        return "an"
    return "a"


def _fit(text: str, m: re.Match, repl: str, item: Item, value: str) -> Optional[tuple[int, str]]:
    """(start, replacement) putting `repl` in the place of match `m`, or None to keep that occurrence."""
    found = m.group(0)
    if _NAME_GOES_ON.match(text, m.end()) or in_compound(text, m.start(), m.end()):
        return None
    if found[:1].islower() and value[:1].isupper() and item.need_anchor()[:1].isupper():
        return None  # "lead sulfate" is no place for a name
    before = text[: m.start()]
    start = m.start()
    prev = (w.group(1) if (w := _WORD_BEFORE.search(before)) else "").lower()
    lead_found, lead_repl = lead_word(found), lead_word(repl)
    if (
        lead_repl
        and not lead_found
        and prev
        and ((lead_repl in PREPOSITIONS and prev in PREPOSITIONS) or (lead_repl in ARTICLES and prev in ARTICLES))
    ):
        repl = repl.split(" ", 1)[1]  # "in" + "in Cherry Hill", "the" + "the Faroe Islands"
    elif lead_found in PREPOSITIONS and not lead_repl:
        repl = f"{found.split(' ', 1)[0]} {repl}"  # "in the Near East" → "in Toledo"
    if prev == "the" and not lead_word(repl):
        bare = item.atype == at.PERSON or item.pool.takes_article(value) is False
        if bare and (w := _WORD_BEFORE.search(before)):
            start = w.start(1)  # "the Kidz Bop Kids" → "Ludacris", not "the Ludacris"
            before = text[:start]
    elif prev in ("a", "an") and repl[:1].isalnum() and (w := _WORD_BEFORE.search(before)):
        article = a_or_an(repl)
        if w.group(1)[:1].isupper():
            article = article.capitalize()
        start = w.start(1)
        before = text[:start]
        repl = f"{article} {repl}"
    if at_sentence_start(before):
        repl = capitalise(repl)
    return start, repl


def restated(item: Item, value: str, max_words: int = 0) -> tuple[str, str]:
    """(answer sentence, that sentence with the answer replaced by `value`) from the first answer passage."""
    bearing = item.answer_passages()
    sents, k = first_answer_sentence(item, item.passages[bearing[0]] if bearing else "")
    sentence = sents[k]
    if not starts_cleanly(sentence):
        raise NotApplicable("the answer sentence starts mid-sentence (a cut passage)")
    if not embeddable(sentence):
        raise NotApplicable("the answer sentence opens with 'that', which cannot follow 'states that'")
    if not ends_sentence(sentence) and not max_words:
        raise NotApplicable("the answer sentence is cut off at the end of the passage")
    if max_words and (len(sentence.split()) > max_words or not ends_sentence(sentence)):
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


# clause ends: not ", and" / ", as", which as often close a list item or a phrase as a clause
_CLAUSE_BREAK = re.compile(r"[;:]\s+|,\s+(?=(?:which|who|whose|where|while|but|although|though|when)\b)")


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
    clause = sentence[: after[0].start()].rstrip(" ,;:")
    return clause + "." if len(clause.split()) >= 4 else None


def rebuild(sentences: Sequence[str]) -> str:
    return join_sentences(sentences)
