"""Writing a benchmark in the released RefusalBench schema (parquet + JSONL).

Lists are stored natively and ``verifier_votes`` as an object (a struct in parquet), so
``datasets.load_dataset("parquet" | "json", data_files=...)`` and ``load_benchmark`` read back the
same records.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from refusalbench.data.records import DataError, RecordError
from refusalbench.data.released import CORE_COLUMNS, GARAGE_ANNOTATIONS, MULTI_COLUMNS, votes

REQUIRED = ["id", "perturbation_class", "intensity", "perturbed_query"]


def _value(value: Any) -> Any:
    if hasattr(value, "tolist"):  # numpy arrays and scalars
        value = value.tolist()
    if isinstance(value, float) and math.isnan(value):
        return None
    if value is pd.NA or value is pd.NaT:
        return None
    return value


def benchmark_records(df: pd.DataFrame) -> tuple[list[str], list[dict]]:
    """The released column names present for ``df`` and its rows as plain records in that order."""
    missing = [c for c in REQUIRED if c not in df.columns]
    if missing:
        raise DataError(f"Cannot write a benchmark without the column(s) {', '.join(missing)}.")
    columns = list(CORE_COLUMNS)
    if "grounding" in df.columns:
        columns += MULTI_COLUMNS
    columns += [c for c in GARAGE_ANNOTATIONS if c in df.columns]
    records = []
    for row in df.to_dict(orient="records"):
        record = {c: _value(row.get(c)) for c in columns}
        try:
            record["verifier_votes"] = votes(record["verifier_votes"])
        except RecordError as exc:
            raise DataError(f"Benchmark item {record['id']!r}: {exc}") from None
        records.append(record)
    return columns, records


def _arrow_table(columns: list[str], records: list[dict]) -> pa.Table:
    if not records:
        return pa.table({c: pa.array([], pa.null()) for c in columns})
    table = pa.Table.from_pylist(records)
    votes_type = table.schema.field("verifier_votes").type
    if pa.types.is_struct(votes_type) and votes_type.num_fields == 0:  # no votes at all: parquet has no empty struct
        table = table.set_column(table.schema.get_field_index("verifier_votes"), "verifier_votes", pa.nulls(len(table)))
    return table


def write_benchmark(df: pd.DataFrame, path_without_suffix: str | Path) -> tuple[Path, Path]:
    """Write ``df`` as ``<path>.parquet`` and ``<path>.jsonl`` in the released schema; return both paths."""
    base = Path(path_without_suffix)
    if base.suffix in (".parquet", ".jsonl"):
        base = base.with_suffix("")
    base.parent.mkdir(parents=True, exist_ok=True)
    columns, records = benchmark_records(df)
    parquet_path = base.with_name(base.name + ".parquet")
    jsonl_path = base.with_name(base.name + ".jsonl")
    tmp = parquet_path.with_name(parquet_path.name + ".tmp")
    pq.write_table(_arrow_table(columns, records), tmp)
    tmp.replace(parquet_path)
    tmp = jsonl_path.with_name(jsonl_path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for record in records:
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
    tmp.replace(jsonl_path)
    return parquet_path, jsonl_path
