"""Layer 2 of judging: the LLM judge's prompt inputs and the lenient parsing of its JSON verdict.

The judge sees the query, the model's answer, the reference answers and (multi-passage) the
passages — never the item's expected label. References are given for every item alike (the
original answers, which a LOW perturbation preserves), so their presence does not reveal whether
an item is answerable either (the original multi-passage judge prompt for unanswerable items told
the judge the expected label, which can bias its classification).

Verdict keys (case-insensitive): ``classification`` (``answer_attempt`` or one of the 7 codes),
single-passage ``quality_score`` (1–5, or null when no references apply), multi-passage
``eligibility``, ``factuality_all``, ``factuality_relevant`` (0/1), and ``explanation``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from refusalbench.json_reply import ParseError, extract_json
from refusalbench.judging.codes import bare_label, code_tokens
from refusalbench.judging.rules import leading_code
from refusalbench.taxonomy import ANSWER_ATTEMPT

NQ_TEMPLATE = "judge_nq"
GARAGE_TEMPLATE = "judge_garage"
GARAGE_FLAGS = ("eligibility", "factuality_all", "factuality_relevant")

#: Sent after an unparseable verdict (one re-ask), together with the reason.
REASK = (
    "Your reply could not be read ({reason}). Reply again with only the JSON object the instructions "
    "ask for, with no other text."
)

_ALIASES = {
    "score": "quality_score",
    "quality": "quality_score",
    "reason": "explanation",
    "label": "classification",
    "factuality": "factuality_all",
    "raf": "factuality_relevant",
}


class VerdictError(ValueError):
    """A judge reply that is not a valid verdict; the message is the reason."""


@dataclass(frozen=True)
class Verdict:
    classification: str  # answer_attempt or a refusal code
    quality_score: Optional[float] = None  # single-passage, 1–5
    eligibility: Optional[int] = None  # multi-passage flags, 0/1
    factuality_all: Optional[int] = None
    factuality_relevant: Optional[int] = None
    explanation: str = ""


def extract_json_object(text: str) -> dict:
    """The JSON object in the judge's reply (fenced, bare, after prose or a reasoning trace)."""
    try:
        return extract_json(text)
    except ParseError as exc:
        raise VerdictError(str(exc)) from None


def _normalise_keys(obj: dict) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in obj.items():
        k = re.sub(r"[\s\-]+", "_", str(key).strip().lower())
        out.setdefault(_ALIASES.get(k, k), value)
    return out


def parse_classification(value: Any) -> str:
    """``answer_attempt`` or a canonical refusal code from the judge's classification field.

    Read with the shared code normaliser: the field is one label alone, or begins with one code
    followed by an explanation. Unlisted codes and several codes are errors (the verdict is re-asked).
    """
    if not isinstance(value, str) or not value.strip():
        raise VerdictError(f"classification missing or not a string: {value!r}")
    label = bare_label(value)
    if label is not None:
        return label
    decision = leading_code(value)
    if decision is not None:
        return decision.label
    if len(set(code_tokens(value))) > 1:
        raise VerdictError(f"classification names several codes: {value!r}")
    raise VerdictError(f"classification {value!r} is neither answer_attempt nor a refusal code")


def _number(value: Any, name: str) -> Optional[float]:
    if value is None or (isinstance(value, str) and value.strip().upper() in ("", "N/A", "NA", "NONE", "NULL")):
        return None
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        m = re.fullmatch(r"\s*(-?\d+(?:\.\d+)?)\s*(?:/\s*\d+)?\s*", value)  # "4", "4.0", "4/5"
        if m:
            return float(m.group(1))
        low = value.strip().lower()
        if low in ("yes", "true"):
            return 1.0
        if low in ("no", "false"):
            return 0.0
    raise VerdictError(f"{name} is not a number: {value!r}")


def parse_verdict(text: str, multi_passage: bool, has_references: bool = True) -> Verdict:
    """Parse a judge reply into a Verdict; VerdictError (with the reason) when it is not valid."""
    obj = _normalise_keys(extract_json_object(text))
    if "classification" not in obj:
        raise VerdictError("no classification in judge reply")
    label = parse_classification(obj["classification"])
    explanation = str(obj.get("explanation") or "")
    if label != ANSWER_ATTEMPT:
        return Verdict(label, explanation=explanation)
    if not multi_passage:
        score = _number(obj.get("quality_score"), "quality_score")
        if score is None and has_references:
            raise VerdictError("answer_attempt without a quality_score")
        if score is not None and not 1 <= score <= 5:
            raise VerdictError(f"quality_score {score:g} outside 1-5")
        return Verdict(label, quality_score=score, explanation=explanation)
    flags: dict[str, int] = {}
    for name in GARAGE_FLAGS:
        value = _number(obj.get(name), name)
        if value not in (0.0, 1.0):
            raise VerdictError(f"{name} must be 0 or 1, got {obj.get(name)!r}")
        flags[name] = int(value)
    return Verdict(label, explanation=explanation, **flags)


def format_references(answers: Sequence[Any]) -> list[str]:
    """Non-empty reference answers as strings (a bare string becomes one reference)."""
    if answers is None:
        return []
    if isinstance(answers, str):
        answers = [answers]
    return [str(a).strip() for a in answers if a is not None and str(a).strip()]
