"""Reading another tool's predictions (CSV, JSONL or parquet) into the labels schema.

Column names of the original RefusalBench evaluators are accepted (first match wins):

==========================  ====================================================================
labels column               accepted source columns
==========================  ====================================================================
expected_rag_behavior       ground_truth_label, expected_rag_behavior, expected_behavior  (required)
predicted_label             model_predicted_type, predicted_label, refusal_classification (required)
answer_quality_score        answer_quality_score (1–5; correct ⇔ score ≥ threshold, default 4)
answer_correct              answer_correct
model                       model_id, model
source_id                   source_qid, source_id, original_sample_id
id                          unique_id, id, sample_id
perturbation_class, intensity, generator_model, lever_selected: same names
domain                      domain, question_category
eligibility / factuality_all / factuality_relevant
                            eligibility(_score), unadjusted_factuality_score / factuality_all,
                            raf_score / factuality_relevant
confidence                  confidence (0–1, or 0–100 read as percent), confidence_level (5 levels)
refusal_match_correct       refusal_match_correct (the evaluator's own exact-match verdict)
==========================  ====================================================================

The predicted and ground-truth labels are also kept as written (``predicted_label_raw``,
``expected_rag_behavior_raw``): the ``strict`` convention normalises them (case, markup, short code
names; ``ERROR`` → unscored, see `labels`), the ``official`` convention compares the raw strings and
uses ``refusal_match_correct`` when the file has it (see `official`). A GaRAGe file without an answer
score gets ``answer_correct`` from ``raf_score`` (the original multi-passage evaluator's relevance-aware
factuality flag), so its answer accuracy is the official ``garage_raf`` (mean RAF over answerable items, refusals 0).
"""

from __future__ import annotations

import difflib
import json
import logging
from pathlib import Path

import numpy as np
import pandas as pd

from refusalbench.errors import UserError
from refusalbench.metrics.calibration import LEVEL_MIDPOINTS
from refusalbench.tables import read_table

log = logging.getLogger(__name__)

ALIASES: dict[str, tuple[str, ...]] = {
    "expected_rag_behavior": ("ground_truth_label", "expected_rag_behavior", "expected_behavior"),
    "predicted_label": ("model_predicted_type", "predicted_label", "refusal_classification"),
    "answer_quality_score": ("answer_quality_score",),
    "answer_correct": ("answer_correct",),
    "model": ("model_id", "model"),
    "source_id": ("source_qid", "source_id", "original_sample_id"),
    "id": ("unique_id", "id", "sample_id"),
    "perturbation_class": ("perturbation_class",),
    "intensity": ("intensity",),
    "generator_model": ("generator_model",),
    "lever_selected": ("lever_selected",),
    "domain": ("domain", "question_category"),
    "eligibility": ("eligibility", "eligibility_score"),
    "factuality_all": ("factuality_all", "unadjusted_factuality_score"),
    "factuality_relevant": ("factuality_relevant", "raf_score"),
    "reasoning_budget": ("reasoning_budget",),
    "refusal_match_correct": ("refusal_match_correct",),
}
REQUIRED = ("expected_rag_behavior", "predicted_label")


def _confidence(df: pd.DataFrame) -> pd.Series | None:
    if "confidence" in df.columns:
        conf = pd.to_numeric(df["confidence"], errors="coerce")
        finite = conf.dropna()
        if len(finite) and finite.max() > 1:
            if finite.max() > 100 or finite.min() < 0:
                raise UserError(
                    "Column 'confidence' must be a probability (0–1) or a percentage (0–100); "
                    f"found {finite.min():g} to {finite.max():g}."
                )
            log.info("confidence values above 1: read as percentages")
            conf = conf / 100.0
        return conf
    if "confidence_level" in df.columns:
        levels = (
            df["confidence_level"]
            .astype(object)
            .map(lambda v: str(v).strip().upper().replace(" ", "_") if isinstance(v, str) else None)
        )
        return levels.map(LEVEL_MIDPOINTS).astype(float)
    return None


def missing_columns_problem(columns: list[str], source: str) -> str | None:
    """Why a predictions file with these `columns` cannot be scored (every missing column at once), or None."""
    missing = [t for t in REQUIRED if not any(c in columns for c in ALIASES[t])]
    if not missing:
        return None
    wanted = "; ".join(f"{t!r}: one of {', '.join(repr(c) for c in ALIASES[t])}" for t in missing)
    return (
        f"The predictions file {source} lacks {len(missing)} required column(s) ({wanted}). "
        f"Columns present: {', '.join(map(str, columns))}."
    )


def file_columns(path: str | Path) -> list[str] | None:
    """The column names of a CSV, parquet or JSONL file, read without loading it (None if not cheaply known)."""
    path = Path(path)
    suffix = path.suffix.lower()
    try:
        if suffix == ".csv":
            return [str(c) for c in pd.read_csv(path, nrows=0).columns]
        if suffix == ".parquet":
            import pyarrow.parquet as pq

            return list(pq.read_schema(path).names)
        if suffix in (".jsonl", ".ndjson"):
            with path.open(encoding="utf-8") as fh:
                first = next((line for line in fh if line.strip()), "")
            record = json.loads(first) if first else None
            return list(record) if isinstance(record, dict) else None
    except (ValueError, OSError, UnicodeDecodeError):
        return None  # unreadable: the score stage reports it
    return None


def to_labels(df: pd.DataFrame, source: str = "predictions") -> pd.DataFrame:
    """Map a predictions DataFrame with the original evaluator's columns to the labels schema."""
    out = pd.DataFrame(index=df.index)
    problem = missing_columns_problem([str(c) for c in df.columns], source)
    if problem:
        raise UserError(problem)
    for target, candidates in ALIASES.items():
        found = next((c for c in candidates if c in df.columns), None)
        if found is None:
            continue
        out[target] = df[found].to_numpy()
    out["predicted_label_raw"] = out["predicted_label"]
    out["expected_rag_behavior_raw"] = out["expected_rag_behavior"]
    _warn_unknown_labels(out["predicted_label"], source)
    for flag in ("eligibility", "factuality_all", "factuality_relevant"):
        if flag in out.columns:
            numeric = pd.to_numeric(out[flag], errors="coerce")
            if numeric.notna().sum() == out[flag].notna().sum():  # 0/1 scores → booleans
                out[flag] = pd.array(np.where(numeric.isna(), None, numeric >= 0.5), dtype="boolean")
    has_quality = "answer_quality_score" in out.columns or "answer_correct" in out.columns
    if not has_quality and "factuality_relevant" in out.columns:
        out["answer_correct"] = out["factuality_relevant"]
    conf = _confidence(df)
    if conf is not None:
        out["confidence"] = conf.to_numpy()
    if "id" not in out.columns:
        out["id"] = [f"row-{i}" for i in range(len(out))]
    return out.reset_index(drop=True)


def _warn_unknown_labels(values: pd.Series, source: str) -> None:
    """Name the predicted-label values that are not labels (they are scored as unscored), with counts."""
    from refusalbench.judging.codes import ANSWER_NAMES, CODE_NAMES
    from refusalbench.metrics.labels import normalise_predicted

    counts = values.astype(object).fillna("").value_counts()
    unknown = {raw: int(n) for raw, n in counts.items() if normalise_predicted(pd.Series([raw]))[1]}
    if unknown:
        vocabulary = sorted(set(CODE_NAMES) | ANSWER_NAMES | {"ANSWER_CORRECTLY"})

        def named(raw) -> str:
            close = difflib.get_close_matches(str(raw).strip().upper(), vocabulary, n=1, cutoff=0.8)
            return f"{raw!r} ({unknown[raw]}{'; did you mean ' + repr(close[0]) + '?' if close else ''})"

        shown = ", ".join(named(raw) for raw in list(unknown)[:8])
        log.warning(
            "The predictions file %s has %d predicted label(s) that are not labels, counted as unscored: %s",
            source,
            sum(unknown.values()),
            shown + (" …" if len(unknown) > 8 else ""),
        )


def read_predictions(path: str | Path) -> pd.DataFrame:
    """Read a predictions file (CSV, JSONL, JSON or parquet) into the labels schema."""
    path = Path(path)
    if path.suffix.lower() == ".csv" and path.exists():
        try:
            df = pd.read_csv(path, keep_default_na=True, na_values=[""], dtype=object)
        except (ValueError, OSError) as exc:
            raise UserError(f"Cannot read predictions file {path}: {exc}") from exc
    else:
        df = read_table(path)
    if len(df) == 0:
        raise UserError(f"The predictions file {path} holds no rows.")
    return to_labels(df, source=str(path))
