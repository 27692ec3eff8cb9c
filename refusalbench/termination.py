"""SIGTERM as a clean stop: `timeout`, `kill` or a scheduler's preemption end the run like Ctrl-C.

Python's default for SIGTERM kills the process at once, leaving the MLflow run RUNNING forever and
managed model servers orphaned. `install()` turns the signal into a `Terminated` exception, so the
``finally`` blocks on the way out stop servers and mark tracked runs KILLED; cleanups registered
with `on_terminate` (e.g. a sweep's parent run) run when the exception reaches the entry point.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from typing import Callable

log = logging.getLogger(__name__)

EXIT_CODE = 128 + signal.SIGTERM  # the shell's convention for "ended by SIGTERM"
_cleanups: list[Callable[[], None]] = []


class Terminated(SystemExit):
    """The process received SIGTERM. A SystemExit, so `except Exception` blocks let it through and asyncio re-raises
    it from a callback or a task step: the signal handler runs wherever the main thread is, and asyncio logs and
    swallows any other BaseException raised inside a callback, which left the run going with SIGTERM ignored."""


def _raise_terminated(signum: int, _frame: object) -> None:
    signal.signal(signum, signal.SIG_IGN)  # a second SIGTERM during cleanup must not interrupt it
    raise Terminated(f"received signal {signal.Signals(signum).name}")


def install() -> None:
    """Make SIGTERM raise `Terminated` in the main thread (no-op elsewhere)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _raise_terminated)


def on_terminate(cleanup: Callable[[], None]) -> None:
    """Run `cleanup` if the process is terminated (see `run_cleanups`)."""
    _cleanups.append(cleanup)


def forget(cleanup: Callable[[], None]) -> None:
    with contextlib.suppress(ValueError):
        _cleanups.remove(cleanup)


def run_cleanups() -> None:
    """Run and forget every registered cleanup; one failing does not stop the others."""
    while _cleanups:
        cleanup = _cleanups.pop()
        try:
            cleanup()
        except Exception as exc:  # noqa: BLE001 - best effort on the way out
            log.warning("cleanup after termination failed: %s", exc)
