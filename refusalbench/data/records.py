"""Record validation, skip accounting and the result every loader returns.

A bad record (missing field, wrong type, empty text) raises `RecordError` inside a parser; the
loader catches it, and `SkipLog` counts it and keeps the first few reasons. With
``dataset.strict=true`` the log turns the skips into one `DataError` at the end.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from refusalbench.errors import UserError

log = logging.getLogger(__name__)

MAX_REASONS = 10  # how many skip reasons are kept and shown


class DataError(UserError, ValueError):
    """A dataset that cannot be used: missing file, unreadable, empty, or bad records in strict mode."""


class RecordError(ValueError):
    """One record that cannot be used; the message says why."""


@dataclass
class LoadResult:
    """A loaded table and what was left out on the way."""

    table: pd.DataFrame
    skipped: int = 0  # bad records (missing fields, wrong types, empty text)
    reasons: list[str] = field(default_factory=list)  # the first few skip reasons
    not_answer_bearing: int = 0  # NQ: valid questions whose passage holds no answer string
    fingerprint: str = ""  # sha256 of the table's canonical content
    counts: dict[str, int] = field(default_factory=dict)  # other tallies (read, ineligible, dropped...)


class SkipLog:
    """Counts skipped records and keeps the first MAX_REASONS reasons."""

    def __init__(self, source: str, strict: bool = False) -> None:
        self.source = source
        self.strict = strict
        self.count = 0
        self.reasons: list[str] = []

    def skip(self, where: str, reason: str) -> None:
        self.count += 1
        if len(self.reasons) < MAX_REASONS:
            self.reasons.append(f"{where}: {reason}")

    def finish(self) -> None:
        """Log the skips, or raise one DataError in strict mode."""
        if not self.count:
            return
        listed = "; ".join(self.reasons)
        more = f" (first {len(self.reasons)} shown)" if self.count > len(self.reasons) else ""
        if self.strict:
            raise DataError(
                f"{self.count} bad record(s) in {self.source}{more}: {listed}. "
                "Fix the data, or set dataset.strict=false to skip bad records."
            )
        log.warning("Skipped %d bad record(s) in %s%s: %s", self.count, self.source, more, listed)


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def text(record: dict, key: str) -> str:
    """``record[key]`` as a non-empty, stripped string, else RecordError."""
    value = record.get(key)
    if value is None:
        raise RecordError(f"missing field {key!r}")
    if not isinstance(value, str):
        raise RecordError(f"{key!r} is not a string (got {_kind(value)})")
    value = value.strip()
    if not value:
        raise RecordError(f"{key!r} is empty")
    return value


def optional_text(record: dict, key: str) -> str | None:
    """``record[key]`` stripped, or None when absent/empty; RecordError when not a string."""
    value = record.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise RecordError(f"{key!r} is not a string (got {_kind(value)})")
    return value.strip() or None


def string_list(value: Any, key: str, allow_str: bool = False) -> list[str]:
    """A list of strings (a single string too when ``allow_str``); RecordError for other types."""
    if value is None:
        raise RecordError(f"missing field {key!r}")
    if allow_str and isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)):
        raise RecordError(f"{key!r} is not a list (got {_kind(value)})")
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise RecordError(f"{key!r}[{i}] is not a string (got {_kind(item)})")
    return list(value)


def answers(value: Any, key: str) -> list[str]:
    """Answer strings (list or single string), stripped, empty ones dropped; at least one."""
    kept = [a.strip() for a in string_list(value, key, allow_str=True) if a.strip()]
    if not kept:
        raise RecordError(f"{key!r} holds no non-empty answer")
    return kept


def int_list(value: Any, key: str) -> list[int]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise RecordError(f"{key!r} is not a list of integers (got {_kind(value)})")
    return list(value)


def normalise(s: str) -> str:
    """Case- and whitespace-insensitive form used for answer matching."""
    return " ".join(s.split()).casefold()


def contains_answer(passage: str, answer_strings: list[str]) -> bool:
    """True when any answer string occurs in the passage (case- and whitespace-insensitive)."""
    hay = normalise(passage)
    return any(normalise(a) in hay for a in answer_strings if a.strip())


def content_id(prefix: str, text_value: str) -> str:
    """A stable id from content: ``<prefix>-<sha1[:10]>``."""
    return f"{prefix}-{hashlib.sha1(text_value.encode('utf-8')).hexdigest()[:10]}"


def record_json(record: dict) -> str:
    """The original record as JSON text (the ``source_record`` column)."""
    return json.dumps(record, ensure_ascii=False, default=str)


def _plain(value: Any) -> Any:
    if hasattr(value, "tolist"):  # numpy arrays and scalars
        return value.tolist()
    if isinstance(value, float) and value != value:  # NaN
        return None
    return value


def fingerprint(table: pd.DataFrame) -> str:
    """sha256 of the table's rows as canonical JSON (column names sorted)."""
    digest = hashlib.sha256()
    for row in table.to_dict(orient="records"):
        canonical = {k: _plain(v) for k, v in row.items()}
        digest.update(json.dumps(canonical, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


def finish(table: pd.DataFrame, skips: SkipLog, empty_hint: str = "", **extra: Any) -> LoadResult:
    """Close the skip log (raising in strict mode) and wrap the table in a LoadResult.

    An empty table is a DataError that says what removed the records (``empty_hint`` adds
    the loader's own tallies, e.g. how many were ineligible).
    """
    skips.finish()
    if table.empty:
        why = f" {skips.count} bad record(s) were skipped: {'; '.join(skips.reasons)}." if skips.count else ""
        raise DataError(f"No usable records in {skips.source}.{why} {empty_hint}".strip())
    return LoadResult(
        table=table, skipped=skips.count, reasons=list(skips.reasons), fingerprint=fingerprint(table), **extra
    )
