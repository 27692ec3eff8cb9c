"""Multi-passage NQ: GaRAGe-shaped records built from NQ, so the multi-passage path runs offline.

Each chosen question keeps its gold passage as the single signal passage and gets
``passages_per_question - 1`` distractor passages drawn, seeded per question, from other
questions' passages (never one that contains this question's answer); the gold passage is put at
a seeded position. ``signal_indices``/``noise_indices``/``relevant`` index the passage list.
"""

from __future__ import annotations

import logging
import random

import pandas as pd

from refusalbench.config import DatasetConfig
from refusalbench.data.nq import NQItem, empty_hint, select
from refusalbench.data.records import DataError, LoadResult, contains_answer, finish, normalise, record_json

log = logging.getLogger(__name__)

MULTI_COLUMNS = [
    "source_id",
    "query",
    "answers",
    "passages",
    "signal_indices",
    "noise_indices",
    "relevant",
    "reference_answer",
    "domain",
    "distractor_source_ids",
    "source_record",
]


def _draw(rng: random.Random, pool: list[NQItem], item: NQItem, k: int) -> list[NQItem]:
    """Up to ``k`` distractors in a seeded random order (a short draw first, the full pool if needed)."""
    gold = normalise(item.context)
    picked: list[NQItem] = []
    seen: set[int] = set()
    for size in (min(len(pool), 4 * k + 8), len(pool)):
        for i in rng.sample(range(len(pool)), size):
            if i in seen:
                continue
            seen.add(i)
            other = pool[i]
            if other.source_id == item.source_id or normalise(other.context) == gold:
                continue
            if contains_answer(other.context, item.answers):
                continue
            picked.append(other)
            if len(picked) == k:
                return picked
    return picked


def load_nq_multi(cfg: DatasetConfig) -> LoadResult:
    """The multi-passage base table (exactly ``passages_per_question`` passages per question)."""
    n = cfg.passages_per_question  # >= 2: checked by the config schema
    sel = select(cfg)
    # one copy of each distinct passage is a possible distractor
    distinct: dict[str, NQItem] = {}
    for item in sel.pool:
        distinct.setdefault(normalise(item.context), item)
    pool = list(distinct.values())
    rows = []
    for item in sel.items:
        rng = random.Random(f"{cfg.seed}:{item.source_id}")
        distractors = _draw(rng, pool, item, n - 1)
        if len(distractors) < n - 1:
            raise DataError(
                f"Multi-passage NQ needs {n - 1} distractor passages for question {item.source_id!r} but the "
                f"source offers only {len(distractors)} passages without its answer; use a larger dataset.path "
                "or a smaller dataset.passages_per_question."
            )
        position = rng.randrange(n)
        passages = [d.context for d in distractors]
        passages.insert(position, item.context)
        rows.append(
            {
                "source_id": item.source_id,
                "query": item.query,
                "answers": item.answers,
                "passages": passages,
                "signal_indices": [position],
                "noise_indices": [i for i in range(n) if i != position],
                "relevant": [i == position for i in range(n)],
                "reference_answer": item.answers[0],
                "domain": None,
                "distractor_source_ids": [d.source_id for d in distractors],
                "source_record": record_json(item.record),
            }
        )
    table = pd.DataFrame(rows, columns=MULTI_COLUMNS)
    log.info("Multi-passage NQ: %d question(s) x %d passages", len(table), n)
    return finish(
        table,
        sel.skips,
        empty_hint=empty_hint(sel),
        not_answer_bearing=sel.not_answer_bearing,
        counts={"read": sel.read, "valid": len(sel.pool), "selected": len(table), **sel.source_counts},
    )
