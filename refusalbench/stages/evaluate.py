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
from typing import Optional

import pandas as pd

from refusalbench.context import RunContext
from refusalbench.errors import UserError
from refusalbench.evaluation import (
    build_prompt,
    check_columns,
    expected_output_tokens,
    is_multi_passage,
    load_benchmark_table,
    output_key,
    template_name,
)
from refusalbench.prompts import template_version

log = logging.getLogger(__name__)

#: Columns this stage adds to each benchmark row.
OUTPUT_COLUMNS = (
    "replicate",
    "model",
    "model_name",
    "reasoning_budget",
    "reasoning_effort",
    "prompt_variant",
    "prompt_version",
    "raw_output",
    "reasoning_text",
    "finish_reason",
    "truncated",
    "input_tokens",
    "output_tokens",
    "reasoning_tokens",
    "latency_s",
    "cached",
    "cost_usd",
    "error",
)


def run(ctx: RunContext) -> None:
    from refusalbench.llm import CallSpec

    cfg = ctx.cfg
    ev = cfg.evaluate
    table, source = load_benchmark_table(cfg, ctx.run_dir)
    if table.empty:
        raise UserError(f"The benchmark from {source} has no items.")
    multi = is_multi_passage(table, cfg.dataset.multi_passage)
    check_columns(table, multi, source)
    if ev.limit is not None:
        table = table.head(ev.limit)
    records = table.to_dict(orient="records")
    name = template_name(multi, ev.prompt_variant)
    version = template_version(name)
    model_cfg = dataclasses.replace(cfg.model, reasoning=cfg.reasoning)  # one setting (see RefusalBenchConfig)
    budget = cfg.reasoning.budget_tokens
    expected = expected_output_tokens(ev, budget)
    specs, rows = [], []
    for rec in records:
        prompt = build_prompt(rec, multi, ev.prompt_variant)
        for r in range(ev.replicates):
            specs.append(
                CallSpec(
                    key=output_key(rec["id"], r),
                    messages=[{"role": "user", "content": prompt}],
                    template_version=version,
                    replicate=r,
                    expected_output_tokens=expected,
                )
            )
            rows.append((rec, r))
    log.info(
        "evaluate: %d items x %d replicate(s) from %s with model %s (%s)",
        len(records),
        ev.replicates,
        source,
        cfg.model.id,
        version,
    )
    results = ctx.llm.run(model_cfg, specs, role="evaluated", desc=f"evaluate {cfg.model.id}")
    out = []
    for (rec, r), c in zip(rows, results):
        row = dict(rec)
        row.update(
            replicate=r,
            model=cfg.model.id,
            model_name=cfg.model.name,
            reasoning_budget=None if budget is None else int(budget),
            reasoning_effort=None if cfg.reasoning.effort is None else str(cfg.reasoning.effort),
            prompt_variant=str(ev.prompt_variant),
            prompt_version=version,
            raw_output=c.text,
            reasoning_text=c.reasoning,
            finish_reason=c.finish_reason,
            truncated=bool(c.truncated),
            input_tokens=c.input_tokens,
            output_tokens=c.output_tokens,
            reasoning_tokens=c.reasoning_tokens,
            latency_s=c.latency_s,
            cached=bool(c.cached),
            cost_usd=c.cost_usd,
            error=c.error,
        )
        out.append(row)
    df = pd.DataFrame(out)
    for col in ("reasoning_budget", "input_tokens", "output_tokens", "reasoning_tokens"):
        df[col] = pd.to_numeric(df[col]).astype("Int64")
    for col in ("latency_s", "cost_usd"):
        df[col] = pd.to_numeric(df[col]).astype("Float64")
    ctx.write_table("outputs", df)
    _summarise(df, cfg.model.id)


def _summarise(df: pd.DataFrame, model_id: str) -> None:
    failed = df["error"].notna()
    log.info(
        "evaluate %s: %d calls, %d cached, %d failed, %d truncated",
        model_id,
        len(df),
        int(df["cached"].sum()),
        int(failed.sum()),
        int(df["truncated"].sum()),
    )
    if len(df) and failed.all():
        first: Optional[str] = df.loc[failed, "error"].iloc[0]
        raise UserError(
            f"Every call to the evaluated model {model_id!r} failed ({len(df)} calls); the outputs "
            f"were written with the errors. First error: {first}"
        )
