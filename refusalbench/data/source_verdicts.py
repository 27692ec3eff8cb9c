"""Source verdicts: whether a source item's passage supports a gold answer, as a source review judged it.

A verdict file is a CSV with the columns ``source_id``, ``passage_id`` (``content_id("passage", context)``),
``verdict`` (``V`` supported, ``B`` weak, ``I`` unsupported) and ``notes``; ``python -m
refusalbench.generation.source_review verdicts`` writes one from filled source sheets. With
``dataset.source_verdicts=FILE`` the loader leaves out the questions marked ``B`` or ``I`` before it draws
``dataset.n_base``: an item can be no more valid than its source. A verdict applies only to the exact passage it
was given for (same source id and passage id); questions the file does not list are kept and counted as unvetted.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from refusalbench.data.records import DataError, content_id

COLUMNS = ("source_id", "passage_id", "verdict", "notes")
VERDICTS = {"V": "supported", "B": "weak", "I": "unsupported"}


def passage_id(context: str) -> str:
    """The id a verdict file gives the passage it was judged on."""
    return content_id("passage", context)


def read_verdicts(path: str | Path) -> dict[tuple[str, str], str]:
    """``(source_id, passage_id) -> V/B/I`` from a verdict file; DataError when it cannot be used."""
    path = Path(path)
    if not path.is_file():
        raise DataError(
            f"The source verdict file {path} does not exist. Give one written by `python -m "
            "refusalbench.generation.source_review verdicts`, or run with dataset.source_verdicts=null to use every "
            "question."
        )
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in COLUMNS[:3] if c not in table.columns]
    if missing:
        raise DataError(f"{path} is not a source verdict file: it lacks the column(s) {', '.join(missing)}.")
    verdicts = table["verdict"].str.strip().str.upper()
    bad = table[~verdicts.isin(VERDICTS)]
    if len(bad):
        shown = ", ".join(f"{s}: {v!r}" for s, v in zip(bad["source_id"].head(3), bad["verdict"].head(3)))
        raise DataError(f"{path}: {len(bad)} verdict(s) are not V, B or I: {shown}.")
    return dict(zip(zip(table["source_id"], table["passage_id"]), verdicts))


def verdict_of(verdicts: dict[tuple[str, str], str], source_id: str, context: str) -> str | None:
    """The verdict a file gives this source with this passage (None when it does not judge them)."""
    return verdicts.get((source_id, passage_id(context)))


def split_by_verdict(items: list, verdicts: dict[tuple[str, str], str]) -> tuple[list, dict[str, int]]:
    """The items whose source is supported or unvetted, and how many were weak, unsupported or unvetted."""
    kept, counts = [], {"weak": 0, "unsupported": 0, "unvetted": 0}
    for item in items:
        verdict = verdict_of(verdicts, item.source_id, item.context)
        if verdict is None:
            counts["unvetted"] += 1
        elif verdict != "V":
            counts[VERDICTS[verdict]] += 1
            continue
        kept.append(item)
    return kept, counts
