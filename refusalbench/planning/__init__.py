"""The dry run: a plan of the configured pipeline's model calls, tokens and cost, instead of running it."""

from refusalbench.planning.measure import format_table
from refusalbench.planning.plan import plan_run

__all__ = ["format_table", "plan_run"]
