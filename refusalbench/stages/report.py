"""Report stage: the run's metrics (or every job's under ``report.sweep_dir``) → ``report/``.

Writes ``report/report.md`` with CSV tables and PNG figures beside it (see
`refusalbench.report.build_report`, which the multirun callback reuses).
"""

from __future__ import annotations

from pathlib import Path

from refusalbench.context import RunContext
from refusalbench.errors import UserError
from refusalbench.metrics.document import METRICS_FILE, load_metrics, sole_model_meta
from refusalbench.report import build_report, collect_sweep
from refusalbench.report.collect import run_label
from refusalbench.report.figure_cache import use_figure_cache

REPORT_DIR = "report"
#: where figures are kept for the next run with the same metrics, inside the response cache's directory
FIGURE_CACHE_DIR = "figures"


def run(ctx: RunContext) -> None:
    cfg = ctx.cfg.report
    if cfg.sweep_dir:
        runs = collect_sweep(cfg.sweep_dir)
    else:
        path = Path(ctx.outputs.get("metrics") or ctx.run_dir / METRICS_FILE)
        if not path.exists():
            raise UserError(
                f"There are no metrics to report ({path} is missing): "
                "run the score stage first, or set report.sweep_dir=DIR."
            )
        metrics = load_metrics(path)
        runs = {run_label(sole_model_meta(metrics), path.stem): metrics}
    cache = ctx.cfg.cache
    read, write = cache.mode in ("read_write", "read_only"), cache.mode in ("read_write", "refresh")
    figures = Path(cache.dir).expanduser() / FIGURE_CACHE_DIR if read or write else None
    with use_figure_cache(figures, read=read, write=write):
        report = build_report(runs, ctx.run_dir / REPORT_DIR, paper_numbers=cfg.paper_numbers)
    ctx.outputs["report"] = str(report)
