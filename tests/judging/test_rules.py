"""Layer-1 rule: a code decides only when the output is one, or begins with one and explains."""

from __future__ import annotations

import pytest

from refusalbench.judging.codes import bare_label, code_name, code_tokens
from refusalbench.judging.rules import classify
from refusalbench.taxonomy import ANSWER_ATTEMPT, REFUSAL_CODES, TRUNCATED, UNSCORED

DECIDED = [
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
    ("**ANSWER:** REFUSE_OTHER", "REFUSE_OTHER"),
    ("_REFUSE_OTHER_", "REFUSE_OTHER"),
    (r"REFUSE\_INFO\_MISSING\_IN\_CONTEXT", "REFUSE_INFO_MISSING_IN_CONTEXT"),
    ("REFUSE-AMBIGUOUS-QUERY", "REFUSE_AMBIGUOUS_QUERY"),
    ("  \n REFUSE_OTHER \n", "REFUSE_OTHER"),
    ("REFUSE_MISSING", "REFUSE_INFO_MISSING_IN_CONTEXT"),  # the paper's short form
    ("REFUSE_CONTRADICTORY", "REFUSE_CONTRADICTORY_CONTEXT"),
    ("REFUSE_INFO_MISSING_IN_CONTEXT\n\nThe passage never gives the year.", "REFUSE_INFO_MISSING_IN_CONTEXT"),
    ("REFUSE_FALSE_PREMISE_IN_QUERY - the context says he never won it.", "REFUSE_FALSE_PREMISE_IN_QUERY"),
    ("REFUSE_OTHER REFUSE_OTHER", "REFUSE_OTHER"),  # the same code twice
]

TO_JUDGE = [
    # codes mentioned inside an answer or after a preamble
    ("After reading the passage, the date is not given.\n\nREFUSE_INFO_MISSING_IN_CONTEXT", None),
    ("Based on the context: REFUSE_OTHER", None),
    ("The answer is 1912; no REFUSE_AMBIGUOUS_QUERY is needed.", None),
    # negated codes
    ("REFUSE_AMBIGUOUS_QUERY does not apply: the answer is Paris.", None),
    ("REFUSE_OTHER is not appropriate here. The answer is 4.", None),
    # parroted lists and several codes
    ("REFUSE_AMBIGUOUS_QUERY, REFUSE_CONTRADICTORY_CONTEXT, REFUSE_INFO_MISSING_IN_CONTEXT", None),
    ("REFUSE_AMBIGUOUS_QUERY or REFUSE_OTHER", None),
    ("REFUSE_OTHER ... actually REFUSE_FALSE_PREMISE_IN_QUERY", None),
    # invented codes and codes continued by "_"
    ("REFUSE_NONE", None),
    ("REFUSE_UNSAFE_REQUEST", None),
    ("REFUSE_CONTRADICTORY_QUERY", None),
    ("REFUSE_INFO_MISSING_IN_CONTEXT_AND_QUERY", None),
    # prose
    ("I refuse to believe the context is wrong; the answer is 1912.", None),
    ("The answer is Paris.", None),
    ("I must refuse: the passage does not say.", None),
    ("Refused entry to the country in 1950.", None),
    ("refuse other offers", None),
    ("REFUSED_ALL", None),
    ("NOREFUSE_OTHER", None),
    ("The refusal code REFUSEOTHER", None),
]


@pytest.mark.parametrize("output,expected", DECIDED + TO_JUDGE)
def test_rule_cases(output, expected):
    decision = classify(output)
    if expected is None:
        assert decision is None, decision
    else:
        assert decision is not None and decision.label == expected


@pytest.mark.parametrize("code", REFUSAL_CODES)
def test_every_code_matches_itself(code):
    assert classify(code).label == code
    assert classify(code.lower()).label == code


def test_reason_says_bare_or_explained():
    assert classify("**REFUSE_OTHER**.").reason == "output is a refusal code"
    assert "followed by an explanation" in classify("REFUSE_OTHER: nothing fits").reason
    assert "read as REFUSE_INFO_MISSING_IN_CONTEXT" in classify("REFUSE_MISSING").reason


def test_precedence_error_then_empty_then_code_then_truncated():
    assert classify("REFUSE_OTHER", error="APIError: boom").label == UNSCORED
    assert classify("   ").label == TRUNCATED
    assert classify("The answer is", truncated=True).label == TRUNCATED
    assert classify("The answer is 4.", truncated=False) is None


def test_truncated_output_that_begins_with_a_complete_code_gets_it():
    d = classify("REFUSE_INFO_MISSING_IN_CONTEXT\nThe passage does not mention the ye", truncated=True)
    assert d.label == "REFUSE_INFO_MISSING_IN_CONTEXT" and "truncated" in d.reason
    assert classify("REFUSE_INFO_MISSING_IN_CONTEXT", truncated=True).label == "REFUSE_INFO_MISSING_IN_CONTEXT"
    # cut inside the code, or at a short name that may be the start of a longer code
    assert classify("REFUSE_INFO_MISS", truncated=True).label == TRUNCATED
    assert classify("REFUSE_INFO_MISSING", truncated=True).label == TRUNCATED


def test_shared_normaliser():
    assert code_name("refuse-info-missing") == "REFUSE_INFO_MISSING_IN_CONTEXT"
    assert code_name("REFUSE_NONE") is None
    assert bare_label("  **Answer_Attempt** ") == ANSWER_ATTEMPT
    assert bare_label("`refuse other`.") == "REFUSE_OTHER"
    assert bare_label("REFUSE_OTHER because") is None
    assert code_tokens("no REFUSE_NONE here, nor refuse_other; I refuse to") == ["REFUSE_NONE", "REFUSE_OTHER"]
