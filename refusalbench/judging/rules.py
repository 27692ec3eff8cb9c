"""Layer 1 of judging: deterministic classification of a raw output by the refusal codes it contains.

The evaluated model is told to reply with a bare code when it declines, so a pattern over the raw
output settles most refusals without a judge call (spec H.3 #22). The match is case-insensitive and
tolerant of markup around the code (``**REFUSE_OTHER**.``, backticks, brackets, markdown-escaped
underscores ``REFUSE\\_OTHER``, hyphens instead of underscores) and of a short preamble before it.
A code must stand alone as a token, so prose such as "I refuse to believe" never matches.

Also recognised, with a note in the reason:

- the paper's short code names (``REFUSE_MISSING``, ``REFUSE_AMBIGUOUS``, ...; spec B.1);
- any other upper-case ``REFUSE_SOMETHING`` token: a refusal of an unlisted kind → ``REFUSE_OTHER``.

Precedence: a failed call → ``unscored``; an empty or truncated output → ``truncated`` (never a
refusal); then codes. When several different codes occur, the first one in the text wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from refusalbench.taxonomy import REFUSAL_CODES, REFUSE_OTHER, SHORT_CODES, TRUNCATED, UNSCORED



_SEP = r"(?:\\?_|-)"  # "_", markdown-escaped "\_", or "-"
_EDGE_L = r"(?<![A-Za-z0-9])"
_EDGE_R = r"(?![A-Za-z0-9])"


def _code_pattern(code: str) -> str:
    return _SEP.join(re.escape(part) for part in code.split("_"))


# Longest alternatives first, so REFUSE_INFO_MISSING_IN_CONTEXT wins over REFUSE_INFO_MISSING.
_KNOWN = sorted([*REFUSAL_CODES, *SHORT_CODES], key=len, reverse=True)
_KNOWN_RE = re.compile(_EDGE_L + "(" + "|".join(_code_pattern(c) for c in _KNOWN) + ")" + _EDGE_R, re.IGNORECASE)
# An unlisted code-like token, written in capitals as the prompt's codes are (case-sensitive on purpose).
_OTHER_RE = re.compile(_EDGE_L + r"(REFUSE(?:\\?_|-)[A-Z][A-Z]*(?:(?:\\?_|-)[A-Z]+)*)" + _EDGE_R)


@dataclass(frozen=True)
class CodeHit:
    code: str  # the canonical refusal code
    text: str  # the matched text
    start: int


@dataclass(frozen=True)
class RuleDecision:
    label: str  # a refusal code, "truncated" or "unscored"
    reason: str


def _canonical(token: str) -> str:
    return re.sub(r"\\?_|-", "_", token).upper()


def find_codes(text: str) -> list[CodeHit]:
    """Every refusal-code occurrence in `text`, in order of position, mapped to canonical codes."""
    if not text:
        return []
    hits: list[CodeHit] = []
    taken: list[tuple[int, int]] = []
    for m in _KNOWN_RE.finditer(text):
        canon = _canonical(m.group(1))
        hits.append(CodeHit(SHORT_CODES.get(canon, canon), m.group(1), m.start(1)))
        taken.append(m.span(1))
    for m in _OTHER_RE.finditer(text):
        if not any(s <= m.start(1) < e for s, e in taken):
            hits.append(CodeHit(REFUSE_OTHER, m.group(1), m.start(1)))
    return sorted(hits, key=lambda h: h.start)


def classify_codes(text: str) -> Optional[RuleDecision]:
    """The refusal code `text` gives (first occurring), or None when it contains none."""
    hits = find_codes(text)
    if not hits:
        return None
    first = hits[0]
    notes = []
    if _canonical(first.text) != first.code:
        notes.append(f"{first.text!r} read as {first.code}")
    if text.strip().strip("*`'\"[]().:!;, \n\t") != first.text:
        notes.append("code found within a longer output")
    others = sorted({h.code for h in hits} - {first.code})
    if others:
        notes.append(f"several codes present ({', '.join([first.code, *others])}); the first one is taken")
    return RuleDecision(first.code, "refusal code in output" + (": " + "; ".join(notes) if notes else ""))


def classify(output: Optional[str], truncated: bool = False, error: Optional[str] = None) -> Optional[RuleDecision]:
    """Layer-1 decision for one evaluated output, or None when the rule cannot settle it."""
    if error:
        return RuleDecision(UNSCORED, f"evaluation call failed: {error}")
    if truncated:
        return RuleDecision(TRUNCATED, "output truncated (empty or cut off)")
    if output is None or not str(output).strip():
        return RuleDecision(TRUNCATED, "empty output")
    return classify_codes(str(output))
