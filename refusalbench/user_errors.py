"""How a user mistake ends a run: one paragraph on stderr, exit status 2, nothing half-made left behind.

The paragraph is printed once; the run's log file (when Hydra has opened one) gets the same text,
but the console does not see it a second time as a log line.
"""

from __future__ import annotations

import logging
import shutil
import sys
from pathlib import Path

EXIT_CODE = 2

log = logging.getLogger("refusalbench")


def print_error(exc: BaseException) -> None:
    """Print the error as one paragraph on stderr and append it to the run's log file(s)."""
    text = " ".join(str(exc).split())
    print(f"refusalbench: error: {text}", file=sys.stderr, flush=True)
    record = log.makeRecord(log.name, logging.ERROR, __file__, 0, "%s", (text,), None)
    for handler in logging.getLogger().handlers + log.handlers:
        if isinstance(handler, logging.FileHandler):
            handler.handle(record)


def remove_unused_run_dir(run_dir: Path, stop_at: Path) -> None:
    """Delete `run_dir` if it holds only Hydra's bookkeeping (.hydra/, *.log), then its empty parents.

    Used when a run ends on a configuration or data mistake before any stage ran, so a typo does not
    leave an empty run directory (or a new `outputs/` tree) behind. `stop_at` bounds the climb.
    """
    run_dir = Path(run_dir).resolve()
    if run_dir == Path.cwd().resolve() or run_dir in Path.cwd().resolve().parents:
        return
    if not run_dir.is_dir() or any(p.name != ".hydra" and p.suffix != ".log" for p in run_dir.iterdir()):
        return
    shutil.rmtree(run_dir, ignore_errors=True)
    stop_at = Path(stop_at).resolve()
    parent = run_dir.parent
    while parent != stop_at and stop_at in parent.parents and parent.is_dir() and not any(parent.iterdir()):
        parent.rmdir()
        parent = parent.parent
