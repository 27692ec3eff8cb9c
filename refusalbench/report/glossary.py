"""The report's glossary: what every metric means, and which refusal code belongs to which class.

A = answerable items (ground truth ANSWER_CORRECTLY, the LOW-intensity perturbations), U =
unanswerable items (ground truth a refusal code, MEDIUM and HIGH). A refusal is any of the seven
REFUSE_* codes; a correct refusal on U gives the item's own code.
"""

from __future__ import annotations

from refusalbench.taxonomy import CLASS_TO_CODE, REFUSE_OTHER, SHORT_CODES

#: (column or metric name, short name, definition), in the order the report shows them
METRICS: tuple[tuple[str, str, str], ...] = (
    ("answer_accuracy", "answer acc.", "share of answerable items (A) answered correctly"),
    ("refusal_accuracy", "refusal acc.", "share of unanswerable items (U) refused with the item's own code"),
    (
        "calibrated_refusal_score",
        "CRS",
        "Calibrated Refusal Score: the mean of answer accuracy and refusal accuracy; "
        "undefined on a slice holding only A or only U items (e.g. one intensity)",
    ),
    ("false_refusal_rate", "FRR", "False Refusal Rate: share of answerable items (A) refused with any code"),
    (
        "missed_refusal_rate",
        "MRR",
        "Missed Refusal Rate: share of unanswerable items (U) not refused "
        "(answered, truncated or unscored); equals 1 - detection recall",
    ),
    ("detection_precision", "detection P", "share of refusals (any code) that were on unanswerable items"),
    (
        "detection_recall",
        "detection R",
        "share of unanswerable items refused with any code; the paper's "
        "'correct refusal rate' (in metrics.json also as overall_refusal_rate, the same number)",
    ),
    ("detection_f1", "detection F1", "harmonic mean of detection precision and recall: is there a reason to refuse?"),
    (
        "category_accuracy",
        "category acc.",
        "among refusals on unanswerable items, the share with the item's own code: is the reason named correctly?",
    ),
    (
        "hierarchical_refusal_score",
        "HRS",
        "Hierarchical Refusal Score: detection F1 x category accuracy (detecting and naming the reason)",
    ),
    ("refusal_volume", "refusal volume", "share of all items refused with any code"),
    (
        "refusal_rate",
        "refusal rate",
        "share of the items of a cell refused with any code; at LOW intensity "
        "(answerable items) it is the false-refusal rate, at MEDIUM/HIGH it is detection recall",
    ),
    ("truncated", "truncated", "responses with no answer (empty, or cut off by the token limit); never a refusal"),
    ("unscored", "unscored", "responses with no usable label (unparsable, unknown label, judge failure)"),
    ("ece_5bin", "ECE", "expected calibration error of stated confidence (5 equal-width bins)"),
)

#: the names this project once used for the same numbers, mapped to the name the report uses
SAME_NUMBER_AS = {"overall_refusal_rate": "detection_recall"}


def glossary_markdown() -> list[str]:
    """The glossary and the class <-> code table, as Markdown lines."""
    lines = [
        "## Glossary",
        "",
        "A = answerable items (ground truth ANSWER_CORRECTLY: LOW-intensity perturbations); "
        "U = unanswerable items (ground truth a refusal code: MEDIUM and HIGH). "
        "Intervals are 95% bootstrap intervals clustered by source question unless a table says otherwise.",
        "",
        "| metric | short | meaning |",
        "|---|---|---|",
    ]
    lines += [f"| `{name}` | {short} | {meaning} |" for name, short, meaning in METRICS]
    short_of: dict[str, str] = {}
    for short, long in SHORT_CODES.items():
        short_of.setdefault(long, short)
    lines += [
        "",
        "### Uncertainty classes and their refusal codes",
        "",
        "The same code names are used in logs, tables and the confusion matrices.",
        "",
        "| class | refusal code (ground truth at MEDIUM/HIGH) | short form accepted on input |",
        "|---|---|---|",
    ]
    lines += [f"| {cls} | `{code}` | `{short_of.get(code, '')}` |" for cls, code in CLASS_TO_CODE.items()]
    lines += [f"| (none: a refusal that names no class) | `{REFUSE_OTHER}` | |", ""]
    return lines
