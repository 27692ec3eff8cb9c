"""Lenient parsing of the LLM judge's JSON verdict."""

from __future__ import annotations

import pytest

from refusalbench.judging.llm_judge import VerdictError, extract_json_object, parse_verdict


def test_plain_fenced_and_preamble():
    plain = '{"classification": "answer_attempt", "quality_score": 4, "explanation": "ok"}'
    assert parse_verdict(plain, multi_passage=False).quality_score == 4.0
    fenced = "```json\n" + plain + "\n```"
    assert parse_verdict(fenced, multi_passage=False).classification == "answer_attempt"
    pre = "Here is my assessment:\n" + plain + "\nThanks."
    assert parse_verdict(pre, multi_passage=False).explanation == "ok"


def test_keys_and_values_tolerated():
    v = parse_verdict('{"Classification": "**REFUSE_OTHER**", "Quality Score": "N/A"}', multi_passage=False)
    assert v.classification == "REFUSE_OTHER" and v.quality_score is None
    v = parse_verdict('{"CLASSIFICATION": "Answer_Attempt", "score": "4/5"}', multi_passage=False)
    assert v.quality_score == 4.0


def test_garage_flags():
    v = parse_verdict(
        '{"classification": "answer_attempt", "eligibility": 1, "factuality_all": "0",'
        ' "factuality_relevant": true, "explanation": "e"}',
        multi_passage=True,
    )
    assert (v.eligibility, v.factuality_all, v.factuality_relevant) == (1, 0, 1)
    v = parse_verdict('{"classification": "REFUSE_AMBIGUOUS_QUERY", "eligibility": "N/A"}', multi_passage=True)
    assert v.eligibility is None


@pytest.mark.parametrize(
    "text,multi",
    [
        ("not json at all", False),
        ("", False),
        ('{"quality_score": 4}', False),  # no classification
        ('{"classification": "maybe", "quality_score": 4}', False),
        ('{"classification": "answer_attempt"}', False),  # score required with references
        ('{"classification": "answer_attempt", "quality_score": 9}', False),
        ('{"classification": "answer_attempt", "quality_score": "good"}', False),
        ('{"classification": "answer_attempt", "eligibility": 2, "factuality_all": 1, "factuality_relevant": 1}', True),
        ('{"classification": "answer_attempt", "eligibility": 1}', True),
        ('{"classification": "REFUSE_OTHER or REFUSE_AMBIGUOUS_QUERY"}', False),
    ],
)
def test_invalid(text, multi):
    with pytest.raises(VerdictError):
        parse_verdict(text, multi_passage=multi)


def test_no_references_allows_missing_score():
    v = parse_verdict('{"classification": "answer_attempt", "quality_score": null}', False, has_references=False)
    assert v.quality_score is None


def test_extract_skips_non_object_braces():
    assert extract_json_object('see {oops} then {"a": 1}') == {"a": 1}


def test_classification_read_with_the_shared_code_normaliser():
    v = parse_verdict('{"classification": "REFUSE_INFO_MISSING_IN_CONTEXT (the passage lacks the year)"}', False)
    assert v.classification == "REFUSE_INFO_MISSING_IN_CONTEXT"
    assert (
        parse_verdict('{"classification": "refuse-missing"}', False).classification == "REFUSE_INFO_MISSING_IN_CONTEXT"
    )
    for unknown in ("REFUSE_NONE", "REFUSE_CONTRADICTORY_QUERY"):  # unlisted codes are re-asked, never guessed
        with pytest.raises(VerdictError, match="neither"):
            parse_verdict(f'{{"classification": "{unknown}"}}', False)
