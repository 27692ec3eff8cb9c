"""How a user mistake ends a run: one paragraph on stderr, exit status 2, nothing half-made left behind.

The paragraph is printed once; the run's log file (when Hydra has opened one) gets the same text,
but the console does not see it a second time as a log line.
"""

from __future__ import annotations

import difflib
import functools
import logging
import shutil
import sys
from pathlib import Path
from typing import Callable, Optional, Sequence

from refusalbench.errors import UserError

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


def tool_main(main: Callable[[Optional[Sequence[str]]], int]) -> Callable[[Optional[Sequence[str]]], int]:
    """A command-line tool's `main(argv) -> status` that ends on a UserError with its paragraph and EXIT_CODE."""

    @functools.wraps(main)
    def run(argv: Optional[Sequence[str]] = None) -> int:
        try:
            return main(argv)
        except UserError as exc:
            print_error(exc)
            return EXIT_CODE

    return run


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


def composition_error_text(exc: BaseException) -> str:
    """One paragraph for an error Hydra or OmegaConf raised while composing the config.

    Hydra prints such errors on several lines, adds the OmegaConf node details and may suggest a
    ``+`` override that only leads to a second error; this keeps each message without those details and
    adds the names that exist where an unknown name was used, with a "did you mean".
    """
    from omegaconf import DictConfig

    parts: list[str] = []
    seen: set[int] = set()
    node: BaseException | None = exc
    while node is not None and id(node) not in seen and len(parts) < 3:
        seen.add(id(node))
        lines = [ln.strip().replace("\\'", "'") for ln in str(node).splitlines() if ln.strip()]
        lines = [ln for ln in lines if not ln.startswith(("To append", "full_key:", "reference_type", "object_type"))]
        message = " ".join(lines).rstrip(".")
        if message and message not in parts:
            parts.append(message)
        node = node.__cause__ or node.__context__
    text = ": ".join(parts) or type(exc).__name__
    key, parent = _unknown_key_and_parent(exc)
    if key and isinstance(parent, DictConfig):
        names = [str(k) for k in parent.keys()]
        close = difflib.get_close_matches(str(key), names, n=1, cutoff=0.6)
        where = getattr(parent, "_get_full_key", lambda _k: "")("") or "there"
        text += f" (names under {where}: {', '.join(names)})" if names else ""
        text += f"; did you mean {close[0]!r}?" if close else ""
    end = "" if text.endswith("?") else "."
    return f"The configuration cannot be composed: {text}{end} Nothing was run or tracked."


def _unknown_key_and_parent(exc: BaseException):
    node: BaseException | None = exc
    for _ in range(3):
        if node is None:
            break
        if getattr(node, "key", None) is not None and getattr(node, "parent_node", None) is not None:
            return node.key, node.parent_node
        node = node.__cause__ or node.__context__
    return None, None
