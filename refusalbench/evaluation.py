"""The evaluated-model task: which benchmark to read, how one item becomes a prompt, and the call keys.

Pure helpers shared by the evaluate stage, the judge (which shows the judge the same query) and the
dry-run planner; nothing here calls a model.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from refusalbench.config import EvaluateConfig, PromptVariant, RefusalBenchConfig
from refusalbench.errors import UserError
from refusalbench.prompts import render
from refusalbench.rows import GROUNDING, ITEM_ID, as_list, is_missing, table_has_passages
from refusalbench.tables import read_table

RELEASED_KINDS = ("refusalbench_nq", "refusalbench_garage")
#: Output-token guesses for dry-run estimates: a bare code or a short answer (+ the thinking budget).
ANSWER_TOKENS_ESTIMATE = 64
CONFIDENCE_TOKENS_ESTIMATE = 8


def load_benchmark_table(cfg: RefusalBenchConfig, run_dir: Path) -> tuple[pd.DataFrame, str]:
    """The benchmark to evaluate and where it came from: `evaluate.benchmark`, else the run
    directory's `benchmark.parquet`, else the released benchmark named by `dataset`."""
    if cfg.evaluate.benchmark:
        return read_table(cfg.evaluate.benchmark), cfg.evaluate.benchmark
    own = Path(run_dir) / "benchmark.parquet"
    if own.exists():
        return read_table(own), str(own)
    if cfg.dataset.kind in RELEASED_KINDS:
        from refusalbench.data import load_benchmark

        result = load_benchmark(cfg.dataset)
        return result.table, f"dataset {cfg.dataset.kind} ({cfg.dataset.path or cfg.dataset.hub_id})"
    raise UserError(
        "The evaluate stage has no benchmark to evaluate: set evaluate.benchmark=FILE, run the generation "
        f"stages first so that {own} exists, or use a released benchmark "
        f"(dataset=refusalbench_nq or dataset=refusalbench_garage, with dataset.path=FILE). "
        f"The current dataset kind is {cfg.dataset.kind!r}."
    )


def is_multi_passage(table: pd.DataFrame, dataset_multi: bool) -> bool:
    """Multi-passage when the table carries `grounding` passages (or the dataset says so)."""
    if dataset_multi and GROUNDING not in table.columns:
        raise UserError("dataset.multi_passage is true but the benchmark has no 'grounding' column of passages.")
    return table_has_passages(table) or (dataset_multi and GROUNDING in table.columns)


def check_columns(table: pd.DataFrame, multi: bool, source: str) -> None:
    """A UserError naming the columns a benchmark lacks, or its first duplicate id."""
    need = [ITEM_ID, GROUNDING] if multi else [ITEM_ID, "perturbed_context"]
    missing = [c for c in need if c not in table.columns]
    if "perturbed_query" not in table.columns and "query" not in table.columns:
        missing.append("perturbed_query")
    if missing:
        raise UserError(
            f"The benchmark from {source} lacks the column(s) {', '.join(missing)} "
            f"needed to evaluate {'multi' if multi else 'single'}-passage items."
        )
    if table[ITEM_ID].duplicated().any():
        dup = table.loc[table[ITEM_ID].duplicated(), ITEM_ID].iloc[0]
        raise UserError(f"The benchmark from {source} has duplicate item id {dup!r}; ids must be unique.")


def item_query(row: dict) -> str:
    """The (perturbed) query shown to the model: `perturbed_query`, else `query`."""
    for name in ("perturbed_query", "query"):
        value = row.get(name)
        if not is_missing(value) and str(value).strip():
            return str(value)
    raise UserError(f"Benchmark item {row.get(ITEM_ID)!r} has no perturbed_query or query.")


def template_name(multi: bool, variant: str) -> str:
    base = "evaluate_garage" if multi else "evaluate_nq"
    return base + ("_confidence" if variant == PromptVariant.confidence else "")


def build_prompt(row: dict, multi: bool, variant: str) -> str:
    """The evaluated-model prompt for one benchmark row."""
    name = template_name(multi, variant)
    if multi:
        return render(name, query=item_query(row), passages=[str(p) for p in as_list(row.get(GROUNDING))])
    context = row.get("perturbed_context")
    if is_missing(context):
        raise UserError(f"Benchmark item {row.get(ITEM_ID)!r} has no perturbed_context.")
    return render(name, query=item_query(row), context=str(context))


def expected_output_tokens(ev: EvaluateConfig, budget_tokens: int | None) -> int:
    """The output-token guess per call (for dry-run estimates and the layer's accounting)."""
    extra = CONFIDENCE_TOKENS_ESTIMATE if ev.prompt_variant == PromptVariant.confidence else 0
    return ANSWER_TOKENS_ESTIMATE + (budget_tokens or 0) + extra


def output_key(item_id: str, replicate: int) -> str:
    """The per-call key (item id, plus the replicate index when there are several)."""
    return str(item_id) if replicate == 0 else f"{item_id}#r{replicate}"
