"""Pipeline stages. Each module `refusalbench.stages.<name>` exposes `run(ctx: RunContext) -> None`.

A stage reads the previous stage's table from the run directory (or a path given in config) and
writes its own, so any stage can be re-run alone on stored outputs.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from refusalbench.errors import UserError

#: Canonical order; a pipeline config lists a subset, which runs in this order.
STAGE_ORDER = ("generate", "check", "verify", "select", "evaluate", "judge", "score", "report")


class StageNotBuilt(UserError):
    """A configured stage whose implementation is not part of this version."""


def load_stage(name: str) -> ModuleType:
    """Import the module of stage `name`; a StageNotBuilt error if it does not exist."""
    if name not in STAGE_ORDER:
        raise UserError(f"Unknown pipeline stage {name!r}; known stages: {', '.join(STAGE_ORDER)}.")
    try:
        return importlib.import_module(f"refusalbench.stages.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"refusalbench.stages.{name}":
            raise StageNotBuilt(f"The {name!r} stage is not built yet in this version of RefusalBench.") from exc
        raise
