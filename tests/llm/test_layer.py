"""LLMLayer end to end against the test server: results, cache, truncation, reasoning, usage."""

from __future__ import annotations

import dataclasses
import json

import pytest

from refusalbench.config import ModelConfig, ReasoningConfig
from refusalbench.errors import UserError
from refusalbench.llm import CallSpec
from tests.support.configs import model_cfg_for


def specs(n, prefix="q", **kw):
    return [
        CallSpec(key=f"{prefix}{i}", messages=[{"role": "user", "content": f"{prefix} {i}"}], **kw) for i in range(n)
    ]


def test_run_returns_results_in_order(layer, test_server):
    out = layer.run(model_cfg_for(test_server), specs(20), role="generator")
    assert [c.key for c in out] == [f"q{i}" for i in range(20)]
    assert all(c.ok and not c.cached and not c.truncated for c in out)
    assert out[3].text == "reply: q 3" and out[3].finish_reason == "stop"
    assert out[3].input_tokens and out[3].output_tokens and out[3].latency_s > 0
    assert out[3].cost_usd is None  # local server: no price
    assert test_server.request_count == 20


def test_request_carries_model_parameters(layer, test_server):
    cfg = model_cfg_for(
        test_server,
        temperature=0.3,
        top_p=0.8,
        max_tokens=50,
        seed=7,
        extra_params={"stop": ["END"], "extra_body": {"top_k": 5}},
    )
    layer.run(cfg, specs(1, response_format="json"), role="judge")
    body = test_server.requests[0]
    assert body["model"] == "test-model"
    assert (body["temperature"], body["top_p"], body["max_tokens"], body["seed"]) == (0.3, 0.8, 50, 7)
    assert body["response_format"] == {"type": "json_object"} and body["stop"] == ["END"] and body["top_k"] == 5


def test_second_run_is_served_from_cache(layer, make_layer, test_server):
    cfg = model_cfg_for(test_server)
    first = layer.run(cfg, specs(10), role="generator")
    again = make_layer().run(cfg, specs(10), role="generator")
    assert test_server.request_count == 10
    assert all(c.cached for c in again)
    assert [c.text for c in again] == [c.text for c in first]
    assert [c.latency_s for c in again] == [c.latency_s for c in first]


@pytest.mark.parametrize(
    "reply",
    [
        {"content": ""},
        {"content": "", "finish_reason": "length"},
        {"content": "   "},
        {"content": "blocked", "finish_reason": "content_filter"},
        {"status": 400, "message": "bad"},
    ],
)
def test_never_cached(make_layer, test_server, reply):
    test_server.set_responder(lambda body: reply)
    cfg = model_cfg_for(test_server)
    make_layer().run(cfg, specs(2), role="evaluated")
    make_layer().run(cfg, specs(2), role="evaluated")
    assert test_server.request_count == 4


def test_truncated_is_flagged_never_refusal(layer, test_server):
    test_server.set_responder(lambda body: {"content": "", "finish_reason": "length"})
    [c] = layer.run(model_cfg_for(test_server), specs(1), role="evaluated")
    assert c.ok and c.truncated and c.text == "" and c.finish_reason == "length"


def test_cut_off_answer_is_truncated_but_cached(make_layer, test_server):
    test_server.set_responder(lambda body: {"content": "The answer is", "finish_reason": "length"})
    cfg = model_cfg_for(test_server)
    [c] = make_layer().run(cfg, specs(1), role="evaluated")
    [again] = make_layer().run(cfg, specs(1), role="evaluated")
    assert c.truncated and again.truncated and again.cached and test_server.request_count == 1


def test_think_tags_are_stripped_into_reasoning(layer, test_server):
    test_server.set_responder(lambda body: {"content": "Paris", "reasoning": "capital of France"})
    [c] = layer.run(model_cfg_for(test_server), specs(1), role="evaluated")
    assert c.text == "Paris" and c.reasoning == "capital of France" and not c.truncated


def test_unclosed_think_means_truncated(layer, test_server):
    test_server.set_responder(lambda body: {"content": "<think>still thinking", "finish_reason": "length"})
    [c] = layer.run(model_cfg_for(test_server), specs(1), role="evaluated")
    assert c.text == "" and c.reasoning == "still thinking" and c.truncated


def test_openai_compatible_reasoning_fields_reach_the_server(layer, test_server):
    cfg = model_cfg_for(test_server, max_tokens=64, reasoning=ReasoningConfig(budget_tokens=512, answer_allowance=100))
    off = dataclasses.replace(cfg, reasoning=ReasoningConfig(budget_tokens=0))
    layer.run(cfg, specs(1), role="evaluated")
    layer.run(off, specs(1), role="evaluated")
    on_body, off_body = test_server.requests
    assert on_body["chat_template_kwargs"] == {"enable_thinking": True}
    assert on_body["thinking_token_budget"] == 512 and on_body["max_tokens"] == 612
    assert off_body["chat_template_kwargs"] == {"enable_thinking": False} and off_body["max_tokens"] == 64
    assert "thinking_token_budget" not in off_body


def test_usage_totals_per_model_and_role(make_layer, test_server):
    layer = make_layer()
    a = model_cfg_for(test_server, name="model-a")
    b = model_cfg_for(test_server, name="model-b")
    test_server.set_responder(lambda body: {"content": "ok", "usage": {"prompt_tokens": 10, "completion_tokens": 3}})
    layer.run(a, specs(4), role="generator")
    layer.run(a, specs(4), role="generator")  # all cached
    layer.run(b, specs(3), role="verifier")
    test_server.set_responder(lambda body: {"status": 401, "message": "no"})
    layer.run(b, specs(2, prefix="z"), role="judge")
    s = layer.usage_summary()
    ma, mb = s["models"]["model-a"], s["models"]["model-b"]
    assert (ma["calls"], ma["cached"], ma["failed"], ma["input_tokens"], ma["output_tokens"]) == (8, 4, 0, 40, 12)
    assert (mb["calls"], mb["cached"], mb["failed"], mb["input_tokens"]) == (5, 0, 2, 30)
    assert s["roles"]["generator"]["calls"] == 8 and s["roles"]["verifier"]["calls"] == 3
    assert s["roles"]["judge"]["failed"] == 2
    assert s["total"]["calls"] == 13 and s["total"]["cost_usd"] is None and s["total"]["unpriced_calls"] == 7
    path = layer.write_usage()
    assert json.loads(path.read_text())["total"]["calls"] == 13


def test_close_writes_usage_json(make_layer, test_server, tmp_path):
    layer = make_layer()
    layer.run(model_cfg_for(test_server), specs(2), role="generator")
    layer.close()
    assert json.loads((tmp_path / "run" / "usage.json").read_text())["total"]["calls"] == 2


def test_dry_run_calls_nothing_and_estimates(make_layer, test_server):
    cfg = model_cfg_for(test_server, max_tokens=200)
    make_layer().run(cfg, specs(2), role="generator")  # two items already cached
    dry = make_layer(dry_run=True)
    out = dry.run(cfg, specs(5) + specs(3, prefix="x", expected_output_tokens=40), role="generator")
    assert test_server.request_count == 2
    assert all(c.error == "dry_run" for c in out)
    assert [c.cached for c in out[:5]] == [True, True, False, False, False]
    assert all(c.input_tokens > 0 for c in out)
    assert out[4].output_tokens == 200 and out[6].output_tokens == 40
    [row] = dry.usage_summary()["model_roles"]
    assert (row["estimate_calls"], row["estimate_cached"], row["estimate_output_tokens"]) == (8, 2, 3 * 200 + 3 * 40)
    assert row["estimate_cost_usd"] is None


def test_dry_run_prices_known_models_without_a_key(make_layer, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    cfg = ModelConfig(name="openai/gpt-4o-2024-08-06", api_key_env="OPENAI_API_KEY", max_tokens=100)
    dry = make_layer(dry_run=True)
    [c] = dry.run(cfg, specs(1), role="evaluated")
    assert c.cost_usd is not None and c.cost_usd > 0
    assert dry.usage_summary()["total"]["estimate_cost_usd"] == pytest.approx(c.cost_usd)


def test_missing_key_env_is_a_user_error(layer, test_server, monkeypatch):
    monkeypatch.delenv("RB_ABSENT_KEY", raising=False)
    with pytest.raises(UserError, match="RB_ABSENT_KEY"):
        layer.run(model_cfg_for(test_server, api_key_env="RB_ABSENT_KEY"), specs(1), role="generator")
    assert test_server.request_count == 0


@pytest.mark.parametrize("backend", ["programmatic", "structural"])
def test_non_model_backends_are_rejected(layer, backend):
    with pytest.raises(UserError, match="not a model call"):
        layer.run(ModelConfig(name="x", backend=backend), specs(1), role="generator")


async def test_run_inside_a_running_loop(layer, test_server):
    out = layer.run(model_cfg_for(test_server), specs(3), role="judge")  # sync call from async code
    assert all(c.ok for c in out)
