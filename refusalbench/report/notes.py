"""Plain-language notes under the headline table: why a headline figure is what it is.

A figure such as "refusal accuracy 0.000" is correct yet hard to read alone: a model may refuse
most unanswerable items and still score 0 because every refusal names the wrong reason. These
notes are read off each run's confusion matrix (expected label x predicted label) and say

- when a refusal accuracy of 0 comes with refusals (detected, but never the item's own code);
- when most of a run's refusals are one code (the model gives the same reason whatever the item);
- when the model uses a code whose class has no item in the benchmark (each such refusal is wrong).
"""

from __future__ import annotations

from typing import Optional

from refusalbench.taxonomy import CLASS_TO_CODE

CODE_TO_CLASS = {code: cls for cls, code in CLASS_TO_CODE.items()}
#: a run whose refusals are at least this share one code gets the "same reason" note
ONE_CODE_SHARE = 0.8
#: ... when it made at least this many refusals
MIN_REFUSALS = 10


def _refusals_by_code(matrix: dict) -> tuple[dict[str, int], dict[str, int]]:
    """(refusals per predicted code over all items, items per expected label)."""
    rows, columns, counts = matrix["rows"], matrix["columns"], matrix["counts"]
    used = {c: 0 for c in columns if str(c).startswith("REFUSE_")}
    expected = {r: 0 for r in rows}
    for r, row in zip(rows, counts):
        expected[r] = int(sum(row))
        for c, n in zip(columns, row):
            if c in used:
                used[c] += int(n)
    return {c: n for c, n in used.items() if n}, expected


def _value(metrics: dict, key: str) -> Optional[float]:
    entry = metrics.get(key)
    return entry.get("value") if isinstance(entry, dict) else None


def run_notes(run: str, metrics: dict) -> list[str]:
    """The notes for one run (empty when nothing needs saying)."""
    matrix = metrics.get("confusion_matrix")
    if not matrix or not matrix.get("counts"):
        return []
    used, expected = _refusals_by_code(matrix)
    total = sum(used.values())
    notes = []
    accuracy, recall = _value(metrics, "refusal_accuracy"), _value(metrics, "detection_recall")
    n_unanswerable = (metrics.get("refusal_accuracy") or {}).get("n")
    if accuracy == 0 and recall and n_unanswerable:
        notes.append(
            f"Refusal accuracy is 0 although {run} refused {round(recall * n_unanswerable)} of its "
            f"{n_unanswerable} unanswerable items (detection recall {recall:.2f}): it refused, but never with the "
            "item's own code (category accuracy 0)."
        )
    if total >= MIN_REFUSALS:
        code, n = max(used.items(), key=lambda kv: kv[1])
        if n / total >= ONE_CODE_SHARE:
            due = expected.get(code, 0)
            share = f"All {n}" if n == total else f"{n} of {total} ({n / total:.0%})"
            limit = (
                f", so at most the {due} item(s) whose ground truth is `{code}` can be refused correctly" if due else ""
            )
            notes.append(
                f"{share} of {run}'s refusals are the one code `{code}`: the model gives the same reason whatever "
                f"the item{limit}."
            )
    for code, n in sorted(used.items()):
        cls = CODE_TO_CLASS.get(code)
        if cls and expected.get(code, 0) == 0:
            notes.append(
                f"The benchmark has no {cls} item (ground truth `{code}`), so each of {run}'s {n} `{code}` "
                "refusals names a reason no item has: on an answerable item it is a false refusal, on an "
                "unanswerable one a wrong-category refusal."
            )
    return notes


def reading_notes(runs: dict[str, dict]) -> list[str]:
    """Markdown lines: a "Reading these numbers" list for every run that needs one (else nothing)."""
    notes = [note for run, metrics in runs.items() for note in run_notes(run, metrics)]
    if not notes:
        return []
    return ["### Reading these numbers", "", *[f"- {note}" for note in notes], ""]
