"""The cache key covers every output-affecting field and nothing else."""

from __future__ import annotations

import dataclasses

import pytest

from refusalbench.config import ReasoningConfig
from refusalbench.llm import CallSpec
from tests.support.configs import model_cfg_for

SPEC = CallSpec(key="a", messages=[{"role": "user", "content": "q"}], template_version="t@1:abcd", replicate=0)


class _Srv:
    url = "http://127.0.0.1:9/v1"


BASE = model_cfg_for(_Srv(), temperature=0.5, top_p=None, max_tokens=100, seed=1)

CHANGES_MODEL = {
    "name": "openai/test-model-v2",
    "api_base": "http://127.0.0.1:10/v1",
    "temperature": 0.7,
    "top_p": 0.9,
    "max_tokens": 101,
    "seed": 2,
    "reasoning": ReasoningConfig(budget_tokens=0),
    "extra_params": {"stop": ["\n"]},
}
CHANGES_SPEC = {
    "messages": [{"role": "user", "content": "q2"}],
    "template_version": "t@2:ef01",
    "response_format": "json",
    "replicate": 1,
}
NEUTRAL_MODEL = {
    "timeout": 99.0,
    "max_concurrency": 3,
    "rpm": 60,
    "max_retries": 0,
    "api_key_env": "SOME_KEY",
    "id": "other-id",
    "transport": "litellm",
    "startup_timeout": 5.0,
}
NEUTRAL_SPEC = {"key": "b", "expected_output_tokens": 77}


@pytest.mark.parametrize("field,value", sorted(CHANGES_MODEL.items()))
def test_model_fields_change_key(layer, field, value):
    assert layer.cache_key(dataclasses.replace(BASE, **{field: value}), SPEC) != layer.cache_key(BASE, SPEC)


@pytest.mark.parametrize("field,value", sorted(CHANGES_SPEC.items()))
def test_spec_fields_change_key(layer, field, value):
    assert layer.cache_key(BASE, dataclasses.replace(SPEC, **{field: value})) != layer.cache_key(BASE, SPEC)


@pytest.mark.parametrize("field,value", sorted(NEUTRAL_MODEL.items()))
def test_connection_fields_do_not_change_key(layer, field, value):
    assert layer.cache_key(dataclasses.replace(BASE, **{field: value}), SPEC) == layer.cache_key(BASE, SPEC)


@pytest.mark.parametrize("field,value", sorted(NEUTRAL_SPEC.items()))
def test_caller_fields_do_not_change_key(layer, field, value):
    assert layer.cache_key(BASE, dataclasses.replace(SPEC, **{field: value})) == layer.cache_key(BASE, SPEC)


def test_reasoning_effort_and_budget_change_key(layer):
    keys = {
        layer.cache_key(dataclasses.replace(BASE, reasoning=r), SPEC)
        for r in (
            ReasoningConfig(),
            ReasoningConfig(budget_tokens=0),
            ReasoningConfig(budget_tokens=512),
            ReasoningConfig(effort="low"),
            ReasoningConfig(effort="high"),
        )
    }
    assert len(keys) == 5


def test_key_is_sha256_hex_and_stable(layer):
    k = layer.cache_key(BASE, SPEC)
    assert len(k) == 64 and int(k, 16) >= 0
    assert k == layer.cache_key(dataclasses.replace(BASE), dataclasses.replace(SPEC))


def test_dict_order_does_not_change_key(layer):
    a = dataclasses.replace(BASE, extra_params={"stop": ["x"], "logit_bias": {"1": 2}})
    b = dataclasses.replace(BASE, extra_params={"logit_bias": {"1": 2}, "stop": ["x"]})
    assert layer.cache_key(a, SPEC) == layer.cache_key(b, SPEC)


def test_anthropic_unsent_parameters_do_not_split_the_cache(layer):
    """Temperature is not sent with Claude thinking, so it cannot change the output or the key."""
    claude = dataclasses.replace(
        BASE, name="anthropic/claude-sonnet-4-20250514", api_base=None, reasoning=ReasoningConfig(budget_tokens=2048)
    )
    assert layer.cache_key(claude, SPEC) == layer.cache_key(dataclasses.replace(claude, temperature=0.1), SPEC)
