"""Collecting metrics documents: one run's, or every job's under a sweep directory.

`expand` turns ``{run: metrics document}`` — where a document may hold several models — into one
entry per (run, model), labelled by the run alone when it holds one model.
"""

from __future__ import annotations

import logging
from pathlib import Path

from refusalbench.errors import UserError
from refusalbench.metrics.document import METRICS_FILE, load_metrics, metrics_per_model, sole_model_meta

log = logging.getLogger(__name__)


def expand(metrics_by_run: dict[str, dict]) -> dict[str, dict]:
    """One model's metrics object per label (`metrics_by_run`: {run: metrics document})."""
    out: dict[str, dict] = {}
    for run, metrics in metrics_by_run.items():
        models = metrics_per_model(metrics)
        for model, m in models.items():
            if len(models) == 1:
                label = str(run)
            else:
                label = str(model) if len(metrics_by_run) == 1 else f"{run}: {model}"
            out[label] = m
    return out


def run_label(meta: dict, fallback: str) -> str:
    """A run's display label: its model, with the reasoning budget when one is set."""
    model = meta.get("model")
    if not model:
        return fallback
    budget = meta.get("reasoning_budget")
    return f"{model} [budget {budget}]" if budget is not None else str(model)


def collect_sweep(sweep_dir: str | Path) -> dict[str, dict]:
    """Every ``metrics.json`` under `sweep_dir` (not under a ``report`` folder), labelled by model."""
    root = Path(sweep_dir)
    if not root.is_dir():
        raise UserError(f"report.sweep_dir {root} is not a directory.")
    files = sorted(p for p in root.rglob(METRICS_FILE) if "report" not in p.relative_to(root).parts[:-1])
    if not files:
        raise UserError(f"No {METRICS_FILE} under {root}: run the sweep's score stage first.")
    runs: dict[str, dict] = {}
    for path in files:
        metrics = load_metrics(path)
        rel = str(path.parent.relative_to(root)) or "."
        label = run_label(sole_model_meta(metrics), rel)
        if label in runs:
            label = f"{label} ({rel})"
        runs[label] = metrics
    log.info("collected %d metrics files from %s", len(files), root)
    return runs
