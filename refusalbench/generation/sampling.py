"""Stratified sampling of consensus-passing candidates: a per-stratum quota, then a per-generator fill.

Per generator (sorted by name): for each stratum ``<class>_<INTENSITY>`` (sorted), draw at most
`per_stratum` candidates; then fill the generator up to `per_generator` from its unused
candidates. Each generator has its own random stream, seeded from (seed, generator), and the
pools are sorted by candidate id first, so the draw does not depend on row order or on which
other generators are present. (The original seeded one global stream for all generators.)
"""

from __future__ import annotations

import logging
import random
from typing import Optional

import pandas as pd

from refusalbench.generation.ids import seed_for

log = logging.getLogger(__name__)


def stratum_key(perturbation_class: str, intensity: str) -> str:
    return f"{perturbation_class}_{intensity}"


def _draw(group: pd.DataFrame, per_stratum: int, target: int, rng: random.Random) -> dict[str, str]:
    """candidate_id → sampling step ("stratum" or "fill") for one group."""
    ids_by_stratum: dict[str, list[str]] = {}
    for cid, cls, intensity in zip(group["candidate_id"], group["perturbation_class"], group["intensity"]):
        ids_by_stratum.setdefault(stratum_key(cls, intensity), []).append(cid)
    chosen: dict[str, str] = {}
    for key in sorted(ids_by_stratum):
        ids = sorted(ids_by_stratum[key])
        for cid in rng.sample(ids, min(per_stratum, len(ids))):
            chosen[cid] = "stratum"
    unused = sorted(cid for cid in group["candidate_id"] if cid not in chosen)
    for cid in rng.sample(unused, min(len(unused), max(0, target - len(chosen)))):
        chosen[cid] = "fill"
    return chosen


def stratified_sample(
    pool: pd.DataFrame,
    per_stratum: int,
    per_generator: int,
    seed: int,
    group_col: Optional[str] = "generator",
    salt: str = "stratified",
) -> pd.DataFrame:
    """The selected rows of `pool` (needs candidate_id, perturbation_class, intensity, `group_col`).

    Adds `sampling_step`. With ``group_col=None`` the whole pool is one group.
    """
    if pool.empty:
        return pool.assign(sampling_step=pd.Series(dtype=object))
    pool = pool.drop_duplicates("candidate_id")
    groups = [(None, pool)] if group_col is None else sorted(pool.groupby(group_col), key=lambda kv: str(kv[0]))
    steps: dict[str, str] = {}
    for name, group in groups:
        rng = random.Random(seed_for(seed, salt, name))
        chosen = _draw(group, per_stratum, per_generator, rng)
        if len(chosen) < per_generator:
            log.warning(
                "%s sample%s: only %d of the %d requested items are available",
                salt,
                f" for {name}" if name is not None else "",
                len(chosen),
                per_generator,
            )
        steps.update(chosen)
    out = pool[pool["candidate_id"].isin(steps)].copy()
    out["sampling_step"] = out["candidate_id"].map(steps)
    sort_cols = ([group_col] if group_col else []) + ["perturbation_class", "intensity", "candidate_id"]
    return out.sort_values(sort_cols, kind="stable").reset_index(drop=True)


def human_sample(pool: pd.DataFrame, n: int, seed: int) -> pd.DataFrame:
    """A stratified random sample of `n` items over class x intensity (equal quota, then random fill)."""
    n_strata = max(1, pool[["perturbation_class", "intensity"]].drop_duplicates().shape[0]) if len(pool) else 1
    return stratified_sample(pool, n // n_strata, n, seed, group_col=None, salt="human")
