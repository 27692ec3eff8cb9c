"""Figures drawn once per content: a figure whose inputs are unchanged is copied, not drawn again.

Drawing the report's figures is most of a report's time (and matplotlib's import a third of a
second), while a rerun on cached model calls has the same metrics and so the same figures. Each
figure is stored under a key made of the drawing function, its inputs (all but the output path), the
matplotlib version and the source of the drawing code, so a change to any of them draws anew. Agg
output is deterministic, so a copied figure has the same bytes as one drawn again.

The cache is used only inside `use_figure_cache(directory)`; elsewhere every figure is drawn.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import hashlib
import inspect
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from importlib import metadata
from pathlib import Path
from typing import Any, Optional

_SETTING: contextvars.ContextVar[Optional[tuple[Path, bool, bool]]] = contextvars.ContextVar(
    "figure_cache", default=None
)


@contextlib.contextmanager
def use_figure_cache(directory: Optional[Path], read: bool = True, write: bool = True) -> Iterator[None]:
    """Within the block, figures drawn before are copied from `directory` (if `read`); new ones are
    stored there (if `write`). The modes follow the response cache's (`cache.mode`)."""
    token = _SETTING.set(None if directory is None else (Path(directory), read, write))
    try:
        yield
    finally:
        _SETTING.reset(token)


def _plain(value: Any) -> Any:
    """A JSON-ready form of a figure input that changes whenever the input does."""
    import numpy as np
    import pandas as pd

    if isinstance(value, (pd.DataFrame, pd.Series)):
        frame = value.to_frame() if isinstance(value, pd.Series) else value
        return {
            "frame": frame.to_json(orient="split", date_format="iso", default_handler=repr, double_precision=15),
            "dtypes": [str(t) for t in frame.dtypes],
            "names": [repr(frame.index.names), repr(frame.columns.names)],
        }
    if isinstance(value, np.ndarray):
        return {"array": value.tolist(), "dtype": str(value.dtype)}
    if isinstance(value, dict):
        return {"dict": [[_plain(k), _plain(v)] for k, v in value.items()]}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return repr(value)


@functools.cache
def _code_version(module_name: str) -> str:
    """matplotlib's version and the source of the drawing module and of plots.py (which saves every figure)."""
    digest = hashlib.sha256(metadata.version("matplotlib").encode())
    for name in dict.fromkeys((module_name, "refusalbench.report.plots")):
        digest.update(Path(sys.modules[name].__file__).read_bytes())
    return digest.hexdigest()


def figure_key(draw: Callable, arguments: dict[str, Any]) -> str:
    """The cache key of drawing `draw` with `arguments` (the output path left out)."""
    text = json.dumps([draw.__module__, draw.__qualname__, _code_version(draw.__module__), _plain(arguments)])
    return hashlib.sha256(text.encode()).hexdigest()


def cached_figure(draw: Callable[..., Optional[Path]]) -> Callable[..., Optional[Path]]:
    """Decorate a drawing function `draw(..., path, ...) -> path` (or None when there is nothing to draw)."""
    signature = inspect.signature(draw)

    @functools.wraps(draw)
    def wrapper(*args: Any, **kwargs: Any) -> Optional[Path]:
        setting = _SETTING.get()
        if setting is None:
            return draw(*args, **kwargs)
        directory, read, write = setting
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        path = Path(arguments.pop("path"))
        stored = directory / f"{figure_key(draw, arguments)}{path.suffix}"
        if read and stored.is_file():
            path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(stored, path)
            return path
        out = draw(*args, **kwargs)
        if out is not None and write:
            _store(Path(out), stored)
        return out

    return wrapper


def _store(drawn: Path, stored: Path) -> None:
    """Copy `drawn` into the cache atomically (a concurrent run never reads half a file).

    A cache that cannot be written (read-only, full) costs a redraw next time, nothing else.
    """
    try:
        stored.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=stored.parent, suffix=".part")
    except OSError:
        return
    os.close(fd)
    try:
        shutil.copyfile(drawn, tmp)
        os.replace(tmp, stored)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
