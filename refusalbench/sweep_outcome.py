"""How a sweep ended: which of its jobs failed, said in one line and in the exit status.

A job that fails writes a `FAILED_MARKER` file with its error into its directory; a job that
completes writes the `DONE` marker; a dry-run job writes `PLANNED_MARKER`. The jobs of the current
sweep are the job directories whose Hydra config was written since the sweep started (a re-run of a
sweep also rewrites the config of the jobs it skips as finished).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

FAILED_MARKER = "FAILED"
PLANNED_MARKER = "PLANNED"  # a dry-run job: planned, nothing run; neither completed nor failed
EXIT_CODE = 1

#: the outcome of the sweep this process ran (set by the sweep callback, read by the entry point)
last_outcome: Optional[SweepOutcome] = None


@dataclass
class SweepOutcome:
    sweep_dir: Path
    jobs: list[Path] = field(default_factory=list)
    failed: list[Path] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failed

    def summary(self) -> str:
        """One paragraph: all jobs completed, or "N of M jobs failed (see …)" with each distinct error once."""
        if self.ok:
            return f"All {len(self.jobs)} job(s) of the sweep completed ({self.sweep_dir})."
        by_reason: dict[str, list[str]] = {}
        for job in self.failed:
            marker = job / FAILED_MARKER
            reason = " ".join(marker.read_text().split()) if marker.exists() else "ended without completing"
            by_reason.setdefault(reason.rstrip("."), []).append(job.name)
        shown = []
        for reason, names in list(by_reason.items())[:3]:
            who = names[0] if len(names) == 1 else f"{len(names)} jobs ({names[0]}, …)"
            shown.append(f"{who}: {reason}")
        more = f"; and {len(by_reason) - 3} other error(s)" if len(by_reason) > 3 else ""
        return (
            f"{len(self.failed)} of {len(self.jobs)} jobs failed (see {FAILED_MARKER} and the log in each job "
            f"directory under {self.sweep_dir}). "
            + "; ".join(shown)
            + more
            + ". Run the same command again to retry only the failed jobs."
        )


def record_failure(job_dir: Path, message: str) -> None:
    """Mark a sweep job as failed, with its error."""
    Path(job_dir).mkdir(parents=True, exist_ok=True)
    (Path(job_dir) / FAILED_MARKER).write_text(message.strip() + "\n")


def clear_failure(job_dir: Path) -> None:
    (Path(job_dir) / FAILED_MARKER).unlink(missing_ok=True)


def collect(sweep_dir: Path, started: float, done_marker: str) -> SweepOutcome:
    """The jobs of the sweep started at `started` (epoch seconds) and those of them that failed."""
    outcome = SweepOutcome(Path(sweep_dir))
    for config in sorted(Path(sweep_dir).rglob("config.yaml")):
        if config.parent.name != ".hydra":
            continue
        job = config.parent.parent
        if config.stat().st_mtime + 1.0 < started:
            continue  # a job of an earlier sweep in the same directory
        outcome.jobs.append(job)
        if not (job / done_marker).exists() and not (job / PLANNED_MARKER).exists():
            outcome.failed.append(job)
    return outcome


def now() -> float:
    return time.time()
