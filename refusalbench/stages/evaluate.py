"""Stage `evaluate`: ask the evaluated model every benchmark item; write `outputs.parquet`.

The benchmark comes from `evaluate.benchmark` (a file), else the run directory's `benchmark.parquet`
(from `select`), else the released benchmark named by `dataset` (`refusalbench_nq`/`_garage`).
Each item is rendered with the single- or multi-passage evaluation prompt (or its confidence
variant) and sent through the model-call layer with the run's reasoning budget. Every call's
answer, reasoning text, finish reason, usage, latency and failure is stored per item; a failed
item keeps its row with `error` set. A rerun repeats no finished call: the layer's cache has them.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any, Optional

import pandas as pd

from refusalbench.context import RunContext
from refusalbench.errors import UserError
from refusalbench.prompts import render, template_version

log = logging.getLogger(__name__)

RELEASED_KINDS = ("refusalbench_nq", "refusalbench_garage")
VARIANTS = ("default", "confidence")
#: Output-token guess for dry-run estimates: a bare code or a short answer (+ the thinking budget).
ANSWER_TOKENS_ESTIMATE = 64
CONFIDENCE_TOKENS_ESTIMATE = 8

#: Columns this stage adds to each benchmark row.
OUTPUT_COLUMNS = (
    "replicate", "model", "model_name", "reasoning_budget", "reasoning_effort", "prompt_variant",
    "prompt_version", "raw_output", "reasoning_text", "finish_reason", "truncated", "input_tokens",
    "output_tokens", "reasoning_tokens", "latency_s", "cached", "cost_usd", "error",
)


def as_list(value: Any) -> list:
    """A python list from a list, numpy array (parquet list cells) or bare string; None → []."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if hasattr(value, "tolist"):
        value = value.tolist()
    try:
        return list(value)
    except TypeError:
        return [value]


def is_missing(value: Any) -> bool:
    if value is None:
        return True
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):  # arrays and lists
        return False


def load_benchmark_table(ctx: RunContext) -> tuple[pd.DataFrame, str]:
    """The benchmark to evaluate and where it came from."""
    cfg = ctx.cfg
    if cfg.evaluate.benchmark:
        return ctx.read_table("benchmark", override=cfg.evaluate.benchmark), cfg.evaluate.benchmark
    if ctx.has_table("benchmark"):
        return ctx.read_table("benchmark"), str(ctx.table_path("benchmark"))
    if cfg.dataset.kind in RELEASED_KINDS:
        from refusalbench.data import load_benchmark

        result = load_benchmark(cfg.dataset)
        return result.table, f"dataset {cfg.dataset.kind} ({cfg.dataset.path or cfg.dataset.hub_id})"
    raise UserError(
        "The evaluate stage has no benchmark to evaluate: set evaluate.benchmark=FILE, run the generation "
        f"stages first so that {ctx.table_path('benchmark')} exists, or use a released benchmark "
        f"(dataset=refusalbench_nq or dataset=refusalbench_garage, with dataset.path=FILE). "
        f"The current dataset kind is {cfg.dataset.kind!r}."
    )


def is_multi_passage(table: pd.DataFrame, dataset_multi: bool) -> bool:
    """Multi-passage when the table carries `grounding` passages (or the dataset says so)."""
    has_grounding = "grounding" in table.columns and not table["grounding"].map(is_missing).all()
    if dataset_multi and "grounding" not in table.columns:
        raise UserError("dataset.multi_passage is true but the benchmark has no 'grounding' column of passages.")
    return has_grounding or (dataset_multi and "grounding" in table.columns)


def item_query(row: dict) -> str:
    """The (perturbed) query shown to the model: `perturbed_query`, else `query`."""
    for name in ("perturbed_query", "query"):
        value = row.get(name)
        if not is_missing(value) and str(value).strip():
            return str(value)
    raise UserError(f"Benchmark item {row.get('id')!r} has no perturbed_query or query.")


def template_name(multi: bool, variant: str) -> str:
    base = "evaluate_garage" if multi else "evaluate_nq"
    return base + ("_confidence" if variant == "confidence" else "")


def build_prompt(row: dict, multi: bool, variant: str) -> str:
    """The evaluated-model prompt for one benchmark row."""
    name = template_name(multi, variant)
    if multi:
        return render(name, query=item_query(row), passages=[str(p) for p in as_list(row.get("grounding"))])
    context = row.get("perturbed_context")
    if is_missing(context):
        raise UserError(f"Benchmark item {row.get('id')!r} has no perturbed_context.")
    return render(name, query=item_query(row), context=str(context))


def _check_columns(table: pd.DataFrame, multi: bool, source: str) -> None:
    need = ["id", "grounding"] if multi else ["id", "perturbed_context"]
    missing = [c for c in need if c not in table.columns]
    if "perturbed_query" not in table.columns and "query" not in table.columns:
        missing.append("perturbed_query")
    if missing:
        raise UserError(f"The benchmark from {source} lacks the column(s) {', '.join(missing)} "
                        f"needed to evaluate {'multi' if multi else 'single'}-passage items.")
    if table["id"].duplicated().any():
        dup = table.loc[table["id"].duplicated(), "id"].iloc[0]
        raise UserError(f"The benchmark from {source} has duplicate item id {dup!r}; ids must be unique.")


def output_key(item_id: str, replicate: int) -> str:
    """The per-call key (item id, plus the replicate index when there are several)."""
    return str(item_id) if replicate == 0 else f"{item_id}#r{replicate}"


def run(ctx: RunContext) -> None:
    from refusalbench.llm import CallSpec

    cfg = ctx.cfg
    ev = cfg.evaluate
    if ev.prompt_variant not in VARIANTS:
        raise UserError(f"evaluate.prompt_variant must be one of {', '.join(VARIANTS)}, got {ev.prompt_variant!r}.")
    if ev.replicates < 1:
        raise UserError(f"evaluate.replicates must be >= 1, got {ev.replicates}.")
    if ev.limit is not None and ev.limit < 1:
        raise UserError(f"evaluate.limit must be >= 1 or null, got {ev.limit}.")
    table, source = load_benchmark_table(ctx)
    if table.empty:
        raise UserError(f"The benchmark from {source} has no items.")
    multi = is_multi_passage(table, cfg.dataset.multi_passage)
    _check_columns(table, multi, source)
    if ev.limit is not None:
        table = table.head(ev.limit)
    records = table.to_dict(orient="records")
    name = template_name(multi, ev.prompt_variant)
    version = template_version(name)
    model_cfg = dataclasses.replace(cfg.model, reasoning=cfg.reasoning)
    budget = cfg.reasoning.budget_tokens
    expected = ANSWER_TOKENS_ESTIMATE + (budget or 0)
    expected += CONFIDENCE_TOKENS_ESTIMATE if ev.prompt_variant == "confidence" else 0
    specs, rows = [], []
    for rec in records:
        prompt = build_prompt(rec, multi, ev.prompt_variant)
        for r in range(ev.replicates):
            specs.append(CallSpec(key=output_key(rec["id"], r), messages=[{"role": "user", "content": prompt}],
                                  template_version=version, replicate=r, expected_output_tokens=expected))
            rows.append((rec, r))
    log.info("evaluate: %d items x %d replicate(s) from %s with model %s (%s)",
             len(records), ev.replicates, source, cfg.model.id, version)
    results = ctx.llm.run(model_cfg, specs, role="evaluated", desc=f"evaluate {cfg.model.id}")
    out = []
    for (rec, r), c in zip(rows, results):
        row = dict(rec)
        row.update(
            replicate=r, model=cfg.model.id, model_name=cfg.model.name,
            reasoning_budget=None if budget is None else int(budget), reasoning_effort=cfg.reasoning.effort,
            prompt_variant=ev.prompt_variant, prompt_version=version,
            raw_output=c.text, reasoning_text=c.reasoning, finish_reason=c.finish_reason,
            truncated=bool(c.truncated), input_tokens=c.input_tokens, output_tokens=c.output_tokens,
            reasoning_tokens=c.reasoning_tokens, latency_s=c.latency_s, cached=bool(c.cached),
            cost_usd=c.cost_usd, error=c.error,
        )
        out.append(row)
    df = pd.DataFrame(out)
    for col in ("reasoning_budget", "input_tokens", "output_tokens", "reasoning_tokens"):
        df[col] = pd.to_numeric(df[col]).astype("Int64")
    for col in ("latency_s", "cost_usd"):
        df[col] = pd.to_numeric(df[col]).astype("Float64")
    ctx.write_table("outputs", df)
    _summarise(df, cfg.model.id, dry_run=getattr(ctx.llm, "dry_run", False))


def _summarise(df: pd.DataFrame, model_id: str, dry_run: bool) -> None:
    failed = df["error"].notna()
    log.info("evaluate %s: %d calls, %d cached, %d failed, %d truncated", model_id, len(df),
             int(df["cached"].sum()), int(failed.sum()), int(df["truncated"].sum()))
    if not dry_run and len(df) and failed.all():
        first: Optional[str] = df.loc[failed, "error"].iloc[0]
        raise UserError(f"Every call to the evaluated model {model_id!r} failed ({len(df)} calls); the outputs "
                        f"were written with the errors. First error: {first}")
