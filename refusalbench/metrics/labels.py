"""Normalising label cells (predicted and ground-truth) to the project's vocabulary.

These functions read a *label* — the content of a label column such as ``model_predicted_type`` —
not a raw model output (that is the judge's job), with the code normaliser the judge uses
(`refusalbench.judging.codes`). Under the ``strict`` convention they tolerate case, markdown markup,
quotes, brackets, trailing punctuation, hyphens or spaces instead of underscores and the paper's
short code names (``REFUSE_MISSING`` …). The original evaluator's error sentinel ``ERROR`` (and an
empty cell) becomes ``unscored``; ``ANSWER_CORRECTLY`` written as a prediction means an answer
attempt. A predicted label that matches nothing (``REFUSE_NONE``) is ``unscored`` and counted, never
guessed. The ``official`` convention reads the raw strings instead (see `refusalbench.metrics.official`).
"""

from __future__ import annotations

import pandas as pd

from refusalbench.errors import UserError
from refusalbench.judging.codes import CODE_NAMES, normalise_token, strip_wrapping
from refusalbench.taxonomy import (
    ANSWER_ATTEMPT,
    ANSWER_CORRECTLY,
    CLASS_TO_CODE,
    GROUND_TRUTH_LABELS,
    SHORT_CODES,
    TRUNCATED,
    UNSCORED,
)

_PREDICTED: dict[str, str] = {
    **CODE_NAMES,
    "ANSWER_ATTEMPT": ANSWER_ATTEMPT,
    ANSWER_CORRECTLY: ANSWER_ATTEMPT,
    "ANSWER": ANSWER_ATTEMPT,
    "TRUNCATED": TRUNCATED,
    "UNSCORED": UNSCORED,
    "ERROR": UNSCORED,
    "": UNSCORED,
}
_GROUND_TRUTH: dict[str, str] = {
    **{label: label for label in GROUND_TRUTH_LABELS},
    **{short: long for short, long in SHORT_CODES.items() if long in CLASS_TO_CODE.values()},
}


def _clean(value) -> str:
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return ""
    return normalise_token(strip_wrapping(str(value)))


def normalise_predicted(values: pd.Series) -> tuple[pd.Series, int]:
    """Canonical predicted labels for `values`, and how many cells were unrecognised (→ unscored)."""
    uniques = pd.unique(values.astype(object))
    mapping = {}
    unknown = set()
    for raw in uniques:
        key = _clean(raw)
        label = _PREDICTED.get(key)
        if label is None:
            unknown.add(raw)
            label = UNSCORED
        mapping[raw] = label
    out = values.astype(object).map(mapping).astype(object)
    n_unknown = int(values.astype(object).isin(list(unknown)).sum()) if unknown else 0
    return out, n_unknown


def normalise_ground_truth(values: pd.Series, column: str = "expected_rag_behavior") -> pd.Series:
    """Canonical ground-truth labels; a UserError naming the values that are not ground truths."""
    uniques = pd.unique(values.astype(object))
    mapping = {raw: _GROUND_TRUTH.get(_clean(raw)) for raw in uniques}
    bad = [raw for raw, label in mapping.items() if label is None]
    if bad:
        shown = ", ".join(repr(b) for b in bad[:5]) + (" …" if len(bad) > 5 else "")
        raise UserError(
            f"Column {column!r} holds {len(bad)} value(s) that are not ground-truth labels ({shown}); "
            f"expected one of {', '.join(GROUND_TRUTH_LABELS)} (REFUSE_OTHER is never a ground truth)."
        )
    return values.astype(object).map(mapping).astype(object)
