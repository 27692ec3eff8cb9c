"""Reading raw records: local JSONL/JSON/parquet files, or a Hugging Face hub id through `datasets`.

Local files always work offline and never import `datasets` (seconds of start-up): JSON is read with
the standard library, line by line, so every value comes back exactly as written (``datasets`` would
store a column whose type varies as JSON text and turn the string "1984" into the number 1984) and
an unparsable line becomes one counted bad record; parquet is read with pyarrow.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from refusalbench.config import DatasetConfig
from refusalbench.data.records import DataError, SkipLog

log = logging.getLogger(__name__)

FORMATS = {".jsonl": "json", ".ndjson": "json", ".json": "json", ".parquet": "parquet"}

#: (where, record) pairs; ``where`` is "record N" (1-based) for messages.
Records = list[tuple[str, dict]]


def load_records(cfg: DatasetConfig) -> tuple[Records, SkipLog]:
    """All records of ``dataset.path`` (or ``dataset.hub_id`` when no path is set)."""
    if cfg.path:
        path = Path(cfg.path).expanduser()
        skips = SkipLog(str(path), strict=cfg.strict)
        rows = _read_local(path, skips)
    elif cfg.hub_id:
        skips = SkipLog(f"{cfg.hub_id} (split {cfg.split})", strict=cfg.strict)
        rows = _read_hub(cfg.hub_id, cfg.split)
    else:
        raise DataError(
            f"No data source for dataset kind {cfg.kind!r}: "
            "set dataset.path=FILE (a JSONL, JSON or parquet file, or a folder of them)."
        )
    records: Records = []
    for i, row in enumerate(rows, start=1):
        if isinstance(row, dict):
            records.append((f"record {i}", row))
        else:
            skips.skip(f"record {i}", str(row))
    log.info("Read %d record(s) from %s", len(rows), skips.source)
    return records, skips


def _files(path: Path) -> tuple[list[Path], str]:
    if not path.exists():
        raise DataError(f"Dataset file {path} does not exist (resolved to {path.resolve()}); check dataset.path.")
    files = sorted(p for p in path.iterdir() if p.suffix.lower() in FORMATS) if path.is_dir() else [path]
    if not files:
        raise DataError(f"Dataset folder {path} holds no .jsonl, .json or .parquet file.")
    formats = {FORMATS.get(p.suffix.lower()) for p in files}
    if None in formats:
        raise DataError(f"Unsupported dataset file {path}: use a .jsonl, .json or .parquet file.")
    if len(formats) > 1:
        raise DataError(f"Dataset folder {path} mixes JSON and parquet files; keep one format per folder.")
    return files, formats.pop()


def _read_local(path: Path, skips: SkipLog) -> list[Any]:
    files, fmt = _files(path)
    if fmt == "json":
        return [row for p in files for row in _read_json_stdlib(p)]
    import pyarrow.parquet as pq

    rows: list[Any] = []
    for p in files:
        try:
            rows += pq.read_table(p).to_pylist()
        except Exception as exc:  # arrow raises several types for a damaged or foreign file
            raise DataError(f"Cannot read parquet dataset {p}: {type(exc).__name__}: {exc}") from exc
    return rows


def _read_json_stdlib(path: Path) -> list[Any]:
    """Rows of a JSON Lines file (or a JSON array); a bad line becomes its error message."""
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"Cannot read dataset file {path}: {exc}") from exc
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(raw)
        except json.JSONDecodeError:
            data = None  # maybe JSON Lines with a .json suffix
        if isinstance(data, list):
            return [row if isinstance(row, dict) else "not a JSON object" for row in data]
        if isinstance(data, dict):
            return [data]
    rows: list[Any] = []
    for number, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            why = exc.msg.rstrip(": ").removesuffix(" at")  # "Unterminated string starting at"
            rows.append(f"line {number} of {path.name} is not valid JSON ({why} at column {exc.colno})")
            continue
        rows.append(row if isinstance(row, dict) else "not a JSON object")
    return rows


def _read_hub(hub_id: str, split: str) -> list[dict]:
    import datasets

    try:
        ds = datasets.load_dataset(hub_id, split=split)
    except Exception as exc:  # no network, unknown id, gated dataset, unknown split ...
        first = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else ""
        raise DataError(
            f"Could not load {hub_id!r} (split {split!r}) from the Hugging Face Hub ({type(exc).__name__}: {first}). "
            "Without network access, download the dataset where you have it and pass "
            "dataset.path=FILE (a JSONL, JSON or parquet file, or a folder of them)."
        ) from exc
    return ds.to_list()
