"""From a labels table to per-item indicators, per-item outcomes and cluster ids.

Input: a DataFrame with the columns of the judge stage's ``labels.parquet`` — at least
``expected_rag_behavior`` and ``predicted_label``; optionally ``answer_correct`` /
``answer_quality_score``, ``source_id``, ``id``, the GaRAGe flags ``eligibility``,
``factuality_all``, ``factuality_relevant``, ``confidence`` and the breakdown columns.

Every metric is a ratio (or a function of ratios) of sums of the indicators built here, which is
what makes the cluster bootstrap a single matrix product (see `intervals`).

Rule for truncated / unscored rows (and ``ERROR``, which is read as unscored) — see `RULE`.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from typing import Optional

import numpy as np
import pandas as pd

from refusalbench.errors import UserError
from refusalbench.metrics import official
from refusalbench.metrics.labels import normalise_ground_truth, normalise_predicted
from refusalbench.taxonomy import (
    ANSWER_ATTEMPT,
    ANSWER_CORRECTLY,
    GROUND_TRUTH_LABELS,
    INTENSITIES,
    PREDICTION_LABELS,
    REFUSAL_CODES,
    TRUNCATED,
    UNSCORED,
)

log = logging.getLogger(__name__)

RULE_ID = "in-denominator/never-correct/never-refusal"
RULE = (
    "Truncated and unscored responses (unscored includes the original evaluator's ERROR rows, "
    "unrecognised labels and attempted answers whose quality was not judged) stay in every "
    "denominator. They are never correct and never refusals: on answerable items they lower answer "
    "accuracy but are not false refusals; on unanswerable items they lower refusal accuracy and "
    "detection recall and count as missed refusals (missed refusal rate = 1 - detection recall); "
    "they never enter detection precision or category accuracy. The response distribution shows "
    "them as their own categories 'truncated' and 'unscored'."
)

#: The eight response categories, each item in exactly one.
OUTCOMES = (
    "correct_answer",
    "wrong_answer",
    "correct_refusal",
    "wrong_category_refusal",
    "false_refusal",
    "missed_refusal",
    "truncated",
    "unscored",
)

BASE_STATS = (
    "n", "n_ans", "n_unans",
    "ans_attempt", "ans_correct", "ans_wrong", "ans_unjudged", "ans_refusal", "ans_truncated", "ans_unscored",
    "unans_attempt", "unans_refusal", "unans_correct", "unans_truncated", "unans_unscored",
)  # fmt: skip
INTENSITY_STATS = tuple(f"{kind}_{i}" for i in INTENSITIES for kind in ("n_at", "refusals_at"))
MULTI_PASSAGE_STATS = ("mp_judged", "mp_eligible", "mp_factual", "mp_raf_flag", "mp_raf_eligible")
MULTI_PASSAGE_COLUMNS = ("eligibility", "factuality_all", "factuality_relevant")


@dataclass
class Prepared:
    """A labels table reduced to what the metrics need."""

    rows: pd.DataFrame  # id, source_id, gt, pred, outcome, answerable, correct + breakdown columns
    gt_code: np.ndarray  # index into taxonomy.GROUND_TRUTH_LABELS
    pred_code: np.ndarray  # index into taxonomy.PREDICTION_LABELS
    outcome_code: np.ndarray  # index into OUTCOMES
    stats: np.ndarray  # items × K indicator matrix
    stat_names: list[str]
    cluster_codes: np.ndarray  # items → cluster index
    cluster_ids: list[str]
    cluster_column: str
    has_quality: bool
    quality_reason: Optional[str]
    has_multi_passage: bool
    confidence: Optional[np.ndarray]  # items, NaN where absent; None when no column/values
    notes: dict = field(default_factory=dict)
    official_correct: Optional[np.ndarray] = None  # per item, correctness as the official figure code reads it
    quality_column_reason: Optional[str] = None  # set when no quality column exists at all

    def column(self, name: str) -> np.ndarray:
        return self.stats[:, self.stat_names.index(name)]

    @property
    def items_sha256(self) -> str:
        ids = sorted(self.rows["id"].astype(str))
        return hashlib.sha256("\n".join(ids).encode()).hexdigest()


def _bool_column(df: pd.DataFrame, name: str) -> Optional[pd.Series]:
    """A column as nullable booleans (1/0, 'true'/'false', 1-5 flags are not accepted here)."""
    if name not in df.columns:
        return None
    col = df[name]
    if col.dtype == bool or str(col.dtype) == "boolean":
        return col.astype("boolean")
    mapping = {"true": True, "false": False, "1": True, "0": False, "1.0": True, "0.0": False, "yes": True, "no": False}
    out = col.map(
        lambda v: (
            None if v is None or (not isinstance(v, str) and pd.isna(v)) else mapping.get(str(v).strip().lower(), "bad")
        )
    )
    bad = out.map(lambda v: isinstance(v, str))
    if bad.any():
        example = col[bad].iloc[0]
        raise UserError(f"Column {name!r} must hold booleans (true/false or 1/0); found {example!r}.")
    return out.astype("boolean")


def _answer_correct(df: pd.DataFrame, correct_score: float) -> tuple[pd.Series, bool]:
    """Per-item answer correctness (nullable) and whether any quality source column exists.

    A stored 1–5 quality score decides against `correct_score` (so re-scoring with another
    ``judge.correct_score`` changes the result); ``answer_correct`` fills the items without a score.
    """
    correct = _bool_column(df, "answer_correct")
    present = correct is not None
    if "answer_quality_score" in df.columns:
        present = True
        score = pd.to_numeric(df["answer_quality_score"], errors="coerce")
        from_score = pd.Series(
            pd.array(np.where(score.isna(), None, score >= correct_score), dtype="boolean"), index=df.index
        )
        correct = from_score if correct is None else from_score.fillna(correct)
    if correct is None:
        correct = pd.Series(pd.array([None] * len(df), dtype="boolean"), index=df.index)
    return correct, present


def _clusters(df: pd.DataFrame) -> tuple[np.ndarray, list[str], str]:
    for column in ("source_id", "id"):
        if column in df.columns and df[column].notna().all():
            codes, uniques = pd.factorize(df[column].astype(str), sort=True)
            return codes.astype(np.intp), [str(u) for u in uniques], column
    return np.arange(len(df), dtype=np.intp), [str(i) for i in range(len(df))], "row"


def prepare(df: pd.DataFrame, correct_score: float = 4) -> Prepared:
    """Validate and reduce a labels table; a UserError for a missing or invalid required column."""
    for column in ("expected_rag_behavior", "predicted_label"):
        if column not in df.columns:
            raise UserError(
                f"The labels table has no {column!r} column; columns present: {', '.join(map(str, df.columns))}."
            )
    if len(df) == 0:
        raise UserError("The labels table is empty: there is nothing to score.")
    df = df.reset_index(drop=True)
    gt = normalise_ground_truth(df["expected_rag_behavior"])
    pred, n_unknown = normalise_predicted(df["predicted_label"])
    if n_unknown:  # a predictions file's unknown labels were named, with counts, when it was read
        level = logging.DEBUG if "predicted_label_raw" in df.columns else logging.WARNING
        log.log(level, "%d predicted label(s) are not in the label vocabulary; scored as unscored", n_unknown)
    correct, has_quality_column = _answer_correct(df, correct_score)

    ans = (gt == ANSWER_CORRECTLY).to_numpy()
    unans = ~ans
    attempt = (pred == ANSWER_ATTEMPT).to_numpy()
    refusal = pred.isin(REFUSAL_CODES).to_numpy()
    truncated = (pred == TRUNCATED).to_numpy()
    unscored = (pred == UNSCORED).to_numpy()
    is_true = correct.fillna(False).to_numpy(dtype=bool)
    is_false = (~correct.fillna(True)).to_numpy(dtype=bool)
    ans_correct = ans & attempt & is_true
    ans_wrong = ans & attempt & is_false
    ans_unjudged = ans & attempt & ~is_true & ~is_false
    unans_correct = unans & refusal & (pred == gt).to_numpy()

    columns = {
        "n": np.ones(len(df)), "n_ans": ans, "n_unans": unans,
        "ans_attempt": ans & attempt, "ans_correct": ans_correct, "ans_wrong": ans_wrong, "ans_unjudged": ans_unjudged,
        "ans_refusal": ans & refusal, "ans_truncated": ans & truncated, "ans_unscored": ans & unscored,
        "unans_attempt": unans & attempt, "unans_refusal": unans & refusal, "unans_correct": unans_correct,
        "unans_truncated": unans & truncated, "unans_unscored": unans & unscored,
    }  # fmt: skip
    intensity = None
    if "intensity" in df.columns:
        intensity = df["intensity"].astype(object).map(lambda v: str(v).strip().upper() if isinstance(v, str) else v)
        for level in INTENSITIES:
            at = (intensity == level).to_numpy()
            columns[f"n_at_{level}"] = at
            columns[f"refusals_at_{level}"] = at & refusal

    has_mp = any(c in df.columns and df[c].notna().any() for c in MULTI_PASSAGE_COLUMNS)
    if has_mp:
        flags = {c: _bool_column(df, c) for c in MULTI_PASSAGE_COLUMNS}
        flags = {
            c: (s if s is not None else pd.Series(pd.array([None] * len(df), dtype="boolean")))
            for c, s in flags.items()
        }
        elig = flags["eligibility"].fillna(False).to_numpy(dtype=bool)
        fact = flags["factuality_all"].fillna(False).to_numpy(dtype=bool)
        rel = flags["factuality_relevant"].fillna(False).to_numpy(dtype=bool)
        judged = flags["eligibility"].notna().to_numpy() | flags["factuality_relevant"].notna().to_numpy()
        base = ans & attempt
        columns.update(
            mp_judged=base & judged, mp_eligible=base & elig, mp_factual=base & fact,
            mp_raf_flag=base & rel, mp_raf_eligible=base & elig & rel,
        )  # fmt: skip

    outcome_code = np.select(
        [
            ans_correct,
            ans_wrong,
            unans_correct,
            unans & refusal & ~unans_correct,
            ans & refusal,
            unans & attempt,
            truncated,
        ],
        list(range(7)),
        default=OUTCOMES.index("unscored"),
    ).astype(np.intp)
    has_quality = bool(has_quality_column and (correct[ans & attempt].notna().any() or not (ans & attempt).any()))
    quality_reason = None
    if not has_quality_column:
        quality_reason = "no answer-quality scores (neither 'answer_correct' nor 'answer_quality_score' is given)"
    elif not has_quality:
        quality_reason = "no attempted answer on an answerable item has an answer-quality judgement"

    confidence = None
    if "confidence" in df.columns and df["confidence"].notna().any():
        confidence = pd.to_numeric(df["confidence"], errors="coerce").to_numpy(dtype=float)
        finite = confidence[np.isfinite(confidence)]
        if finite.size and (finite.min() < 0 or finite.max() > 1):
            raise UserError(
                "Column 'confidence' must hold probabilities in [0, 1]; "
                f"found values from {finite.min():g} to {finite.max():g}."
            )

    off = official.official_rows(df, correct)
    official_correct = off.pop("_correct")
    columns.update(off)

    codes, cluster_ids, cluster_column = _clusters(df)
    rows = pd.DataFrame({"id": df["id"].astype(str) if "id" in df.columns else pd.Series(range(len(df))).astype(str)})
    rows["source_id"] = [cluster_ids[c] for c in codes]
    rows["gt"] = gt.to_numpy()
    rows["pred"] = pred.to_numpy()
    rows["outcome"] = np.asarray(OUTCOMES, dtype=object)[outcome_code]
    rows["answerable"] = ans
    rows["correct"] = ans_correct | unans_correct
    for column in ("perturbation_class", "generator_model", "lever_selected", "domain", "model"):
        if column in df.columns:
            rows[column] = df[column].to_numpy()
    if intensity is not None:
        rows["intensity"] = intensity.to_numpy()
    names = list(columns)
    stats = np.column_stack([np.asarray(columns[n], dtype=float) for n in names])
    notes = {"unrecognised_labels": n_unknown, "answerable_attempts_unjudged": int(ans_unjudged.sum())}
    gt_code = gt.map({label: i for i, label in enumerate(GROUND_TRUTH_LABELS)}).to_numpy(dtype=np.intp)
    pred_code = pred.map({label: i for i, label in enumerate(PREDICTION_LABELS)}).to_numpy(dtype=np.intp)
    return Prepared(
        rows,
        gt_code,
        pred_code,
        outcome_code,
        stats,
        names,
        codes,
        cluster_ids,
        cluster_column,
        has_quality,
        quality_reason,
        has_mp,
        confidence,
        notes,
        official_correct,
        quality_reason if not has_quality_column else None,
    )
