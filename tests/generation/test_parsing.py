import json

import pytest

from refusalbench.generation.parsing import (
    ParseError,
    extract_json,
    match_lever,
    parse_generation_multi,
    parse_generation_single,
    parse_verification,
    strip_reasoning,
)

LEVERS = ["Balanced Polysemy", "Unresolved Pronoun"]
GOOD = {
    "perturbed_query": "Which bank?",
    "perturbed_context": "The bank was built in 1900.",
    "lever_selected": "Balanced Polysemy",
    "implementation_reasoning": "step 1",
    "intensity_achieved": "MEDIUM",
    "expected_rag_behavior": "REFUSE_AMBIGUOUS_QUERY",
}


def test_fenced_with_preamble_and_think_trace():
    text = "<think>maybe {not json}</think>Sure! Here it is:\n```json\n" + json.dumps(GOOD) + "\n```\nHope it helps {x}"
    assert extract_json(text)["lever_selected"] == "Balanced Polysemy"


def test_bare_object_trailing_comma_and_raw_newline():
    text = 'Answer: {"a": "line1\nline2", "b": [1, 2,],}'
    assert extract_json(text) == {"a": "line1\nline2", "b": [1, 2]}


def test_unclosed_fence_and_lone_closing_think():
    text = "reasoning here</think>\n```json\n" + json.dumps(GOOD)
    assert extract_json(text)["perturbed_query"] == "Which bank?"
    assert strip_reasoning("a</think>b") == "b"


def test_prefer_keys_picks_the_right_object():
    text = 'Example {"x": 1} then {"verification_result": "PASS"}'
    assert extract_json(text, prefer_keys=("verification_result",)) == {"verification_result": "PASS"}


@pytest.mark.parametrize("text", ["", "   ", "no json here", "{broken"])
def test_no_json_raises(text):
    with pytest.raises(ParseError):
        extract_json(text)


def test_parse_generation_single_ok_and_echo():
    out = parse_generation_single(json.dumps(GOOD), LEVERS)
    assert out["lever_selected"] == "Balanced Polysemy"
    assert out["model_expected_echo"] == "REFUSE_AMBIGUOUS_QUERY"


def test_reasoning_list_joined_and_lever_matched_loosely():
    reply = dict(GOOD, implementation_reasoning=["a", "b"], lever_selected="2. **unresolved  pronoun**")
    out = parse_generation_single(json.dumps(reply), LEVERS)
    assert out["implementation_reasoning"] == "a\nb"
    assert out["lever_selected"] == "Unresolved Pronoun"
    assert match_lever("nope", LEVERS) is None


def test_wrong_lever_and_missing_field_messages():
    reply = dict(GOOD, lever_selected="Made Up")
    del reply["perturbed_context"]
    with pytest.raises(ParseError) as err:
        parse_generation_single(json.dumps(reply), LEVERS)
    msg = str(err.value)
    assert '"Made Up"' in msg and "Balanced Polysemy" in msg and "perturbed_context" in msg


def test_wrong_type_rejected():
    with pytest.raises(ParseError, match="must be a string"):
        parse_generation_single(json.dumps(dict(GOOD, perturbed_query=5)), LEVERS)


def test_parse_generation_multi_labels():
    reply = {
        "perturbed_query": "q",
        "perturbed_signal_passages": [
            {"passage": "S2", "perturbed_text": "new"},
            {"passage": 1, "perturbed_text": "x"},
        ],
        "perturbed_noise_passages": [{"passage": "N1", "perturbed_text": "n"}],
        "lever_selected": "Balanced Polysemy",
        "implementation_reasoning": "r",
    }
    out = parse_generation_multi(json.dumps(reply), LEVERS)
    assert out["passage_edits"] == [
        {"passage": "S2", "perturbed_text": "new"},
        {"passage": "S1", "perturbed_text": "x"},
        {"passage": "N1", "perturbed_text": "n"},
    ]
    with pytest.raises(ParseError, match="perturbed_signal_passages"):
        parse_generation_multi(json.dumps({k: v for k, v in reply.items() if "passages" not in k}), LEVERS)


def test_parse_verification():
    out = parse_verification(
        '```json\n{"verification_result": "pass", "lever_correctly_implemented": "true", '
        '"identified_issues": ["a", "b"]}\n```'
    )
    assert out["verdict"] == "PASS" and out["lever_correctly_implemented"] is True
    assert out["identified_issues"] == "a; b" and out["refusal_class_correct"] is None
    with pytest.raises(ParseError):
        parse_verification('{"verification_result": "MAYBE"}')
    with pytest.raises(ParseError):
        parse_verification('{"lever_correctly_implemented": true}')
