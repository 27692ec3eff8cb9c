"""The report: metrics of one run or of every job of a sweep → Markdown, CSV and PNG (the paper's views)."""

from refusalbench.report.build import build_report
from refusalbench.report.collect import collect_sweep, expand

__all__ = ["build_report", "collect_sweep", "expand"]
