"""How a sweep ended: which of its jobs failed, said in one line and in the exit status.

A job that fails writes a `FAILED_MARKER` file with its error into its directory; a job that
completes writes the `DONE` marker. The jobs of the current sweep are the job directories whose
Hydra config was written since the sweep started (a re-run of a sweep also rewrites the config of
the jobs it skips as finished).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

FAILED_MARKER = "FAILED"
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
        """One line: all jobs completed, or "N of M jobs failed (see …)" with the first errors."""
        if self.ok:
            return f"All {len(self.jobs)} job(s) of the sweep completed ({self.sweep_dir})."
        shown = []
        for job in self.failed[:3]:
            marker = job / FAILED_MARKER
            reason = marker.read_text().strip().splitlines()[0] if marker.exists() else "ended without completing"
            shown.append(f"{job.name}: {reason[:300].rstrip('.')}")
        more = f"; and {len(self.failed) - 3} more" if len(self.failed) > 3 else ""
        return (
            f"{len(self.failed)} of {len(self.jobs)} jobs failed (see {FAILED_MARKER} and the log in each job "
            f"directory under {self.sweep_dir}): "
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
        if not (job / done_marker).exists():
            outcome.failed.append(job)
    return outcome


def now() -> float:
    return time.time()
