"""Reading and writing the stage tables (parquet, with a small JSONL preview beside each)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pandas as pd

from refusalbench.errors import UserError

log = logging.getLogger(__name__)

PREVIEW_ROWS = 20


class TableError(UserError, ValueError):
    """A table file that cannot be read as a table."""


def _jsonable(value):
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    return value


def write_table(df: pd.DataFrame, path: str | Path, preview: bool = True) -> Path:
    """Write `df` as parquet at `path` (atomically) and a JSONL preview of its first rows.

    Dict-valued cells are stored as JSON text so parquet never has to infer a struct schema
    from heterogeneous dicts; lists of scalars are stored natively.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    out = df.copy()
    for col in out.columns:
        if out[col].dtype == object and out[col].map(lambda v: isinstance(v, dict)).any():
            out[col] = out[col].map(_jsonable)
    tmp = path.with_suffix(path.suffix + ".tmp")
    out.to_parquet(tmp, index=False)
    tmp.replace(path)
    if preview:
        out.head(PREVIEW_ROWS).to_json(
            path.with_suffix(".preview.jsonl"), orient="records", lines=True, force_ascii=False
        )
    return path


def read_table(path: str | Path) -> pd.DataFrame:
    """Read a parquet, JSONL, JSON or CSV table; a clear TableError if it is missing or unreadable."""
    path = Path(path)
    if not path.exists():
        raise TableError(f"Table file {path} does not exist.")
    suffix = path.suffix.lower()
    try:
        if suffix == ".parquet":
            return pd.read_parquet(path)
        if suffix in (".jsonl", ".ndjson"):
            return pd.read_json(path, lines=True, dtype=False)
        if suffix == ".json":
            return pd.read_json(path, dtype=False)
        if suffix == ".csv":
            return pd.read_csv(path)
    except (ValueError, OSError) as exc:  # pyarrow and pandas raise subclasses of these
        raise TableError(f"Cannot read table {path}: {exc}") from exc
    raise TableError(f"Unsupported table format {suffix!r} for {path}; use .parquet, .jsonl, .json or .csv.")
