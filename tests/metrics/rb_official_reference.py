"""An independent, literal re-statement of the official figure code's formulas (headline, per-class, ECE).

Written from a reading of that code with plain pandas over a CSV read the way the official scripts read
it (``pd.read_csv`` with its defaults), so it shares no code with `refusalbench.metrics`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

SUFFIXES = (
    "AMBIGUOUS_QUERY",
    "CONTRADICTORY_CONTEXT",
    "INFO_MISSING_IN_CONTEXT",
    "FALSE_PREMISE_IN_QUERY",
    "GRANULARITY_MISMATCH",
    "NONFACTUAL_QUERY",
)
LEVELS = {
    "VERY_UNCERTAIN": (0, 0.3),
    "UNCERTAIN": (0.3, 0.5),
    "SOMEWHAT_CONFIDENT": (0.5, 0.7),
    "CONFIDENT": (0.7, 0.9),
    "VERY_CONFIDENT": (0.9, 1.0),
}


def _share(mask: pd.Series) -> float:
    return float(mask.mean()) if len(mask) else 0.0


def core(df: pd.DataFrame) -> dict:
    """E.1 for one model's rows."""
    gt, pred = df["ground_truth_label"], df["model_predicted_type"]
    a, u = df[gt == "ANSWER_CORRECTLY"], df[gt != "ANSWER_CORRECTLY"]
    refused = pred != "answer_attempt"
    attempts = a[a["model_predicted_type"] == "answer_attempt"]
    answer = (attempts["answer_quality_score"] >= 4).sum() / len(a) if len(a) and len(attempts) else 0.0
    refusal = u["refusal_match_correct"].mean() if len(u) else 0.0
    true_refusals = df[refused & (gt != "ANSWER_CORRECTLY")]
    n_refusals = int(refused.sum())
    precision = len(true_refusals) / n_refusals if n_refusals else 0.0
    recall = len(true_refusals) / len(u) if len(u) else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    u_refused = u[u["model_predicted_type"] != "answer_attempt"]
    exact = (u_refused["refusal_match_correct"] == True).sum()  # noqa: E712
    category = exact / len(true_refusals) if len(true_refusals) else 0.0
    return {
        "answer_accuracy": answer,
        "refusal_accuracy": refusal,
        "calibrated_refusal_score": 0.5 * answer + 0.5 * refusal,
        "false_refusal_rate": _share(a["model_predicted_type"] != "answer_attempt"),
        "missed_refusal_rate": _share(u["model_predicted_type"] == "answer_attempt"),
        "overall_refusal_rate": _share(u["model_predicted_type"] != "answer_attempt"),
        "detection_precision": precision,
        "detection_recall": recall,
        "detection_f1": f1,
        "category_accuracy": category,
        "hierarchical_refusal_score": f1 * category,
        "answerable_instances": len(a),
        "unanswerable_instances": len(u),
    }


def per_class(df: pd.DataFrame) -> dict:
    """E.2: per refusal code, over the rows whose ground truth contains it."""
    out = {}
    for suffix in SUFFIXES:
        part = df[df["ground_truth_label"].str.contains(f"REFUSE_{suffix}", na=False)]
        if len(part):
            out[suffix] = {
                "refusal_accuracy": part["refusal_match_correct"].mean(),
                "refusal_rate": (part["model_predicted_type"] != "answer_attempt").mean(),
            }
    return out


def ece(df: pd.DataFrame) -> dict:
    """E.4 with a confidence_level column: overall, answer and refusal ECE."""

    def correct(row):
        if row["ground_truth_label"] == "ANSWER_CORRECTLY":
            return row["model_predicted_type"] == "answer_attempt" and row["answer_quality_score"] >= 4
        return row["refusal_match_correct"] == True  # noqa: E712

    df = df.assign(ok=df.apply(correct, axis=1))
    total = overall = answers = refusals = 0.0
    for level, (low, high) in LEVELS.items():
        part = df[df["confidence_level"] == level]
        if not len(part):
            continue
        mid = np.mean([low, high])
        overall += len(part) * abs(part["ok"].mean() - mid)
        total += len(part)
        a = part[part["ground_truth_label"] == "ANSWER_CORRECTLY"]
        u = part[part["ground_truth_label"] != "ANSWER_CORRECTLY"]
        if len(a):
            answers += len(a) * abs(a["ok"].mean() - mid)
        if len(u):
            refusals += len(u) * abs(u["ok"].mean() - mid)
    n_a = (df["ground_truth_label"] == "ANSWER_CORRECTLY").sum()
    n_u = len(df) - n_a
    return {
        "ece_5bin": overall / total if total else 0.0,
        "ece_5bin_answers": answers / n_a if n_a else 0.0,
        "ece_5bin_refusals": refusals / n_u if n_u else 0.0,
    }


def figures(path) -> dict:
    """{model_id: {"core": …, "per_class": …, "ece": … (when confidence_level is given)}}."""
    df = pd.read_csv(path)
    out = {}
    for model in df["model_id"].unique():
        part = df[df["model_id"] == model].copy()
        out[str(model)] = {"core": core(part), "per_class": per_class(part)}
        if "confidence_level" in part.columns:
            out[str(model)]["ece"] = ece(part)
    return out
