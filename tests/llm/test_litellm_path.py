"""The LiteLLM transport: against the test server, with LiteLLM mock responses, and offline import."""

from __future__ import annotations

import subprocess
import sys

from refusalbench.config import ModelConfig
from refusalbench.llm import CallSpec
from tests.support.configs import model_cfg_for


def one(text="q"):
    return [CallSpec(key="k", messages=[{"role": "user", "content": text}])]


def test_litellm_transport_reaches_the_server(layer, test_server):
    cfg = model_cfg_for(test_server, transport="litellm", temperature=0.2, max_tokens=33, seed=3)
    [c] = layer.run(cfg, one(), role="generator")
    assert c.ok and c.text == "reply: q" and c.input_tokens and c.cost_usd is None
    body = test_server.requests[0]
    assert body["model"] == "test-model" and body["max_tokens"] == 33 and body["seed"] == 3


def test_litellm_transport_retries_and_fails_fast(layer, test_server):
    cfg = model_cfg_for(test_server, transport="litellm")
    test_server.script([{"status": 429, "retry_after": 0}, {"status": 503}])
    [c] = layer.run(cfg, one("a"), role="generator")
    assert c.ok and test_server.request_count == 3  # LiteLLM's and the SDK's own retries are off
    test_server.reset()
    test_server.script([{"status": 401, "message": "bad key"}])
    [c] = layer.run(cfg, one("b"), role="generator")
    assert c.error.startswith("AuthenticationError") and test_server.request_count == 1


def test_litellm_transport_strips_think_tags(layer, test_server):
    test_server.set_responder(lambda body: {"content": "42", "reasoning": "six times seven"})
    [c] = layer.run(model_cfg_for(test_server, transport="litellm"), one(), role="evaluated")
    assert c.text == "42" and c.reasoning == "six times seven"


def test_mock_response_prices_known_models(layer):
    cfg = ModelConfig(name="openai/gpt-4o-2024-08-06", max_tokens=50, extra_params={"mock_response": "Paris"})
    [c] = layer.run(cfg, one("capital of France?"), role="evaluated")
    assert c.ok and c.text == "Paris" and c.cost_usd is not None and c.cost_usd > 0
    s = layer.usage_summary()["models"]["gpt-4o-2024-08-06"]
    assert s["cost_usd"] == c.cost_usd and s["unpriced_calls"] == 0


def test_mock_response_with_anthropic_thinking(layer):
    cfg = ModelConfig(
        name="anthropic/claude-sonnet-4-20250514",
        temperature=0.5,
        max_tokens=300,
        extra_params={"mock_response": "<think>hmm</think>Yes"},
    )
    from refusalbench.config import ReasoningConfig

    cfg.reasoning = ReasoningConfig(budget_tokens=1024)
    [c] = layer.run(cfg, one(), role="evaluated")
    assert c.ok and c.text == "Yes" and c.reasoning == "hmm"


def test_import_is_lazy_and_offline():
    code = (
        "import os, sys, refusalbench.llm as m; assert 'litellm' not in sys.modules; "
        "print(os.environ['LITELLM_LOCAL_MODEL_COST_MAP'])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in __import__("os").environ.items() if not k.startswith("LITELLM")},
    )
    assert out.stdout.strip() == "True"


def test_litellm_transport_honours_retry_after(make_layer, test_server):
    from refusalbench.llm import RetryPolicy

    layer = make_layer(retry_policy=RetryPolicy(base_delay=0.001, max_delay=0.002))
    test_server.script([{"status": 429, "retry_after": 0.5}])
    [c] = layer.run(model_cfg_for(test_server, transport="litellm"), one(), role="generator")
    assert c.ok
    gap = test_server.request_times[1] - test_server.request_times[0]
    assert 0.5 <= gap < 1.5
