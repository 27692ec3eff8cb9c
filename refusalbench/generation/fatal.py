"""Stopping a generator or verifier whose calls all fail with an error no retry can fix.

A missing or wrong credential, a refused parameter or an unknown model fails every call the same
way; recording 1,800 such failures only wastes time (and, with some providers, money). The stages
send each model a small first batch (`FIRST_BATCH`) and stop when every call of a batch failed
with one of `FATAL_KINDS`.
"""

from __future__ import annotations

import re
from typing import Iterable, Optional

from refusalbench.errors import UserError

FIRST_BATCH = 16
FATAL_KINDS = (
    "AuthenticationError",
    "PermissionDeniedError",
    "BadRequestError",
    "NotFoundError",
    "UnsupportedParamsError",
    "UnprocessableEntityError",
    "ContextWindowExceededError",
)
_KIND = re.compile(r"(?:call failed: )?(\w+(?:Error|Exception)):")


def batches(items: list, size: int, first: int = FIRST_BATCH) -> Iterable[list]:
    """`items` in batches: a small first one (so a model that cannot be called is found early), then `size`."""
    if items:
        yield items[:first]
    for start in range(first, len(items), size):
        yield items[start : start + size]


def fatal_error(errors: list[Optional[str]]) -> Optional[str]:
    """The first error if every call in the batch failed with a kind that a retry cannot fix."""
    if not errors or any(e is None for e in errors):
        return None
    kinds = {(m.group(1) if (m := _KIND.match(str(e))) else None) for e in errors}
    if kinds and all(k in FATAL_KINDS for k in kinds):
        return str(errors[0])
    return None


def stop_stage(stage: str, role: str, model_id: str, n_calls: int, error: str, table: str) -> UserError:
    """The error that ends the stage, saying what happened and that nothing is lost."""
    return UserError(
        f"The {stage} stage stopped: all {n_calls} calls of {role} {model_id!r} in its latest batch "
        f"failed with an error that retrying cannot fix ({error}). The failures are recorded in {table} "
        "and a rerun retries them; fix the model's credentials or parameters first."
    )
