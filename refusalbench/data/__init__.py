"""Data sources: base questions for generation and released benchmarks for evaluation.

``dataset.kind`` selects the source:

- ``nq`` / ``nq_base`` — NaturalQuestions, single passage (NQ-open oracle or base format);
- ``nq_multi`` — multi-passage NQ (gold passage + distractors from other questions);
- ``garage`` — GaRAGe, curated to exactly ``passages_per_question`` passages;
- ``refusalbench_nq`` / ``refusalbench_garage`` — a released (or written) benchmark.

Local files are read through the `datasets` library and always work offline; a hub id is used
only when ``dataset.path`` is unset.
"""

from __future__ import annotations

from refusalbench.config import DatasetConfig
from refusalbench.data.garage import load_garage
from refusalbench.data.nq import load_nq
from refusalbench.data.nq_multi import load_nq_multi
from refusalbench.data.records import DataError, LoadResult
from refusalbench.data.released import load_released
from refusalbench.data.writer import write_benchmark

SOURCE_KINDS = ("nq", "nq_base", "nq_multi", "garage")
BENCHMARK_KINDS = ("refusalbench_nq", "refusalbench_garage")
MULTI_SOURCE_KINDS = ("nq_multi", "garage")

__all__ = [
    "BENCHMARK_KINDS",
    "DataError",
    "LoadResult",
    "SOURCE_KINDS",
    "is_multi_passage",
    "load_base",
    "load_benchmark",
    "write_benchmark",
]


def _check_kind(cfg: DatasetConfig) -> None:
    if cfg.kind not in SOURCE_KINDS + BENCHMARK_KINDS:
        raise DataError(
            f"Unknown dataset.kind {cfg.kind!r}; expected one of {', '.join(SOURCE_KINDS + BENCHMARK_KINDS)}."
        )
    if cfg.kind in ("nq", "nq_base") and cfg.multi_passage:
        raise DataError(
            f"dataset.multi_passage=true does not fit dataset.kind={cfg.kind} (single passage); "
            "use dataset=nq_multi for multi-passage NQ."
        )


def is_multi_passage(cfg: DatasetConfig) -> bool:
    """Whether the dataset's items carry several passages (GaRAGe-shaped) instead of one context.

    Source kinds decide by kind; a released benchmark is multi-passage for ``refusalbench_garage``
    or when ``dataset.multi_passage=true`` (a written multi-passage NQ benchmark).
    """
    _check_kind(cfg)
    if cfg.kind in BENCHMARK_KINDS:
        return cfg.kind == "refusalbench_garage" or cfg.multi_passage
    return cfg.kind in MULTI_SOURCE_KINDS


def load_base(cfg: DatasetConfig) -> LoadResult:
    """The base-question table (base.parquet schema) of a source dataset."""
    _check_kind(cfg)
    if cfg.kind in BENCHMARK_KINDS:
        raise DataError(
            f"dataset.kind={cfg.kind} is a released benchmark, not a source of base questions; "
            "evaluate it (pipeline=evaluate) or choose a source dataset (nq, nq_multi, garage) to generate."
        )
    if cfg.kind == "garage":
        return load_garage(cfg)
    if cfg.kind == "nq_multi":
        return load_nq_multi(cfg)
    return load_nq(cfg)


def load_benchmark(cfg: DatasetConfig) -> LoadResult:
    """A released (or previously written) benchmark as the benchmark table."""
    _check_kind(cfg)
    if cfg.kind not in BENCHMARK_KINDS:
        raise DataError(
            f"dataset.kind={cfg.kind} is a source of base questions, not a benchmark; use "
            "dataset=refusalbench_nq or dataset=refusalbench_garage (with dataset.path=FILE for a local file)."
        )
    return load_released(cfg, multi=is_multi_passage(cfg))
