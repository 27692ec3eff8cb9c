"""Stated confidence from the confidence prompt variant: a ``CONFIDENCE: NN`` line (0–100).

The line is tolerant of markup (``**Confidence:** 85%``) and of ``=`` instead of ``:``; the last
such line counts. It is removed from the answer before the answer is classified or matched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

_LINE = re.compile(
    r"^[ \t>*_`#-]*confidence[ \t*_`]*[:=][ \t*_`]*(?P<num>-?\d+(?:\.\d+)?)[ \t]*%?[ \t*_`.]*$",
    re.IGNORECASE | re.MULTILINE,
)
_ANY_LINE = re.compile(r"^[ \t>*_`#-]*confidence[ \t*_`]*[:=].*$", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class ConfidenceParse:
    answer: str  # the output without the confidence line(s)
    confidence: Optional[float]  # 0–1, or None when absent or invalid
    note: Optional[str]  # why confidence is None, when a line was expected


def parse_confidence(text: str) -> ConfidenceParse:
    """Split `text` into the answer and the stated confidence (NN/100)."""
    text = text or ""
    matches = list(_LINE.finditer(text))
    if not matches:
        if _ANY_LINE.search(text):
            return ConfidenceParse(_strip(text, _ANY_LINE), None, "confidence line is not a number from 0 to 100")
        return ConfidenceParse(text.strip(), None, "no CONFIDENCE line in output")
    value = float(matches[-1].group("num"))
    answer = _strip(text, _ANY_LINE)
    if not 0 <= value <= 100:
        return ConfidenceParse(answer, None, f"confidence {value:g} outside 0-100")
    return ConfidenceParse(answer, value / 100.0, None)


def _strip(text: str, pattern: re.Pattern) -> str:
    return pattern.sub("", text).strip()
