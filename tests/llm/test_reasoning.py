"""Reasoning settings mapped per provider, and reasoning traces split from answers."""

from __future__ import annotations

import pytest

from refusalbench.config import ReasoningConfig
from refusalbench.llm.reasoning import map_request, model_family, split_think


def R(budget=None, effort=None, allowance=1024):
    return ReasoningConfig(budget_tokens=budget, effort=effort, answer_allowance=allowance)


@pytest.mark.parametrize(
    "name,compat,family",
    [
        ("anthropic/claude-sonnet-4-20250514", False, "anthropic"),
        ("bedrock/us.anthropic.claude-sonnet-4-20250514-v1:0", False, "anthropic"),
        ("openai/o4-mini-2025-04-16", False, "openai_reasoning"),
        ("o3-mini", False, "openai_reasoning"),
        ("openai/gpt-5-2025-08-07", False, "openai_reasoning"),
        ("openai/gpt-4o-2024-08-06", False, "other"),
        ("openai/Qwen/Qwen3-8B", True, "openai_compatible"),
        ("bedrock/converse/us.deepseek.r1-v1:0", False, "other"),
    ],
)
def test_model_family(name, compat, family):
    assert model_family(name, compat) == family


def test_anthropic_budget():
    m = map_request("anthropic", R(2048), temperature=0.0, top_p=0.9, max_tokens=500)
    assert m.params == {"thinking": {"type": "enabled", "budget_tokens": 2048}}
    assert (m.temperature, m.top_p, m.max_tokens) == (None, None, 2048 + 1024)


def test_anthropic_budget_below_minimum_is_raised():
    m = map_request("anthropic", R(500, allowance=200), None, None, 100)
    assert m.params["thinking"]["budget_tokens"] == 1024 and m.max_tokens == 1224 and m.notes


def test_anthropic_budget_zero_and_default_leave_thinking_off():
    for r in (R(0), R()):
        m = map_request("anthropic", r, 0.0, None, 500)
        assert m.params == {} and (m.temperature, m.max_tokens) == (0.0, 500)


def test_anthropic_effort_maps_to_budget():
    m = map_request("anthropic", R(effort="medium"), None, None, 1)
    assert m.params["thinking"]["budget_tokens"] == 2048 and m.max_tokens == 2048 + 1024


def test_anthropic_never_sends_temperature_and_top_p_together():
    m = map_request("anthropic", R(), 0.2, 0.9, 100)
    assert (m.temperature, m.top_p) == (0.2, None) and m.notes


def test_openai_reasoning_effort():
    m = map_request("openai_reasoning", R(effort="high"), 0.0, 1.0, 8000)
    assert m.params == {"reasoning_effort": "high"} and (m.temperature, m.top_p, m.max_tokens) == (None, None, 8000)
    assert map_request("openai_reasoning", R(4096), None, None, None).params == {"reasoning_effort": "medium"}
    assert map_request("openai_reasoning", R(), None, None, None).params == {}


def test_openai_compatible_thinking_switch_and_budget():
    off = map_request("openai_compatible", R(0), 0.0, None, 256)
    assert off.body == {"chat_template_kwargs": {"enable_thinking": False}} and off.max_tokens == 256
    on = map_request("openai_compatible", R(1000, allowance=300), 0.0, None, 256)
    assert on.body == {"chat_template_kwargs": {"enable_thinking": True}, "thinking_token_budget": 1000}
    assert on.max_tokens == 1300 and on.temperature == 0.0
    assert map_request("openai_compatible", R(effort="low"), 0.0, None, 1).body == {"reasoning_effort": "low"}
    assert map_request("openai_compatible", R(), 0.0, None, 1).body == {}


def test_other_providers():
    m = map_request("other", R(2048, effort="low"), 0.1, None, 100)
    assert m.params == {"reasoning_effort": "low", "thinking": {"type": "enabled", "budget_tokens": 2048}}
    assert map_request("other", R(0), 0.1, None, 100).notes


@pytest.mark.parametrize(
    "raw,answer,reasoning",
    [
        ("plain answer", "plain answer", None),
        ("<think>a</think>b", "b", "a"),
        ("  <think>\nstep 1\n</think>\n\nFinal.", "Final.", "step 1"),
        ("step 1</think>Final.", "Final.", "step 1"),  # template opened the trace in the prompt
        ("<think>never closed", "", "never closed"),
        ("<think></think>Only answer", "Only answer", None),
        ("", "", None),
    ],
)
def test_split_think(raw, answer, reasoning):
    assert split_think(raw) == (answer, reasoning)
