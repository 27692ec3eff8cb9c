"""Writing metrics JSON (NaN/inf and numpy scalars become plain JSON); `refusalbench.metrics.document` reads it."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd


def jsonable(obj):
    """A copy of `obj` with numpy scalars as Python numbers and non-finite floats as None."""
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return jsonable(obj.tolist())
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return float(obj) if math.isfinite(obj) else None
    if isinstance(obj, np.bool_):
        return bool(obj)
    if obj is pd.NA or obj is pd.NaT:
        return None
    return obj


def save_metrics(metrics: dict, path: str | Path) -> Path:
    """Write `metrics` as indented JSON at `path` (atomically; parents created)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(
        json.dumps(jsonable(metrics), indent=1, allow_nan=False, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    tmp.replace(path)
    return path
