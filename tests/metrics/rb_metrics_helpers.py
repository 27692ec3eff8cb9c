"""Small labels tables for the metrics tests (the columns of the judge stage's labels.parquet)."""

from __future__ import annotations

import pandas as pd

from refusalbench.taxonomy import CLASS_TO_CODE, CODE_TO_CLASS

A = "ANSWER_CORRECTLY"
AMB = CLASS_TO_CODE["P-Ambiguity"]
CON = CLASS_TO_CODE["P-Contradiction"]
MIS = CLASS_TO_CODE["P-MissingInfo"]
OTHER = "REFUSE_OTHER"
ATT = "answer_attempt"


def labels(rows, **extra) -> pd.DataFrame:
    """rows: (expected, predicted, answer_correct, source_id[, intensity]) tuples.

    The class follows the expected code (answerable rows: P-Ambiguity unless `classes` is given);
    the intensity defaults to LOW for answerable and MEDIUM for unanswerable rows.
    """
    records = []
    for i, row in enumerate(rows):
        gt, pred, correct, source = row[:4]
        intensity = row[4] if len(row) > 4 else ("LOW" if gt == A else "MEDIUM")
        records.append(
            {
                "id": f"item-{i}",
                "source_id": source,
                "expected_rag_behavior": gt,
                "predicted_label": pred,
                "answer_correct": correct,
                "perturbation_class": CODE_TO_CLASS.get(gt, "P-Ambiguity"),
                "intensity": intensity,
            }
        )
    df = pd.DataFrame(records)
    for key, values in extra.items():
        df[key] = values
    return df


#: The worked example of the tests: one item in each response category.
EIGHT = [
    (A, ATT, True, "s1"),  # correct answer
    (A, ATT, False, "s1"),  # wrong answer
    (A, OTHER, None, "s2"),  # false refusal
    (A, "truncated", None, "s2"),  # truncated on an answerable item
    (AMB, AMB, None, "s1", "MEDIUM"),  # correct refusal
    (AMB, OTHER, None, "s1", "HIGH"),  # wrong-category refusal
    (CON, ATT, False, "s2", "MEDIUM"),  # missed refusal
    (CON, "unscored", None, "s3", "HIGH"),  # unscored on an unanswerable item
]


def value(metrics: dict, name: str):
    return metrics[name]["value"]
