"""Row and table contracts shared by the stages: column names and the helpers that read table cells.

Stage tables round-trip through parquet, so a list cell comes back as a numpy array, a missing
value as None, NaN or pandas' NA; these helpers give every reader the same plain Python view.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

# identifiers
CANDIDATE_ID = "candidate_id"
SOURCE_ID = "source_id"
ITEM_ID = "id"

# multi-passage evidence: base and candidate tables carry `passages` / `original_passages`,
# benchmark, outputs and labels tables carry `grounding` (the released RefusalBench schema)
BASE_PASSAGES = "passages"
ORIGINAL_PASSAGES = "original_passages"
GROUNDING = "grounding"


def is_missing(value: Any) -> bool:
    """True for None, NaN and pandas' NA; never for a list or array (even an empty one)."""
    if value is None:
        return True
    if isinstance(value, (list, tuple, dict, set)) or getattr(value, "ndim", 0) > 0:
        return False
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def as_list(value: Any) -> list:
    """A Python list from a list cell (numpy arrays from parquet included); a bare string is one
    element; a missing cell is []."""
    if is_missing(value):
        return []
    if isinstance(value, str):
        return [value]
    if hasattr(value, "tolist"):
        value = value.tolist()
    try:
        return list(value)
    except TypeError:
        return [value]


def plain(value: Any) -> Any:
    """numpy arrays and scalars (as parquet returns them) → Python lists and scalars; others unchanged."""
    if hasattr(value, "tolist"):
        return value.tolist()
    return value


def plain_row(row: dict) -> dict:
    """A table record with every cell made plain."""
    return {k: plain(v) for k, v in row.items()}


def has_passages(row: dict, column: str = GROUNDING) -> bool:
    """A multi-passage row: it carries a passage list in `column`."""
    return not is_missing(row.get(column))


def table_has_passages(table: pd.DataFrame, column: str = GROUNDING) -> bool:
    """A multi-passage table: `column` exists and holds passages in at least one row."""
    return column in table.columns and not table[column].map(is_missing).all()


def is_multi_passage_table(table: pd.DataFrame) -> bool:
    """Multi-passage data, whatever the table: base (`passages`), candidates (`original_passages`), or
    benchmark / outputs / labels whose `grounding` holds passages."""
    columns = table.columns
    return BASE_PASSAGES in columns or ORIGINAL_PASSAGES in columns or table_has_passages(table, GROUNDING)
