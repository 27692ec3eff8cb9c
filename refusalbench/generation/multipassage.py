"""Multi-passage edits addressed by the labels the generator is shown.

Convention (explicit, and tested): the generator prompt lists the signal passages as S1..Sk in
the order of ``signal_indices`` and the noise passages as N1..Nm in the order of
``noise_indices``. A label is 1-based and counts within its kind, so ``S<j>`` is stored at
``passages[signal_indices[j - 1]]`` and ``N<j>`` at ``passages[noise_indices[j - 1]]``.
Example: ``S2`` edits the second signal passage, ``passages[signal_indices[1]]``. (The original
code mixed 1-based display labels with 0-based ``original_index`` values: off by one.)
"""

from __future__ import annotations

import re
from typing import Sequence

SIGNAL, NOISE = "S", "N"
_LABEL = re.compile(r"^\W*(?:passage\s*)?([SN])\s*[-_#]?\s*(\d+)\W*$", re.I)


class EditError(ValueError):
    """An edit that names no displayed passage, or names one twice."""


def normalise_label(label: str) -> str:
    """`"passage s2"`, `"[S2]"`, `"S 2"` → `"S2"`; EditError if it is not a passage label."""
    m = _LABEL.match(label)
    if not m:
        raise EditError(f'"{label}" is not a passage label; use the labels shown, such as "S1" or "N2"')
    return f"{m.group(1).upper()}{int(m.group(2))}"


def label_map(signal_indices: Sequence[int], noise_indices: Sequence[int]) -> dict[str, int]:
    """Displayed label → index into the stored passage list."""
    labels = {f"{SIGNAL}{j + 1}": int(i) for j, i in enumerate(signal_indices)}
    labels.update({f"{NOISE}{j + 1}": int(i) for j, i in enumerate(noise_indices)})
    return labels


def displayed(passages: Sequence[str], indices: Sequence[int], kind: str) -> list[dict]:
    """The passages of one kind as shown to the generator: ``[{"label": "S1", "text": ...}, ...]``."""
    return [{"label": f"{kind}{j + 1}", "text": passages[int(i)]} for j, i in enumerate(indices)]


def apply_edits(
    passages: Sequence[str],
    signal_indices: Sequence[int],
    noise_indices: Sequence[int],
    edits: Sequence[dict],
) -> tuple[list[str], list[str]]:
    """Apply ``[{"passage": LABEL, "perturbed_text": TEXT}]`` to a copy of `passages`.

    Returns the new passage list (same length and order as stored) and the labels whose text
    actually changed, sorted signal first. Unknown or repeated labels raise EditError.
    """
    where = label_map(signal_indices, noise_indices)
    out = list(passages)
    seen: set[str] = set()
    changed: list[str] = []
    for edit in edits:
        label = normalise_label(str(edit["passage"]))
        if label not in where:
            shown = ", ".join(where) or "none"
            raise EditError(f'passage label "{edit["passage"]}" does not exist; the passages shown were {shown}')
        if label in seen:
            raise EditError(f'passage "{label}" is edited more than once')
        seen.add(label)
        index = where[label]
        if edit["perturbed_text"] != passages[index]:
            out[index] = edit["perturbed_text"]
            changed.append(label)
    changed.sort(key=lambda lab: (lab[0] != SIGNAL, int(lab[1:])))
    return out, changed


def edited_labels(
    original: Sequence[str], perturbed: Sequence[str], signal_indices: Sequence[int], noise_indices: Sequence[int]
) -> tuple[list[str], list[int]]:
    """Labels of the passages that differ between two full lists, and stored indices no label covers."""
    where = label_map(signal_indices, noise_indices)
    by_index = {i: lab for lab, i in where.items()}
    labels, unlabelled = [], []
    for i, (a, b) in enumerate(zip(original, perturbed)):
        if a != b:
            (labels.append(by_index[i]) if i in by_index else unlabelled.append(i))
    labels.sort(key=lambda lab: (lab[0] != SIGNAL, int(lab[1:])))
    return labels, unlabelled
