"""Two identical uncached evaluations with the default embedded model at temperature 0 give identical outputs."""

from __future__ import annotations

import dataclasses

import pytest
from hydra import compose, initialize_config_dir

from refusalbench.cli import validate
from refusalbench.config import CacheConfig, register_configs
from refusalbench.paths import CONF_DIR, PACKAGE_DATA_DIR

register_configs()


def default_model():
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        return validate(compose("config", overrides=[])).model


def test_the_default_embedded_model_uses_one_slot():
    model = default_model()
    assert model.backend == "embedded" and model.max_concurrency == 1 and model.temperature == 0.0


@pytest.mark.slow
def test_two_uncached_runs_of_the_default_model_agree(tmp_path):
    import json

    from refusalbench.llm import CallSpec, LLMLayer

    model = dataclasses.replace(default_model(), max_tokens=96)
    rows = [json.loads(line) for line in (PACKAGE_DATA_DIR / "nq_sample.jsonl").read_text().splitlines()[:18]]
    specs = [
        CallSpec(
            key=str(i),
            messages=[
                {"role": "user", "content": f"Context: {str(r)[:1200]}\n\nAnswer briefly: what is the question about?"}
            ],
        )
        for i, r in enumerate(rows)
    ]
    outputs = []
    for attempt in range(2):
        with LLMLayer(CacheConfig(dir=str(tmp_path / f"cache{attempt}"), mode="off"), progress=False) as layer:
            outputs.append([c.text for c in layer.run(model, specs, role="evaluated")])
    assert all(outputs[0]) and outputs[0] == outputs[1]
