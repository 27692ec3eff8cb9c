"""The layer against the real embedded llama.cpp server (SmolLM2-135M; slow: starts a model)."""

from __future__ import annotations

import pytest

from refusalbench.config import ModelConfig, ReasoningConfig
from refusalbench.llm import CallSpec


@pytest.mark.slow
@pytest.mark.parametrize("transport", ["http", "litellm"])
def test_embedded_model_through_the_layer(make_layer, transport):
    cfg = ModelConfig(
        name="smollm2-135m-instruct-q4_1",
        id="local-smollm2-135m",
        backend="embedded",
        gguf_source="smollm2-135m",
        max_tokens=24,
        temperature=0.0,
        seed=42,
        max_concurrency=2,
        timeout=120,
        transport=transport,
        reasoning=ReasoningConfig(budget_tokens=0),
    )
    specs = [CallSpec(key=str(i), messages=[{"role": "user", "content": f"What is {i} plus one?"}]) for i in range(3)]
    layer = make_layer()
    out = layer.run(cfg, specs, role="evaluated")
    assert all(c.ok and c.text and c.output_tokens and c.cost_usd is None for c in out)
    again = make_layer().run(cfg, specs, role="evaluated")  # another server start, same cache entries
    assert all(c.cached for c in again) and [c.text for c in again] == [c.text for c in out]
    layer.close()
