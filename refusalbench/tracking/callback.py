"""Hydra callback for sweeps: one MLflow parent run per sweep directory, the combined report at the end.

Registered in conf/config.yaml under `hydra.callbacks`. `on_multirun_start` runs once, in the
launching process, before any job starts, so parallel jobs never race to create the SQLite schema,
the experiment or the parent run; each job reads the parent's id from the sweep directory
(`sweep.json`) and becomes its child. Running the same sweep again reopens the same parent run
(found by the `refusalbench.sweep_id` tag, a hash of the sweep directory), so its children
accumulate under one parent however many times the sweep is resumed.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

from hydra.experimental.callback import Callback
from omegaconf import DictConfig, OmegaConf

from refusalbench import sweep_outcome, termination
from refusalbench.errors import UserError
from refusalbench.metrics.document import METRICS_FILE, load_metrics, sole_model_meta
from refusalbench.tracking.job_identity import job_label, swept_keys
from refusalbench.tracking.mlflow_run import SWEEP_FILE, Tracker, env_summary

log = logging.getLogger(__name__)

DONE_MARKER = "DONE"
SWEEP_ID_TAG = "refusalbench.sweep_id"


def sweep_id(sweep_dir: Path) -> str:
    """The tag value that finds a sweep's parent run again: a hash of its absolute directory."""
    return hashlib.sha256(str(Path(sweep_dir).resolve()).encode()).hexdigest()[:16]


def _job_overrides(job_dir: Path) -> list[str]:
    path = job_dir / ".hydra" / "overrides.yaml"
    return [str(o) for o in OmegaConf.load(path)] if path.exists() else []


def collect_job_metrics(sweep_dir: Path, swept: list[str] = ()) -> dict[str, dict]:
    """The metrics document of every completed job under the sweep directory, labelled `model [budget N]`
    (+ swept keys) when the job scored one model; a job whose file cannot be read is left out, with a warning."""
    found: dict[str, dict] = {}
    for done in sorted(sweep_dir.rglob(DONE_MARKER)):
        job_dir = done.parent
        metrics_path = job_dir / METRICS_FILE
        if not metrics_path.exists():
            continue
        try:
            metrics = load_metrics(metrics_path)
        except UserError as exc:
            log.warning("job %s left out of the sweep report: %s", job_dir.relative_to(sweep_dir), exc)
            continue
        meta = sole_model_meta(metrics)
        label = job_label(meta.get("model"), meta.get("reasoning_budget"), _job_overrides(job_dir), swept)
        if label in found or not meta.get("model"):
            label = f"{label} ({job_dir.relative_to(sweep_dir)})"
        found[label] = metrics
    return found


def _warn_if_another_sweep(sweep_dir: Path, overrides: list[str]) -> None:
    """Say so when the sweep directory holds a sweep run with other overrides: the two will share a report."""
    path = sweep_dir / SWEEP_FILE
    try:
        before = json.loads(path.read_text()).get("overrides") if path.exists() else None
    except (OSError, ValueError):
        return
    if before is not None and _another_study(before, overrides):
        log.warning(
            "%s already holds a sweep run with other settings (%s); this sweep joins it: its completed jobs share "
            "one combined report and one MLflow parent run. Give a separate study its own name=NAME.",
            sweep_dir,
            " ".join(before) or "no overrides",
        )


def _another_study(before: list[str], now: list[str]) -> bool:
    """Other override keys, or another value of a setting neither sweep varies (growing a swept list is not)."""
    first, second = (dict(o.split("=", 1) if "=" in o else (o, "") for o in x) for x in (before, now))
    if set(first) != set(second):
        return True
    fixed = [k for k in first if "," not in first[k] + second[k] and "(" not in first[k] + second[k]]
    return any(first[k] != second[k] for k in fixed)


class MlflowSweepCallback(Callback):
    def __init__(self) -> None:
        self.tracker: Tracker | None = None
        self.started = sweep_outcome.now()
        self.swept: list[str] = []

    def on_multirun_start(self, config: DictConfig, **kwargs: Any) -> None:
        sweep_dir = Path(config.hydra.sweep.dir)
        self.started = sweep_outcome.now()
        sweep_dir.mkdir(parents=True, exist_ok=True)
        params = {str(k): str(v) for k, v in (config.hydra.sweeper.get("params") or {}).items()}
        overrides = [str(o) for o in config.hydra.overrides.task]
        self.swept = swept_keys(overrides, params)
        _warn_if_another_sweep(sweep_dir, overrides)
        state = {"parent_run_id": None, "swept_keys": self.swept, "overrides": overrides}
        if config.tracking.enabled and not config.run.dry_run:  # a dry run logs no MLflow run
            self.tracker = Tracker(
                uri=config.tracking.uri,
                experiment=config.tracking.experiment,
                run_name=f"sweep {config.name}",
                tags={
                    **env_summary(),
                    "refusalbench.kind": "sweep",
                    "refusalbench.sweep_dir": str(sweep_dir.resolve()),
                    SWEEP_ID_TAG: sweep_id(sweep_dir),
                    "refusalbench.sweep_name": str(config.name),
                    "refusalbench.sweep_overrides": " ".join(overrides),
                    "refusalbench.sweep_params": json.dumps(params),
                    "refusalbench.swept_keys": ", ".join(self.swept),
                },
                resume_tag=SWEEP_ID_TAG,
            )
            state["parent_run_id"] = self.tracker.run_id
            termination.on_terminate(self._killed)
            verb = "reopened" if self.tracker.resumed else "created"
            log.info("MLflow parent run %s %s for sweep %s", self.tracker.run_id, verb, sweep_dir)
        (sweep_dir / SWEEP_FILE).write_text(json.dumps(state, indent=1) + "\n")

    def on_multirun_end(self, config: DictConfig, **kwargs: Any) -> None:
        sweep_dir = Path(config.hydra.sweep.dir)
        jobs = collect_job_metrics(sweep_dir, self.swept)
        report_dir = sweep_dir / "report"
        outcome = sweep_outcome.last_outcome = sweep_outcome.collect(sweep_dir, self.started, DONE_MARKER)
        status = "FINISHED" if outcome.ok else "FAILED"
        try:
            if jobs:
                from refusalbench.report import build_report

                build_report(jobs, report_dir)
                log.info("combined report of %d job(s): %s", len(jobs), report_dir)
        except Exception:
            status = "FAILED"
            log.exception("could not build the combined sweep report")
            raise
        finally:
            if self.tracker is not None:
                termination.forget(self._killed)
                self.tracker.set_tags(
                    {
                        "refusalbench.jobs_completed": str(len(jobs)),
                        "refusalbench.failed_jobs": f"{len(outcome.failed)} of {len(outcome.jobs)}",
                        "refusalbench.sweep_outcome": outcome.summary(),
                    }
                )
                if report_dir.exists():
                    self.tracker.log_artifacts([report_dir])
                self.tracker.finish(status)

    def _killed(self) -> None:
        if self.tracker is not None:
            self.tracker.set_tags({"refusalbench.sweep_outcome": "terminated by a signal before the sweep ended"})
            self.tracker.finish("KILLED")
