"""The base questions of a generation run: `generate.source` (a stored table) or the configured dataset."""

from __future__ import annotations

import logging

import pandas as pd

from refusalbench.errors import UserError
from refusalbench.rows import BASE_PASSAGES, SOURCE_ID, is_multi_passage_table
from refusalbench.tables import read_table

log = logging.getLogger(__name__)


def load_base_table(cfg) -> pd.DataFrame:
    """The base-question table, checked for its columns and unique ids (a UserError otherwise)."""
    if cfg.generate.source:
        df = read_table(cfg.generate.source)
    else:
        from refusalbench.data import load_base

        result = load_base(cfg.dataset)
        df = result.table
        if result.skipped:  # the data loader has warned about them, with the reasons
            log.debug("base: %d record(s) skipped: %s", result.skipped, "; ".join(result.reasons[:3]))
    multi = is_multi_passage_table(df)
    need = [SOURCE_ID, "query", "answers"] + (
        [BASE_PASSAGES, "signal_indices", "noise_indices"] if multi else ["context"]
    )
    missing = [c for c in need if c not in df.columns]
    if missing:
        raise UserError(
            f"The base-question table lacks the column(s) {', '.join(missing)}; expected the base.parquet schema."
        )
    if df.empty:
        raise UserError("The base-question table is empty; nothing to generate.")
    df = df.assign(source_id=df[SOURCE_ID].astype(str))
    if df[SOURCE_ID].duplicated().any():
        first = df.loc[df[SOURCE_ID].duplicated(), SOURCE_ID].iloc[0]
        raise UserError(f"The base-question table repeats source_id {first!r}; ids must be unique.")
    return df
