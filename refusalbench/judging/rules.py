"""Layer 1 of judging: the deterministic decision on a raw output, before any judge.

The evaluated model is told to reply with only a code when it declines, so an output that *is* a
code settles the item without a judge call (the original pipeline paid a judge call for every
output). A code decides only when

- the output is one code alone once markup, whitespace and punctuation are stripped (``**REFUSE_OTHER**.``,
  a fenced block, an echoed ``ANSWER:`` cue, markdown-escaped ``\\_``, hyphens, any case), or
- the output begins with one code followed by an explanation that names no other code and does not
  negate it ("REFUSE_INFO_MISSING_IN_CONTEXT. The passage does not give the date.").

Everything else goes to the judge: codes mentioned inside an answer, negated codes ("this is not
REFUSE_AMBIGUOUS_QUERY"), lists of several codes, unlisted codes (``REFUSE_NONE``) and tokens that
continue a code (``REFUSE_CONTRADICTORY_QUERY`` is not ``REFUSE_CONTRADICTORY``). Codes are read by
the shared normaliser in `refusalbench.judging.codes`.

Precedence: a failed call → ``unscored``; an empty output → ``truncated``; a leading code (also in a
truncated output, when the code is complete: the long form, or followed by more text); a truncated
output otherwise → ``truncated``; else no decision (None).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from refusalbench.judging.codes import code_name, code_tokens, leading_token, normalise_token, strip_wrapping
from refusalbench.taxonomy import REFUSAL_CODES, TRUNCATED, UNSCORED

# An explanation that opens by denying the code it follows.
_NEGATION = re.compile(
    r"^[\s*`'\")\]]*(?:[-:,]\s*)?(?:is\s+not|isn't|is\s+n't|does\s+not|doesn't|do\s+not|not\s+applicable|"
    r"n/a\b|would\s+not|wouldn't|cannot|can't|should\s+not|shouldn't|no\b|not\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class RuleDecision:
    label: str  # a refusal code, "truncated" or "unscored"
    reason: str


def leading_code(text: str, truncated: bool = False) -> Optional[RuleDecision]:
    """The code `text` is or begins with (see the module docstring), or None."""
    token, rest = leading_token(text or "")
    code = code_name(token) if token else None
    if code is None:
        return None
    tail = strip_wrapping(rest)
    if truncated and not tail and normalise_token(token) not in REFUSAL_CODES:
        return None  # a short name at the cut may be the start of a longer code
    others = sorted(set(code_tokens(rest)) - {code})
    if others or _NEGATION.match(rest):
        return None
    note = "" if normalise_token(token) == code else f" ({token!r} read as {code})"
    if not tail:
        return RuleDecision(code, "output is a refusal code" + note)
    cut = " (output truncated after the code)" if truncated else ""
    return RuleDecision(code, "output begins with a refusal code followed by an explanation" + note + cut)


def classify(output: Optional[str], truncated: bool = False, error: Optional[str] = None) -> Optional[RuleDecision]:
    """Layer-1 decision for one evaluated output, or None when the rule cannot settle it."""
    if error:
        return RuleDecision(UNSCORED, f"evaluation call failed: {error}")
    if output is None or not str(output).strip():
        return RuleDecision(TRUNCATED, "empty output")
    decision = leading_code(str(output), truncated)
    if decision is not None:
        return decision
    if truncated:
        return RuleDecision(TRUNCATED, "output truncated (cut off at the length limit)")
    return None
