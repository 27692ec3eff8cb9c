"""Offline detection of refusals written in plain language, for ``judge=deterministic``.

The layer-1 rule settles outputs that are (or begin with) a refusal code. The rest are answers or
refusals in words ("The passage does not say when…", "I cannot determine…"). Without a judge model,
`detect_refusal` reads them with two kinds of patterns:

1. a *refusal cue*: the output says the context lacks, contradicts or cannot settle the answer, or
   that the model cannot answer; or it names one refusal code (not negated, no other code) — e.g.
   an explanation that ends with the code;
2. *reason words*, which pick the best-fitting code: a wrong assumption → FALSE_PREMISE_IN_QUERY,
   contradiction → CONTRADICTORY_CONTEXT, several readings → AMBIGUOUS_QUERY, the wrong level of detail →
   GRANULARITY_MISMATCH, opinion/prediction → NONFACTUAL_QUERY, absence → INFO_MISSING_IN_CONTEXT;
   none of them → REFUSE_OTHER.

An output that states an answer after the cue ("…does not say X, but Y is 1912") is still an
answer attempt when it contains an answer statement (``the answer is …``, ``…was born in 1901``)
outside the cue — see `_ANSWER_AFTER`. Precision and recall on a labelled fixture of real outputs
are measured by ``tests/judging/test_refusal_detector.py`` and stated in the README.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from refusalbench.judging.codes import code_tokens
from refusalbench.taxonomy import CLASS_TO_CODE, REFUSAL_CODES, REFUSE_OTHER

AMBIGUOUS, CONTRADICTORY, MISSING, PREMISE, GRANULARITY, NONFACTUAL = CLASS_TO_CODE.values()

_SOURCE = r"(?:the\s+)?(?:given\s+|provided\s+|above\s+)?(?:passage|context|text|document|paragraph|article|source|information|data)s?"
_SAY = (r"(?:mention|say|state|specify|provide|contain|include|give|indicate|address|tell|discuss|describe|"
        r"list|reveal|offer|name|identify|clarify|answer|support|show|cover)s?")
_NOT = r"(?:does\s+not|doesn't|do\s+not|don't|did\s+not|didn't|never|fails?\s+to|is\s+silent)"
_CANNOT = r"(?:cannot|can\s*not|can't|could\s+not|couldn't|am\s+unable\s+to|'m\s+unable\s+to|am\s+not\s+able\s+to|unable\s+to|not\s+able\s+to|impossible\s+to|not\s+possible\s+to)"

_CUES = [
    rf"\b{_SOURCE}\s+(?:\w+\s+){{0,3}}?{_NOT}\s+(?:\w+\s+){{0,2}}?{_SAY}\b",
    rf"\b{_SOURCE}\s+(?:provides?|contains?|gives?|has|includes?|offers?|says?)\s+(?:no|nothing)\b",
    rf"\b(?:no|not\s+enough|insufficient|no\s+specific|no\s+relevant)\s+(?:information|details?|data|mention|indication|evidence)\b",
    rf"\bnot\s+(?:\w+\s+)?(?:mentioned|specified|stated|provided|given|available|included|found|addressed|indicated|described|known)\b",
    rf"\b(?:i|we)\s*{_CANNOT}\s+(?:\w+\s+){{0,2}}?(?:determine|answer|find|tell|say|provide|confirm|identify|verify|know|give|help|locate|infer|deduce|conclude|assist)\b",
    rf"\b(?:i|we)\s+(?:do\s+not|don't)\s+(?:know|have\s+(?:enough|the|any|sufficient)\s+information)\b",
    rf"\b{_CANNOT}\s+(?:be\s+)?(?:determine|answer|tell|say|know|infer|deduce|establish)(?:ed)?\b",
    r"\b(?:cannot|can't|can\s+not)\s+be\s+(?:answered|determined|inferred|deduced|established|known|verified|derived|calculated|computed)\b",
    r"\b(?:says|mentions)\s+nothing\s+(?:about|on|of)\b|\bnever\s+(?:mentions|states|says|specifies|gives|names)\b",
    r"^\s*(?:unable|not\s+able)\s+to\b|^\s*n/?a\.?\s*$|^\s*refuse\s*[:\-]",
    r"\bambiguous\s+(?:question|query)\b|\bwhich\s+(?:\w+\s+){0,2}do\s+you\s+mean\b",
    r"\b(?:question|query)(?:'s)?\s+(?:assumes|presupposes|presumes)\b",
    r"\b(?:premise|assumption)\s+(?:\w+\s+)?(?:is|was)\s+(?:wrong|false|incorrect|mistaken|not\s+supported)\b",
    r"\b(?:gives|provides|mentions|states)\s+only\s+(?:the\s+)?\w+",
    r"\bbeyond\s+what\s+the\s+(?:context|passage|text)\b",
    r"(?:\bnot|n't)\s+enough\s+(?:information|details?|data|context)\b",
    r"\b(?:two|several)\s+different\s+(?:\w+\s+){0,2}?(?:dates|years|figures|values|numbers|answers|names|accounts)\b",
    r"\b(?:these|the|two)\s+(?:statements|sentences|accounts|claims|passages|sources)\s+(?:conflict|contradict|disagree)",
    r"\b(?:it\s+is|it's)\s+(?:not\s+(?:possible|clear)|unclear|impossible)\b",
    r"\bunanswerable\b|\bno\s+answer\s+can\b|\bthere\s+is\s+no\s+(?:way|answer)\b",
    r"\bunknown\s+(?:from|based\s+on|according\s+to|in)\b",
    r"^\s*(?:i'm\s+sorry|sorry|i\s+apologi[sz]e)\b",
    r"\b(?:question|query)\s+(?:is|seems|appears)\s+(?:to\s+be\s+)?(?:ambiguous|unclear|vague|subjective|based\s+on\s+(?:a\s+)?(?:false|incorrect|wrong))\b",
    r"\b(?:question|query|premise)\s+(?:\w+\s+)?(?:incorrectly|wrongly|falsely)\s+assumes?\b",
    r"\b(?:false|incorrect|wrong|mistaken|invalid)\s+(?:premise|assumption)\b",
    r"\bpremise\s+of\s+the\s+(?:question|query)\s+is\s+(?:false|incorrect|wrong|not)\b",
    r"\b(?:contradicts?\s+itself|contradictory|conflicting|inconsistent)\s+(?:\w+\s+)?(?:information|dates?|figures?|statements?|accounts?|data|details?|numbers?)\b",
    r"\b(?:passage|context|text|sentences?|sources?)\s+(?:\w+\s+){0,3}?(?:contradict|disagree|conflict)",
    r"\b(?:is|are)\s+(?:a\s+matter\s+of\s+)?(?:subjective|opinion|personal\s+preference)\b|\basks?\s+for\s+(?:an?\s+)?(?:\w+\s+)?(?:opinion|prediction|judg(?:e)?ment)\b",
    r"\b(?:can't|cannot|can\s+not|impossible\s+to)\s+predict\b|\bhypothetical\s+question\b",
    r"\b(?:multiple|several|two|many)\s+(?:possible\s+)?(?:interpretations|meanings|readings|people|persons|entities|candidates)\b.{0,80}\b(?:cannot|can't|unclear|not\s+clear|ambiguous)",
    r"\bcould\s+refer\s+to\b",
    r"\b(?:only|just)\s+(?:gives|provides|mentions|states|lists)\s+(?:the\s+)?(?:[\w,]+\s+){0,3}?not\s+(?:the\s+)?(?:exact|specific|precise)",
    r"\btoo\s+(?:general|specific|broad|vague|coarse|fine)\b",
    r"\blevel\s+of\s+detail\b",
]
_CUE = re.compile("|".join(f"(?:{c})" for c in _CUES), re.IGNORECASE)

# Reason words, most specific first; the first that matches picks the code.
_REASONS = [
    (PREMISE, r"premise|assum|presuppos|incorrectly\s+states|false\s+(?:claim|statement)"),
    (CONTRADICTORY, r"contradict|conflict|inconsisten|disagree|two\s+different"),
    (AMBIGUOUS, r"ambigu|unclear\s+which|which\s+one|could\s+(?:refer\s+to|mean)|(?:can't|cannot)\s+tell\s+which|do\s+you\s+mean|multiple\s+(?:possible\s+)?(?:interpretations|meanings|readings)|several\s+(?:people|persons|entities)|more\s+than\s+one\s+(?:person|meaning|interpretation)"),
    (GRANULARITY, r"granular|too\s+(?:general|specific|broad|vague|coarse)|level\s+of\s+detail|exact\s+(?:year|date|number|figure|day)|(?:only\s+(?:gives|provides|mentions|states)|(?:gives|provides|mentions|states)\s+only)\s+the\s+(?:decade|century|year|country|region|total)|precise|specific\s+day"),
    (NONFACTUAL, r"opinion|subjective|predict|future|hypothetical|speculat|personal\s+preference|moral|matter\s+of\s+taste"),
    (MISSING, r"(?:cannot|can't|unable\s+to|not\s+possible\s+to)\s+(?:\w+\s+){0,3}?(?:determine|tell|identify|answer|find|say)\b.*\b(?:passage|context|text|document)|(?:passage|context|text|document)\b.*(?:cannot|can't|unable\s+to|not\s+possible\s+to)\s+(?:\w+\s+){0,3}?(?:determine|tell|identify|answer|find|say)\b|enough\s+information|says\s+nothing|never\s+(?:say|mention|state|give|specifie|provide)s?|not\s+(?:\w+\s+)?(?:mentioned|specified|stated|provided|given|available|included|found)|does\s+not\s+(?:\w+\s+)?(?:mention|say|state|specify|provide|contain|include|give)|doesn't|no\s+(?:specific\s+)?(?:information|details?|data|mention)|not\s+enough|insufficient|missing|says\s+nothing|(?:could|can)\s*(?:not|n't)\s+find|silent|unknown\s+from"),
]
_REASON = [(code, re.compile(pattern, re.IGNORECASE)) for code, pattern in _REASONS]

# An answer statement: the output gives an answer despite a cue in another clause.
_ANSWER_AFTER = re.compile(
    r"(?:\bthe\s+answer\s+is\s+(?!not\b|unknown|unclear|uncertain|n't)|(?:^|\n)\s*answer:\s*\S|\bbut\s+(?:his|her|its|their)\s+(?:\w+\s+){0,3}?(?:is|was|are|were)\b|however,?\s+(?:it|the\s+\w+)\s+(?:is|was|were)\s+\S)", re.IGNORECASE
)
_NEGATED_CODE = re.compile(
    r"\b(?:not|no|isn't|without|instead\s+of|rather\s+than)\s+(?:an?\s+|the\s+)?[`*\"']*REFUSE"
    r"|REFUSE[\w\\-]*[`*\"']*\s+(?:is\s+not|isn't|does\s+not|doesn't|not\b|would\s+not|wouldn't)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Detection:
    code: str  # the refusal code that fits best
    cue: str  # the text that marked the output as a refusal


def _named_code(text: str) -> Optional[str]:
    codes = [c for c in code_tokens(text) if c in REFUSAL_CODES]
    if len(set(codes)) != 1 or _NEGATED_CODE.search(text):
        return None
    return codes[0]


def reason_code(text: str) -> str:
    """The code whose reason words the text uses first in the priority order, else REFUSE_OTHER."""
    for code, pattern in _REASON:
        if pattern.search(text):
            return code
    return REFUSE_OTHER


def detect_refusal(text: Optional[str]) -> Optional[Detection]:
    """A Detection when `text` refuses in plain language (or names exactly one code), else None."""
    if not text or not text.strip():
        return None
    named = _named_code(text)
    if named is not None:
        return Detection(named, f"names the code {named}")
    cue = _CUE.search(text)
    if cue is None:
        return None
    if _ANSWER_AFTER.search(text):
        return None
    return Detection(reason_code(text), cue.group(0))
