"""Hydra callback for sweeps: one MLflow parent run per multirun, the combined report at the end.

Registered in conf/config.yaml under `hydra.callbacks`. `on_multirun_start` runs once, in the
launching process, before any job starts, so parallel jobs never race to create the SQLite schema
or the experiment; each job reads the parent's id from the sweep directory and becomes its child.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from hydra.experimental.callback import Callback
from omegaconf import DictConfig

from refusalbench import sweep_outcome, termination
from refusalbench.tracking.mlflow_run import PARENT_RUN_FILE, Tracker, env_summary

log = logging.getLogger(__name__)

DONE_MARKER = "DONE"


def collect_job_metrics(sweep_dir: Path) -> dict[str, dict]:
    """metrics.json of every completed job under the sweep directory, keyed by the job directory name."""
    found = {}
    for done in sorted(sweep_dir.rglob(DONE_MARKER)):
        metrics = done.parent / "metrics.json"
        if metrics.exists():
            found[str(done.parent.relative_to(sweep_dir))] = json.loads(metrics.read_text())
    return found


class MlflowSweepCallback(Callback):
    def __init__(self) -> None:
        self.tracker: Tracker | None = None
        self.started = sweep_outcome.now()

    def on_multirun_start(self, config: DictConfig, **kwargs: Any) -> None:
        sweep_dir = Path(config.hydra.sweep.dir)
        self.started = sweep_outcome.now()
        sweep_dir.mkdir(parents=True, exist_ok=True)
        (sweep_dir / PARENT_RUN_FILE).unlink(missing_ok=True)
        if not config.tracking.enabled:
            return
        params = dict(config.hydra.sweeper.get("params") or {})
        overrides = list(config.hydra.overrides.task)
        self.tracker = Tracker(
            uri=config.tracking.uri,
            experiment=config.tracking.experiment,
            run_name=f"sweep:{sweep_dir.name}",
            tags={**env_summary(), "refusalbench.sweep_dir": str(sweep_dir), "refusalbench.kind": "sweep",
                  "refusalbench.sweep_overrides": " ".join(overrides), "refusalbench.sweep_params": json.dumps(params)},
        )
        (sweep_dir / PARENT_RUN_FILE).write_text(self.tracker.run_id)
        termination.on_terminate(self._killed)
        log.info("MLflow parent run %s for sweep %s", self.tracker.run_id, sweep_dir)

    def on_multirun_end(self, config: DictConfig, **kwargs: Any) -> None:
        sweep_dir = Path(config.hydra.sweep.dir)
        jobs = collect_job_metrics(sweep_dir)
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
                self.tracker.set_tags({"refusalbench.failed_jobs": f"{len(outcome.failed)} of {len(outcome.jobs)}",
                                       "refusalbench.sweep_outcome": outcome.summary()})
                if report_dir.exists():
                    self.tracker.log_artifacts([report_dir])
                self.tracker.finish(status)

    def _killed(self) -> None:
        if self.tracker is not None:
            self.tracker.set_tags({"refusalbench.sweep_outcome": "terminated by a signal before the sweep ended"})
            self.tracker.finish("KILLED")
