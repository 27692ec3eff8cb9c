"""Semantic detectors for deletions: what a cut leaves behind (run by semantic.detect on a `Candidate`).

- `answer_name_word_survives`: MissingInfo MEDIUM/HIGH removed a multi-word answer but a distinctive
  word of it is still in the passage (the surname "Basu" after "Jyoti Basu" was cut), so the answer
  stays implied.
- `dangling_opening_pronoun`: a cut left a passage opening with a pronoun or demonstrative whose
  antecedent was removed ("It was established by ..." after the sentence naming the institute went),
  or a demonstrative phrase ("This ligand-binding site ...") right after a removed sentence.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from refusalbench import taxonomy as tx

_STOP = frozenset("the a an of in on at to for from by with and or but his her its their".split())

# the kind noun of a name ("Harlem River", "Battle of Antietam") is not what identifies it
_KIND = frozenset(
    """river lake mountain mount island sea ocean city county state states republic kingdom province region valley
    bay coast park street road square stadium arena airport district territory town village university college school
    institute party club company corporation band group league union church museum hospital army navy battle war
    house hall tower bridge palace castle mall centre center award prize cup championship series season""".split()
)
_NAME_WORD = re.compile(r"[A-Z][\w'’-]*")
_PERSONAL = r"(?:It|He|She|They|Its|His|Her|Their|Him|Them)"
_DEMONSTRATIVE = r"(?:This|These|Those|That|Such|The latter|The former|The same)"
_OPENS_PRONOUN = re.compile(rf"^[\"'“(]*(?:{_PERSONAL}|{_DEMONSTRATIVE})\b")
# in a new opening sentence: a personal pronoun, an early "also", or a phrase pointing back ("by this time")
_EARLY_PRONOUN = re.compile(
    r"^[^;]{0,80}?,\s+(?:he|she|it|they|his|her|its|their)\b"  # "Since 2009, he ...", "On June 5, 1993, it ..."
    r"|\b(?:he|she|his|her|hers|him|they|their|them)\b"  # "The single was his fifth release"
    r"|^(?:\S+\s+){0,4}also\b",  # "The song was also used ..."
    re.I,
)
_POINTS_BACK = re.compile(r"\b(?:this|these|those|the same|the latter|the former)\b", re.I)
_OPENS_DEMONSTRATIVE = re.compile(rf"^[\"'“(]*{_DEMONSTRATIVE}\b")


def sentences(text: str) -> list[str]:
    from refusalbench.perturb.text import split_sentences  # lazily: the perturb package is heavy to import

    return split_sentences(str(text))


def _norm(sentence: str) -> str:
    return " ".join(sentence.split())


def distinctive_words(answer: str, original_text: str, query: str) -> set[str]:
    """Capitalised words of a multi-word answer that identify it ("Basu" of "Jyotirindra Basu"): at least
    three letters, not a function or kind noun, not written in lower case in the passage, not in the query."""
    if re.search(r"\d", answer):
        return set()  # dates and figures: a surviving month or unit is not the answer
    words = _NAME_WORD.findall(answer)
    if len(answer.split()) < 2 or not words:
        return set()
    lower_used = set(re.findall(r"(?<![\w'’-])[a-z][\w'’-]*", original_text))
    asked = {w.lower() for w in re.findall(r"[\w'’-]+", query)}
    return {
        w
        for w in words
        if len(w) >= 3
        and w.lower() not in _STOP
        and w.lower() not in _KIND
        and w.lower() not in lower_used
        and w.lower() not in asked
    }


def answer_name_word_survives(c: Any) -> Optional[str]:
    if c.cls != tx.MISSING_INFO or not c.refuse:
        return None
    original, perturbed = " ".join(c.original), " ".join(c.perturbed)
    if perturbed == original:
        return None
    for answer in c.answers:  # every gold answer: a surname of one not stated in full ("Niesen's recording")
        for w in sorted(distinctive_words(answer, original, c.original_query)):
            if re.search(rf"(?<![\w'’-]){re.escape(w)}(?![\w-])", perturbed):
                return f"a distinctive word of the answer {answer!r} is still in the passage: {w!r}"
    return None


def dangling_opening_pronoun(c: Any) -> Optional[str]:
    for old, new in zip(c.original, c.perturbed):
        if old == new:
            continue
        before, after = sentences(old), sentences(new)
        kept = {_norm(s) for s in after}
        position = {_norm(s): i for i, s in enumerate(before)}
        for j, s in enumerate(after):
            i = position.get(_norm(s))
            if i is None or i == 0 or _norm(before[i - 1]) in kept:
                continue  # a new or changed sentence, the original opening, or its antecedent is still there
            if j == 0 and (_OPENS_PRONOUN.match(s) or _EARLY_PRONOUN.search(s) or _POINTS_BACK.search(s)):
                return f"the passage now opens with a pronoun whose antecedent was cut: {s[:60]!r}"
            if _OPENS_DEMONSTRATIVE.match(s):
                return f"a demonstrative follows a cut sentence it referred to: {s[:60]!r}"
    return None
