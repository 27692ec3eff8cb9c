"""Pipeline stages. Each module `refusalbench.stages.<name>` exposes `run(ctx: RunContext) -> None`.

A stage reads the previous stage's table from the run directory (or a path given in config) and
writes its own, so any stage can be re-run alone on stored outputs. No stage imports another: what
two stages share lives below them (generation/, judging/, refusalbench.evaluation, refusalbench.rows).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from refusalbench.config import STAGE_ORDER

__all__ = ["STAGE_ORDER", "load_stage"]


def load_stage(name: str) -> ModuleType:
    """The module of stage `name` (one of STAGE_ORDER; the config schema admits no other)."""
    return importlib.import_module(f"refusalbench.stages.{name}")
