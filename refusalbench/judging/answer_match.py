"""SQuAD-style answer matching: normalisation, exact match and token F1 against reference answers.

Normalisation (as in the SQuAD v1.1 evaluation): lower-case, drop punctuation, drop the articles
"a", "an", "the", collapse whitespace. Scores against several references take the best one.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Optional

_PUNCT = set(string.punctuation) | {"‘", "’", "“", "”", "–", "—", "…"}
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_CITATION = re.compile(r"\[\d+(?:\s*[,\-–]\s*\d+)*\]")  # inline passage markers like [1], [2, 3]
_ANSWER_LABEL = re.compile(r"^\s*[*_`]*answer[*_`]*\s*:[*_`]*\s*", re.IGNORECASE)  # an echoed "ANSWER:" cue


def normalize_answer(text: str) -> str:
    """Lower-case, remove punctuation and articles, collapse whitespace."""
    text = text.lower()
    text = "".join(ch for ch in text if ch not in _PUNCT)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def exact_match(prediction: str, reference: str) -> bool:
    return normalize_answer(prediction) == normalize_answer(reference)


def f1_score(prediction: str, reference: str) -> float:
    """Token-level F1 between the normalised prediction and reference."""
    pred = normalize_answer(prediction).split()
    ref = normalize_answer(reference).split()
    if not pred or not ref:
        return float(pred == ref)
    common = Counter(pred) & Counter(ref)
    overlap = sum(common.values())
    if overlap == 0:
        return 0.0
    precision = overlap / len(pred)
    recall = overlap / len(ref)
    return 2 * precision * recall / (precision + recall)


def clean_prediction(text: str) -> str:
    """Remove an echoed ``ANSWER:`` cue and inline passage markers (``[1]``, ``[2, 3]``)."""
    return _CITATION.sub(" ", _ANSWER_LABEL.sub("", text, count=1))


@dataclass(frozen=True)
class MatchResult:
    em: bool
    f1: float
    best_reference: str


def best_match(prediction: str, references: Iterable[str]) -> Optional[MatchResult]:
    """Best EM and F1 of `prediction` over the non-empty `references`; None when there are none."""
    refs = [r for r in (str(x).strip() for x in references if x is not None) if r]
    if not refs:
        return None
    prediction = clean_prediction(prediction)
    em = any(exact_match(prediction, r) for r in refs)
    scored = [(f1_score(prediction, r), r) for r in refs]
    f1, ref = max(scored, key=lambda t: t[0])
    return MatchResult(em=em, f1=f1, best_reference=ref)
