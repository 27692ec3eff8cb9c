"""Layer-1 rule: refusal codes found in raw outputs, tolerant of case, markup and preambles."""

from __future__ import annotations

import pytest

from refusalbench.judging.rules import classify, classify_codes, find_codes
from refusalbench.taxonomy import REFUSAL_CODES, TRUNCATED, UNSCORED

CASES = [
    # (raw output, expected label or None when the rule cannot settle it)
    ("REFUSE_INFO_MISSING_IN_CONTEXT", "REFUSE_INFO_MISSING_IN_CONTEXT"),
    ("Refuse_INFO_MISSING_IN_CONTEXT", "REFUSE_INFO_MISSING_IN_CONTEXT"),
    ("refuse_info_missing_in_context", "REFUSE_INFO_MISSING_IN_CONTEXT"),
    ("**REFUSE_OTHER**.", "REFUSE_OTHER"),
    ("`REFUSE_AMBIGUOUS_QUERY`", "REFUSE_AMBIGUOUS_QUERY"),
    ("```\nREFUSE_CONTRADICTORY_CONTEXT\n```", "REFUSE_CONTRADICTORY_CONTEXT"),
    ("[REFUSE_FALSE_PREMISE_IN_QUERY]", "REFUSE_FALSE_PREMISE_IN_QUERY"),
    ('"REFUSE_GRANULARITY_MISMATCH"', "REFUSE_GRANULARITY_MISMATCH"),
    ("REFUSE_NONFACTUAL_QUERY.", "REFUSE_NONFACTUAL_QUERY"),
    ("Answer: REFUSE_NONFACTUAL_QUERY", "REFUSE_NONFACTUAL_QUERY"),
    ("After reading the passage, the date is not given.\n\nREFUSE_INFO_MISSING_IN_CONTEXT",
     "REFUSE_INFO_MISSING_IN_CONTEXT"),
    ("_REFUSE_OTHER_", "REFUSE_OTHER"),
    (r"REFUSE\_INFO\_MISSING\_IN\_CONTEXT", "REFUSE_INFO_MISSING_IN_CONTEXT"),
    ("REFUSE-AMBIGUOUS-QUERY", "REFUSE_AMBIGUOUS_QUERY"),
    ("  \n REFUSE_OTHER \n", "REFUSE_OTHER"),
    ("REFUSE_MISSING", "REFUSE_INFO_MISSING_IN_CONTEXT"),  # the paper's short form
    ("REFUSE_CONTRADICTORY", "REFUSE_CONTRADICTORY_CONTEXT"),
    ("REFUSE_UNSAFE_REQUEST", "REFUSE_OTHER"),  # an unlisted code-like token
    ("REFUSE_AMBIGUOUS_QUERY or REFUSE_OTHER", "REFUSE_AMBIGUOUS_QUERY"),  # first one wins
    ("REFUSE_OTHER ... actually REFUSE_FALSE_PREMISE_IN_QUERY", "REFUSE_OTHER"),
    # negatives: no code, the rule does not settle them
    ("I refuse to believe the context is wrong; the answer is 1912.", None),
    ("The answer is Paris.", None),
    ("I must refuse: the passage does not say.", None),
    ("Refused entry to the country in 1950.", None),
    ("refuse other offers", None),
    ("REFUSED_ALL", None),
    ("NOREFUSE_OTHER", None),
    ("The refusal code REFUSEOTHER", None),
]


@pytest.mark.parametrize("output,expected", CASES)
def test_rule_cases(output, expected):
    decision = classify(output)
    if expected is None:
        assert decision is None
    else:
        assert decision is not None and decision.label == expected


@pytest.mark.parametrize("code", REFUSAL_CODES)
def test_every_code_matches_itself(code):
    assert classify(code).label == code
    assert classify(code.lower()).label == code


def test_several_codes_noted():
    d = classify_codes("REFUSE_AMBIGUOUS_QUERY, or maybe REFUSE_OTHER")
    assert d.label == "REFUSE_AMBIGUOUS_QUERY"
    assert "several codes" in d.reason
    same = classify_codes("REFUSE_OTHER REFUSE_OTHER")
    assert "several codes" not in same.reason


def test_preamble_noted():
    d = classify_codes("Based on the context: REFUSE_OTHER")
    assert "longer output" in d.reason
    assert "longer output" not in classify_codes("**REFUSE_OTHER**.").reason


def test_longest_code_wins_over_short_form():
    hits = find_codes("REFUSE_INFO_MISSING_IN_CONTEXT")
    assert [h.code for h in hits] == ["REFUSE_INFO_MISSING_IN_CONTEXT"]


def test_precedence_error_truncated_before_codes():
    assert classify("REFUSE_OTHER", error="APIError: boom").label == UNSCORED
    assert "APIError" in classify("x", error="APIError: boom").reason
    assert classify("REFUSE_OTHER", truncated=True).label == TRUNCATED
    assert classify("").label == TRUNCATED
    assert classify(None).label == TRUNCATED
    assert classify("   ").label == TRUNCATED
