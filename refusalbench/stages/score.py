"""Score stage: labels (or another tool's predictions) → ``metrics.json`` + ``metrics_by_model.csv``.

Input: ``score.predictions=FILE`` (CSV/JSONL/parquet with the original evaluator's column names;
see `refusalbench.metrics.predictions`), else the run directory's ``labels.parquet``.
Output: ``metrics.json`` in the run directory (and at ``score.output`` when set) and
``metrics_by_model.csv`` beside each. One shape for one model or several (or several reasoning
budgets): ``{"schema_version": 2, "models": …, "paired_differences": …, "meta": …}``, see
`refusalbench.metrics.document`.
``score.convention`` picks the scoring convention of the headline numbers: ``strict`` (default) or
``official`` (exactly the paper's figure code; see `refusalbench.metrics.official`).
"""

from __future__ import annotations

import logging
from pathlib import Path

from refusalbench.context import RunContext
from refusalbench.errors import UserError
from refusalbench.metrics.document import METRICS_FILE
from refusalbench.metrics.io import save_metrics
from refusalbench.metrics.models import combine, score_by_model, summary_table
from refusalbench.metrics.predictions import read_predictions
from refusalbench.metrics.prepare import MULTI_PASSAGE_COLUMNS

log = logging.getLogger(__name__)

SUMMARY_FILE = "metrics_by_model.csv"


def benchmark_name(ctx: RunContext, labels, from_predictions: bool) -> str:
    """Which paper benchmark the scored items belong to: NQ, GaRAGe or NQ-multi (no paper numbers)."""
    multi = any(c in labels.columns and labels[c].notna().any() for c in MULTI_PASSAGE_COLUMNS)
    if from_predictions:
        return "GaRAGe" if multi else "NQ"
    kind = (ctx.cfg.dataset.kind or "").lower()
    if "garage" in kind:
        return "GaRAGe"
    if kind == "nq_multi" or ctx.cfg.dataset.multi_passage:
        return "NQ-multi"
    return "NQ"


def _summary_path(json_path: Path) -> Path:
    if json_path.name == METRICS_FILE:
        return json_path.with_name(SUMMARY_FILE)
    return json_path.with_name(f"{json_path.stem}_by_model.csv")


def run(ctx: RunContext) -> None:
    cfg = ctx.cfg.score  # its ranges are checked by the config schema
    if cfg.predictions:
        source = str(Path(cfg.predictions))
        labels = read_predictions(cfg.predictions)
        default_model = Path(cfg.predictions).stem
    else:
        if not ctx.has_table("labels"):
            raise UserError(
                f"There is no labels table ({ctx.table_path('labels')}) to score: run the judge stage first "
                "(pipeline=evaluate) or score another tool's file with score.predictions=FILE."
            )
        source = str(ctx.table_path("labels"))
        labels = ctx.read_table("labels")
        default_model = ctx.cfg.model.id
    meta = {
        "source": source,
        "benchmark": benchmark_name(ctx, labels, bool(cfg.predictions)),
        "dataset_kind": None if cfg.predictions else ctx.cfg.dataset.kind,
        "judge": None if cfg.predictions else ctx.cfg.judge.kind,
        "convention": str(cfg.convention),
    }
    if "reasoning_budget" not in labels.columns and not cfg.predictions:
        labels = labels.assign(reasoning_budget=ctx.cfg.reasoning.budget_tokens)
    results = score_by_model(
        labels,
        default_model=default_model,
        settings=cfg,
        correct_score=ctx.cfg.judge.correct_score,
        meta=meta,
    )
    metrics = combine(results, meta)
    table = summary_table(results)
    targets = [ctx.run_dir / METRICS_FILE]
    if cfg.output and Path(cfg.output).resolve() != targets[0].resolve():
        targets.append(Path(cfg.output))
    for path in targets:
        save_metrics(metrics, path)
        table.to_csv(_summary_path(path), index=False)
    ctx.outputs["metrics"] = str(targets[-1])
    ctx.outputs["metrics_by_model"] = str(_summary_path(targets[-1]))
    for name, m in results.items():
        ra, aa, crs = (m[k]["value"] for k in ("refusal_accuracy", "answer_accuracy", "calibrated_refusal_score"))
        log.info(
            "scored %s (%s convention): refusal accuracy %s, answer accuracy %s, CRS %s",
            name,
            cfg.convention,
            _fmt(ra),
            _fmt(aa),
            _fmt(crs),
        )


def _fmt(value) -> str:
    return "n/a" if value is None else f"{value:.3f}"
