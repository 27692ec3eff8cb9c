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


def _any(*alternatives: str) -> str:
    """One non-capturing group matching any of `alternatives`."""
    return "(?:" + "|".join(alternatives) + ")"


_SOURCE = (
    r"(?:the\s+)?(?:given\s+|provided\s+|above\s+)?"
    r"(?:passage|context|text|document|paragraph|article|source|information|data)s?"
)
_SAY = (
    _any(
        "mention",
        "say",
        "state",
        "specify",
        "provide",
        "contain",
        "include",
        "give",
        "indicate",
        "address",
        "tell",
        "discuss",
        "describe",
        "list",
        "reveal",
        "offer",
        "name",
        "identify",
        "clarify",
        "answer",
        "support",
        "show",
        "cover",
    )
    + "s?"
)
_NOT = _any(
    r"does\s+not", "doesn't", r"do\s+not", "don't", r"did\s+not", "didn't", "never", r"fails?\s+to", r"is\s+silent"
)
_CANNOT = _any(
    "cannot",
    r"can\s*not",
    "can't",
    r"could\s+not",
    "couldn't",
    r"am\s+unable\s+to",
    r"'m\s+unable\s+to",
    r"am\s+not\s+able\s+to",
    r"unable\s+to",
    r"not\s+able\s+to",
    r"impossible\s+to",
    r"not\s+possible\s+to",
)
_VERB_KNOW = _any(
    "determine",
    "answer",
    "find",
    "tell",
    "say",
    "provide",
    "confirm",
    "identify",
    "verify",
    "know",
    "give",
    "help",
    "locate",
    "infer",
    "deduce",
    "conclude",
    "assist",
)
_ABSENT = _any(
    "mentioned",
    "specified",
    "stated",
    "provided",
    "given",
    "available",
    "included",
    "found",
    "addressed",
    "indicated",
    "described",
    "known",
)

_CUES = [
    # the source is silent
    rf"\b{_SOURCE}\s+(?:\w+\s+){{0,3}}?{_NOT}\s+(?:\w+\s+){{0,2}}?{_SAY}\b",
    rf"\b{_SOURCE}\s+(?:provides?|contains?|gives?|has|includes?|offers?|says?)\s+(?:no|nothing)\b",
    r"\b(?:no|not\s+enough|insufficient|no\s+specific|no\s+relevant)\s+"
    r"(?:information|details?|data|mention|indication|evidence)\b",
    rf"\bnot\s+(?:\w+\s+)?{_ABSENT}\b",
    r"\b(?:says|mentions)\s+nothing\s+(?:about|on|of)\b|\bnever\s+(?:mentions|states|says|specifies|gives|names)\b",
    r"(?:\bnot|n't)\s+enough\s+(?:information|details?|data|context)\b",
    r"\bunknown\s+(?:from|based\s+on|according\s+to|in)\b",
    r"\bnothing\s+in\s+the\s+(?:passage|context|text|document)\b|\b(?:is|remains)\s+silent\s+(?:on|about)\b",
    # the model cannot answer
    rf"\b(?:i|we)\s*{_CANNOT}\s+(?:\w+\s+){{0,2}}?{_VERB_KNOW}\b",
    r"\b(?:i|we)\s+(?:do\s+not|don't)\s+(?:know|have\s+(?:enough|the|any|sufficient)\s+information)\b",
    rf"\b{_CANNOT}\s+(?:be\s+)?(?:determine|answer|tell|say|know|infer|deduce|establish)(?:ed)?\b",
    r"\b(?:cannot|can't|can\s+not)\s+be\s+"
    r"(?:answered|determined|inferred|deduced|established|known|verified|derived|calculated|computed)\b",
    r"^\s*(?:unable|not\s+able)\s+to\b|^\s*n/?a\.?\s*$|^\s*refuse\s*[:\-]",
    r"\b(?:it\s+is|it's)\s+(?:not\s+(?:possible|clear)|unclear|impossible)\b",
    r"\bunanswerable\b|\bno\s+answer\s+can\b|\bthere\s+is\s+no\s+(?:way|answer)\b",
    r"^\s*(?:i'm\s+sorry|sorry|i\s+apologi[sz]e)\b",
    r"\bbeyond\s+what\s+the\s+(?:context|passage|text)\b",
    # ambiguity
    r"\bambiguous\s+(?:question|query)\b|\bwhich\s+(?:\w+\s+){0,2}do\s+you\s+mean\b|\bcould\s+refer\s+to\b",
    r"\b(?:question|query)\s+(?:is|seems|appears)\s+(?:to\s+be\s+)?"
    r"(?:ambiguous|unclear|vague|subjective|based\s+on\s+(?:a\s+)?(?:false|incorrect|wrong))\b",
    r"\b(?:multiple|several|two|many)\s+(?:possible\s+)?"
    r"(?:interpretations|meanings|readings|people|persons|entities|candidates)\b"
    r".{0,80}\b(?:cannot|can't|unclear|not\s+clear|ambiguous)",
    # a false premise
    r"\b(?:question|query)(?:'s)?\s+(?:assumes|presupposes|presumes)\b",
    r"\b(?:question|query)\s+(?:says|states|claims|suggests)\b.{0,100}\bbut\s+the\s+(?:passage|context|text)\s+"
    r"(?:says|states|shows|indicates|reports)\b",
    r"\b(?:premise|assumption)\s+(?:\w+\s+)?(?:is|was)\s+(?:wrong|false|incorrect|mistaken|not\s+supported)\b",
    r"\b(?:question|query|premise)\s+(?:\w+\s+)?(?:incorrectly|wrongly|falsely)\s+assumes?\b",
    r"\b(?:false|incorrect|wrong|mistaken|invalid)\s+(?:premise|assumption)\b",
    r"\bpremise\s+of\s+the\s+(?:question|query)\s+is\s+(?:false|incorrect|wrong|not)\b",
    # a contradiction
    r"\b(?:contradicts?\s+itself|contradictory|conflicting|inconsistent)\s+(?:\w+\s+)?"
    r"(?:information|dates?|figures?|statements?|accounts?|data|details?|numbers?)\b",
    r"\b(?:passage|context|text|sentences?|sources?)\s+(?:\w+\s+){0,3}?(?:contradict|disagree|conflict)",
    r"\b(?:two|several)\s+different\s+(?:\w+\s+){0,2}?(?:dates|years|figures|values|numbers|answers|names|accounts)\b",
    r"\b(?:is|are|seems?)\s+(?:inconsistent|contradictory|conflicting)\b|\bin\s+one\s+place\b.{0,60}\bin\s+another\b",
    r"\b(?:these|the|two)\s+(?:statements|sentences|accounts|claims|passages|sources)\s+"
    r"(?:conflict|contradict|disagree)",
    # the wrong level of detail
    r"\b(?:gives|provides|mentions|states)\s+only\s+(?:the\s+)?\w+",
    r"\b(?:only|just)\s+(?:gives|provides|mentions|states|lists)\s+(?:the\s+)?(?:[\w,]+\s+){0,3}?"
    r"not\s+(?:the\s+)?(?:exact|specific|precise)",
    r"\btoo\s+(?:general|specific|broad|vague|coarse|fine)\b|\blevel\s+of\s+detail\b",
    r"\bonly\s+(?:lists|gives|provides|mentions|states|reports)\b.{0,80}\bnot\s+(?:the\s+)?"
    r"(?:figure|exact|specific|precise|number|date|year|amount)",
    # not a matter of fact
    r"\b(?:is|are)\s+(?:a\s+matter\s+of\s+)?(?:subjective|opinion|personal\s+preference)\b",
    r"\basks?\s+for\s+(?:an?\s+)?(?:\w+\s+)?(?:opinion|prediction|judg(?:e)?ment)\b",
    r"\b(?:can't|cannot|can\s+not|impossible\s+to)\s+predict\b|\bhypothetical\s+question\b",
    r"\bvalue\s+judg(?:e)?ment\b|\b(?:cannot|can't)\s+(?:settle|decide|resolve)\b",
]
_CUE = re.compile("|".join(f"(?:{c})" for c in _CUES), re.IGNORECASE)

_SOURCE_WORD = r"(?:passage|context|text|document)"
_UNABLE = (
    r"(?:cannot|can't|unable\s+to|not\s+possible\s+to)\s+(?:\w+\s+){0,3}?"
    r"(?:determine|tell|identify|answer|find|say)\b"
)
# Reason words, most specific first; the first that matches picks the code.
_REASONS = [
    (
        PREMISE,
        _any(
            "premise",
            "assum",
            "presuppos",
            r"incorrectly\s+states",
            r"false\s+(?:claim|statement)",
            r"(?:question|query)\s+(?:says|states|claims|suggests)\b.{0,100}"
            r"\bbut\s+the\s+(?:passage|context|text)",
        ),
    ),
    (
        AMBIGUOUS,
        _any(
            "ambigu",
            r"unclear\s+which",
            r"which\s+one",
            r"could\s+(?:refer\s+to|mean)",
            r"(?:can't|cannot)\s+tell\s+which",
            r"do\s+you\s+mean",
            r"multiple\s+(?:possible\s+)?(?:interpretations|meanings|readings)",
            r"several\s+(?:people|persons|entities)",
            r"more\s+than\s+one\s+(?:person|meaning|interpretation)",
            r"which\s+(?:one\s+)?is\s+meant",
        ),
    ),
    (
        CONTRADICTORY,
        _any(
            "contradict",
            "conflict",
            "inconsisten",
            "disagree",
            r"two\s+different",
            r"in\s+one\s+place\b.{0,60}\bin\s+another",
        ),
    ),
    (
        GRANULARITY,
        _any(
            "granular",
            r"too\s+(?:general|specific|broad|vague|coarse)",
            r"level\s+of\s+detail",
            r"exact\s+(?:year|date|number|figure|day)",
            "precise",
            r"specific\s+day",
            r"(?:only\s+(?:gives|provides|mentions|states)|(?:gives|provides|mentions|states)\s+only)"
            r"\s+the\s+(?:decade|century|year|country|region|total)",
            r"only\s+(?:lists|gives|provides|mentions|states|reports)\b.{0,80}\bnot\s+(?:the\s+)?"
            r"(?:figure|exact|specific|precise|number|date|year|amount)",
        ),
    ),
    (
        NONFACTUAL,
        _any(
            "opinion",
            "subjective",
            r"value\s+judg",
            "predict",
            "future",
            "hypothetical",
            "speculat",
            r"personal\s+preference",
            "moral",
            r"matter\s+of\s+taste",
        ),
    ),
    (
        MISSING,
        _any(
            rf"{_UNABLE}.*\b{_SOURCE_WORD}",
            rf"{_SOURCE_WORD}\b.*{_UNABLE}",
            r"enough\s+information",
            rf"{_SOURCE_WORD}\b.*(?:cannot|can't)\s+be\s+(?:established|determined|found|answered)",
            rf"nothing\s+in\s+the\s+{_SOURCE_WORD}",
            r"says\s+nothing",
            r"never\s+(?:say|mention|state|give|specifie|provide)s?",
            r"not\s+(?:\w+\s+)?(?:mentioned|specified|stated|provided|given|available|included|found)",
            r"does\s+not\s+(?:\w+\s+)?(?:mention|say|state|specify|provide|contain|include|give)",
            "doesn't",
            r"no\s+(?:specific\s+)?(?:information|details?|data|mention)",
            r"not\s+enough",
            "insufficient",
            "missing",
            r"(?:could|can)\s*(?:not|n't)\s+find",
            "silent",
            r"unknown\s+from",
        ),
    ),
]
_REASON = [(code, re.compile(pattern, re.IGNORECASE)) for code, pattern in _REASONS]

# An answer statement: the output gives an answer despite a cue in another clause.
_ANSWER_AFTER = re.compile(
    _any(
        r"\bthe\s+answer\s+is\s+(?!not\b|unknown|unclear|uncertain|n't)",
        r"(?:^|\n)\s*answer:\s*\S",
        r"\bbut\s+(?:his|her|its|their)\s+(?:\w+\s+){0,3}?(?:is|was|are|were)\b",
        r"however,?\s+(?:it|the\s+\w+)\s+(?:is|was|were)\s+\S",
        r"\bhowever,?\s+[^.?!]*\d",
    ),
    re.IGNORECASE,
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
