"""Run contexts and small labels tables for the score and report stage tests."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from refusalbench.config import RefusalBenchConfig
from refusalbench.context import RunContext
from refusalbench.metrics.document import SCHEMA_VERSION
from refusalbench.taxonomy import PREDICTION_LABELS, cells, ground_truth


def make_ctx(tmp_path: Path, **score) -> RunContext:
    cfg = RefusalBenchConfig()
    cfg.dataset.kind = "refusalbench_nq"
    cfg.model.id = "gpt-4o"
    cfg.score.n_resamples = 100
    cfg.cache.dir = str(tmp_path / "cache")  # the schema's default is an interpolation only Hydra resolves
    for key, value in score.items():
        setattr(cfg.score, key, value)
    run_dir = tmp_path / "run"
    run_dir.mkdir(parents=True, exist_ok=True)
    return RunContext(cfg=cfg, run_dir=run_dir)


def labels_table(models=("gpt-4o",), n_items=72, seed=0, budgets=None, confidence=False) -> pd.DataFrame:
    """A labels table over the 18 strata, several models on the same items."""
    rng = np.random.default_rng(seed)
    strata = cells()
    base = pd.DataFrame(
        {
            "id": [f"RB-{i}" for i in range(n_items)],
            "source_id": [f"q{i % 12}" for i in range(n_items)],
            "perturbation_class": [strata[i % 18][0] for i in range(n_items)],
            "intensity": [strata[i % 18][1] for i in range(n_items)],
            "generator_model": ["claude", "gpt"] * (n_items // 2),
        }
    )
    base["expected_rag_behavior"] = [ground_truth(c, i) for c, i in zip(base["perturbation_class"], base["intensity"])]
    frames = []
    for k, model in enumerate(models):
        frame = base.copy()
        frame["model"] = model
        if budgets is not None:
            frame["reasoning_budget"] = budgets[k]
        pred = rng.choice(PREDICTION_LABELS[:8], n_items)
        keep = rng.random(n_items) < 0.5
        frame["predicted_label"] = np.where(
            keep & (frame["expected_rag_behavior"] != "ANSWER_CORRECTLY"), frame["expected_rag_behavior"], pred
        )
        frame["answer_correct"] = pd.array(
            np.where(frame["predicted_label"] == "answer_attempt", rng.random(n_items) < 0.6, None), dtype="boolean"
        )
        if confidence:
            frame["confidence"] = rng.uniform(0, 1, n_items)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def written_model_metrics(path: Path, model: str | None = None) -> dict:
    """One model's metrics (the only model's when `model` is None) from the metrics JSON the score stage
    wrote at `path`, after checking the file has the current shape."""
    doc = json.loads(Path(path).read_text())
    assert doc["schema_version"] == SCHEMA_VERSION
    assert set(doc) == {"schema_version", "models", "paired_differences", "meta"}
    if model is None:
        assert len(doc["models"]) == 1, list(doc["models"])
        (model,) = doc["models"]
    return doc["models"][model]
