"""MLflow tracking of runs and sweeps: one run per job, a parent run per multirun."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Optional

from refusalbench.config import RefusalBenchConfig
from refusalbench.errors import UserError
from refusalbench.metrics.document import METRICS_FILE, load_metrics, metrics_per_model
from refusalbench.tracking import provenance
from refusalbench.tracking.mlflow_run import (
    Tracker,
    env_summary,
    flatten,
    metric_items,
    read_parent_run_id,
)

log = logging.getLogger(__name__)

__all__ = ["start_job", "finish_job", "Tracker", "flatten", "metric_items"]


def job_tags(cfg: RefusalBenchConfig, run_dir: Path) -> dict[str, str]:
    data_path = cfg.evaluate.benchmark or cfg.score.predictions or cfg.dataset.path
    budget = cfg.reasoning.budget_tokens
    return {
        **env_summary(),
        "lever_catalogue_hash": provenance.catalogue_hash(cfg.levers_extra),
        **provenance.prompt_hashes(),
        "dataset_kind": cfg.dataset.kind,
        "dataset_fingerprint": provenance.file_fingerprint(
            data_path, cfg.dataset.kind, cfg.dataset.n_base, cfg.dataset.seed
        ),
        # which questions the source verdicts leave out is part of what the run drew from
        "source_verdicts_fingerprint": (
            provenance.file_fingerprint(cfg.dataset.source_verdicts) if cfg.dataset.source_verdicts else "none"
        ),
        "model": cfg.model.id,
        "model_name": cfg.model.name,
        "reasoning_budget": "default" if budget is None else str(budget),
        "reasoning_effort": cfg.reasoning.effort or "default",
        "pipeline": ",".join(cfg.pipeline.stages),
        "run_dir": str(run_dir),
    }


JOB_KEY_TAG = "refusalbench.job_key"


def start_job(
    cfg: RefusalBenchConfig, resolved: dict[str, Any], run_dir: Path, run_name: str, sweep_dir: Optional[Path]
) -> Optional[Tracker]:
    """Open this job's MLflow run (a child of the sweep's parent run when there is one).

    A sweep job that runs again (its earlier attempt failed or was killed) replaces that attempt's
    child run: the earlier one is tagged `refusalbench.superseded_by` and moved to MLflow's trash.
    """
    if not cfg.tracking.enabled:
        return None
    parent = read_parent_run_id(sweep_dir)
    tags = job_tags(cfg, run_dir)
    if parent:
        tags[JOB_KEY_TAG] = run_dir.name
    tracker = Tracker(
        uri=cfg.tracking.uri,
        experiment=cfg.tracking.experiment,
        run_name=cfg.tracking.run_name or run_name,
        tags=tags,
        parent_run_id=parent,
    )
    if parent:
        _supersede_earlier_attempts(tracker, parent, run_dir.name)
    tracker.log_params(flatten(resolved))
    tracker.log_dict(resolved, "config_resolved.json")
    return tracker


def _supersede_earlier_attempts(tracker: Tracker, parent: str, key: str) -> None:
    for run in tracker.find_runs({"mlflow.parentRunId": parent, JOB_KEY_TAG: key}):
        if run.info.run_id != tracker.run_id:
            tracker.client.set_tag(run.info.run_id, "refusalbench.superseded_by", tracker.run_id)
            tracker.client.delete_run(run.info.run_id)
            log.info(
                "earlier attempt %s (%s) of job %s replaced by run %s",
                run.info.run_id,
                run.info.status,
                key,
                tracker.run_id,
            )


def run_metrics(run_dir: Path) -> dict[str, float]:
    """The MLflow metrics of the run's metrics document: names as `metric_items` gives them, prefixed by
    ``model/`` only when the document holds several models (a one-model run keeps the plain names)."""
    path = run_dir / METRICS_FILE
    if not path.exists():
        return {}
    try:
        per_model = metrics_per_model(load_metrics(path))
    except UserError as exc:
        log.warning("no metrics logged to MLflow: %s", exc)
        return {}
    metrics: dict[str, float] = {}
    for model, data in per_model.items():
        prefix = f"{model}/" if len(per_model) > 1 else ""
        metrics.update({prefix + k: v for k, v in metric_items(data).items()})
    return metrics


def finish_job(tracker: Optional[Tracker], run_dir: Path, status: str, record_dir: Optional[Path] = None) -> None:
    """Log metrics and every output of the run directory, then close the run.

    `record_dir` is this run's Hydra record (`.hydra/`, or `.hydra-<time>/` when the directory held an earlier run).
    """
    if tracker is None:
        return
    try:
        tracker.log_metrics(run_metrics(run_dir))
        hydra_dir = record_dir or run_dir / ".hydra"
        tracker.log_artifacts(
            sorted(p for p in run_dir.iterdir() if not p.name.startswith(".")),
            more={"hydra": sorted(hydra_dir.iterdir())} if hydra_dir.is_dir() else None,
        )
    finally:
        tracker.finish(status)
