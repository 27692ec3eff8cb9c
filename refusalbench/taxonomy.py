"""The RefusalBench taxonomy: uncertainty classes, intensities, labels and the ground-truth rule.

Everything here is fixed by the method (arXiv 2510.10390); other modules import these names
instead of spelling the strings themselves.
"""

from __future__ import annotations

from typing import Final

from refusalbench.errors import UserError

AMBIGUITY: Final = "P-Ambiguity"
CONTRADICTION: Final = "P-Contradiction"
MISSING_INFO: Final = "P-MissingInfo"
FALSE_PREMISE: Final = "P-FalsePremise"
GRANULARITY: Final = "P-GranularityMismatch"
EPISTEMIC: Final = "P-EpistemicMismatch"

CLASSES: Final[tuple[str, ...]] = (
    AMBIGUITY,
    CONTRADICTION,
    MISSING_INFO,
    FALSE_PREMISE,
    GRANULARITY,
    EPISTEMIC,
)

LOW: Final = "LOW"
MEDIUM: Final = "MEDIUM"
HIGH: Final = "HIGH"
INTENSITIES: Final[tuple[str, ...]] = (LOW, MEDIUM, HIGH)

ANSWER_CORRECTLY: Final = "ANSWER_CORRECTLY"
REFUSE_OTHER: Final = "REFUSE_OTHER"

#: class -> the refusal code a competent system should give at MEDIUM/HIGH intensity.
CLASS_TO_CODE: Final[dict[str, str]] = {
    AMBIGUITY: "REFUSE_AMBIGUOUS_QUERY",
    CONTRADICTION: "REFUSE_CONTRADICTORY_CONTEXT",
    MISSING_INFO: "REFUSE_INFO_MISSING_IN_CONTEXT",
    FALSE_PREMISE: "REFUSE_FALSE_PREMISE_IN_QUERY",
    GRANULARITY: "REFUSE_GRANULARITY_MISMATCH",
    EPISTEMIC: "REFUSE_NONFACTUAL_QUERY",
}
CODE_TO_CLASS: Final[dict[str, str]] = {code: cls for cls, code in CLASS_TO_CODE.items()}

#: The paper's short code names -> the long codes the evaluation prompt lists.
SHORT_CODES: Final[dict[str, str]] = {
    "REFUSE_AMBIGUOUS": "REFUSE_AMBIGUOUS_QUERY",
    "REFUSE_CONTRADICTORY": "REFUSE_CONTRADICTORY_CONTEXT",
    "REFUSE_MISSING": "REFUSE_INFO_MISSING_IN_CONTEXT",
    "REFUSE_INFO_MISSING": "REFUSE_INFO_MISSING_IN_CONTEXT",
    "REFUSE_FALSE_PREMISE": "REFUSE_FALSE_PREMISE_IN_QUERY",
    "REFUSE_GRANULARITY": "REFUSE_GRANULARITY_MISMATCH",
    "REFUSE_NONFACTUAL": "REFUSE_NONFACTUAL_QUERY",
}

#: The seven codes a model may output, in the order the evaluation prompt lists them.
REFUSAL_CODES: Final[tuple[str, ...]] = (*CLASS_TO_CODE.values(), REFUSE_OTHER)
#: Labels that can be a ground truth (REFUSE_OTHER never is).
GROUND_TRUTH_LABELS: Final[tuple[str, ...]] = (ANSWER_CORRECTLY, *CLASS_TO_CODE.values())

#: Judge-side labels for a response.
ANSWER_ATTEMPT: Final = "answer_attempt"
TRUNCATED: Final = "truncated"
UNSCORED: Final = "unscored"
PREDICTION_LABELS: Final[tuple[str, ...]] = (ANSWER_ATTEMPT, *REFUSAL_CODES, TRUNCATED, UNSCORED)

#: What each class modifies: single-passage (NQ) and multi-passage (GaRAGe) data.
TARGETS_SINGLE: Final[dict[str, str]] = {
    AMBIGUITY: "Query<->Context",
    CONTRADICTION: "Context",
    MISSING_INFO: "Context",
    FALSE_PREMISE: "Query",
    GRANULARITY: "Query<->Context",
    EPISTEMIC: "Query<->Context",
}
TARGETS_MULTI: Final[dict[str, str]] = {
    AMBIGUITY: "Query/Context",
    CONTRADICTION: "Context",
    MISSING_INFO: "Context",
    FALSE_PREMISE: "Query",
    GRANULARITY: "Context",
    EPISTEMIC: "Context",
}


class TaxonomyError(UserError, ValueError):
    """An unknown class, intensity or label."""


def check_class(perturbation_class: str) -> str:
    """Return ``perturbation_class`` if it is one of the six classes, else raise TaxonomyError."""
    if perturbation_class not in CLASSES:
        raise TaxonomyError(f"Unknown perturbation class {perturbation_class!r}; expected one of {', '.join(CLASSES)}.")
    return perturbation_class


def check_intensity(intensity: str) -> str:
    """Return ``intensity`` if it is LOW, MEDIUM or HIGH, else raise TaxonomyError."""
    if intensity not in INTENSITIES:
        raise TaxonomyError(f"Unknown intensity {intensity!r}; expected one of {', '.join(INTENSITIES)}.")
    return intensity


def ground_truth(perturbation_class: str, intensity: str) -> str:
    """The expected behaviour of a (class, intensity) cell: LOW is answered, MEDIUM/HIGH refused."""
    check_class(perturbation_class)
    if check_intensity(intensity) == LOW:
        return ANSWER_CORRECTLY
    return CLASS_TO_CODE[perturbation_class]


def target(perturbation_class: str, multi_passage: bool = False) -> str:
    """What a perturbation of this class may modify, for single- or multi-passage data."""
    check_class(perturbation_class)
    return (TARGETS_MULTI if multi_passage else TARGETS_SINGLE)[perturbation_class]


def cells() -> list[tuple[str, str]]:
    """The 18 (class, intensity) strata in the method's canonical order."""
    return [(c, i) for c in CLASSES for i in INTENSITIES]
