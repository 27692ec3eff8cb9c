"""Deterministic checks of a generated candidate, run before any verifier is paid.

A candidate passes when the perturbation changed something, only the class's target was
modified, a MEDIUM/HIGH MissingInfo item keeps no original answer string in its context, the
lever is in the catalogue cell, and no semantic detector (refusalbench.generation.semantic) fires.
Every failed rule is reported, joined by "; "; detector hits are also listed by name.
"""

from __future__ import annotations

import re
from typing import Callable, Mapping, Optional

from refusalbench import taxonomy as tx
from refusalbench.generation.multipassage import NOISE, SIGNAL, edited_labels
from refusalbench.generation.semantic import Candidate, detect
from refusalbench.rows import as_list, is_missing

LeverKnown = Callable[[str, str, str], bool]


def surviving_answers(answers: Optional[list], texts: list[str]) -> list[str]:
    """Answers found in any of `texts`, case-insensitively and as whole words (so "1" is not in "1990")."""
    found = []
    for answer in answers or []:
        answer = str(answer).strip()
        if not answer:
            continue
        pattern = re.compile(r"(?<!\w)" + re.escape(answer) + r"(?!\w)", re.I)
        if any(pattern.search(t) for t in texts):
            found.append(answer)
    return found


def _single(row: Mapping, cls: str, reasons: list[str]) -> list[str]:
    query_changed = row["perturbed_query"] != row["original_query"]
    context = row.get("perturbed_context")
    if context is None or not str(context).strip():
        reasons.append("the perturbed context is empty")
        context = ""
    context_changed = context != row["original_context"]
    if not (query_changed or context_changed):
        reasons.append("nothing was changed")
    elif cls == tx.FALSE_PREMISE:
        if context_changed:
            reasons.append(f"{cls} must leave the context byte-identical")
        if not query_changed:
            reasons.append(f"{cls} must change the query")
    elif cls in (tx.MISSING_INFO, tx.CONTRADICTION):
        if query_changed:
            reasons.append(f"{cls} must leave the query unchanged")
        if not context_changed:
            reasons.append(f"{cls} must change the context")
    return [context]


def _multi(row: Mapping, cls: str, reasons: list[str]) -> list[str]:
    original, perturbed = as_list(row["original_passages"]), as_list(row.get("perturbed_passages"))
    if len(perturbed) != len(original):
        reasons.append("the perturbed passage list does not match the original passage count")
        return perturbed
    labels, unlabelled = edited_labels(
        original, perturbed, as_list(row["signal_indices"]), as_list(row["noise_indices"])
    )
    signal = [lab for lab in labels if lab.startswith(SIGNAL)]
    noise = [lab for lab in labels if lab.startswith(NOISE)]
    query_changed = row["perturbed_query"] != row["original_query"]
    if unlabelled:
        reasons.append(f"passages at stored indices {unlabelled} are neither signal nor noise but were edited")
    if not (query_changed or labels):
        reasons.append("nothing was changed")
        return perturbed
    if cls == tx.FALSE_PREMISE:
        if labels:
            reasons.append(f"{cls} must edit no passage, edited {labels}")
        if not query_changed:
            reasons.append(f"{cls} must change the query")
        return perturbed
    if cls != tx.AMBIGUITY and query_changed:
        reasons.append(f"{cls} must leave the query unchanged")
    if cls == tx.CONTRADICTION:
        if signal:
            reasons.append(f"{cls} must edit no signal passage, edited {signal}")
        if len(noise) != 1:
            reasons.append(f"{cls} must edit exactly one noise passage, edited {len(noise)}")
        return perturbed
    if noise:
        reasons.append(f"{cls} may edit only signal passages, edited noise {noise}")
    if cls != tx.AMBIGUITY and not signal:
        reasons.append(f"{cls} must edit the signal passages")
    return perturbed


def candidate_view(row: Mapping) -> Candidate:
    """The texts of a candidate row as the semantic detectors see them."""
    if not is_missing(row.get("original_passages")):
        original, perturbed = as_list(row.get("original_passages")), as_list(row.get("perturbed_passages"))
    else:
        original, perturbed = [row.get("original_context") or ""], [row.get("perturbed_context") or ""]
    return Candidate(
        row["perturbation_class"],
        row["intensity"],
        row.get("original_query") or "",
        row.get("perturbed_query") or "",
        [str(p) for p in original],
        [str(p) for p in perturbed],
        [str(a) for a in as_list(row.get("original_answers"))],
    )


def semantic_hits(row: Mapping) -> list[tuple[str, str]]:
    """(detector, reason) for each semantic detector the (generated) candidate row fails."""
    if not row.get("generation_ok") or not str(row.get("perturbed_query") or "").strip():
        return []
    return detect(candidate_view(row))


def check_candidate(
    row: Mapping, lever_known: Optional[LeverKnown] = None, hits: Optional[list[tuple[str, str]]] = None
) -> tuple[bool, Optional[str]]:
    """(ok, reason) for one candidate row of `candidates.parquet`; `hits` defaults to its semantic hits."""
    if not row.get("generation_ok"):
        return False, f"generation failed: {row.get('generation_error') or 'unknown error'}"
    cls, intensity = row["perturbation_class"], row["intensity"]
    reasons: list[str] = []
    if not str(row.get("perturbed_query") or "").strip():
        reasons.append("the perturbed query is empty")
    multi = not is_missing(row.get("original_passages"))
    texts = _multi(row, cls, reasons) if multi else _single(row, cls, reasons)
    if cls == tx.MISSING_INFO and intensity in (tx.MEDIUM, tx.HIGH):
        left = surviving_answers(as_list(row.get("original_answers")), [str(t) for t in texts])
        if left:
            reasons.append("original answer(s) still present in the context: " + ", ".join(f'"{a}"' for a in left))
    lever = row.get("lever_selected")
    if lever_known is not None and not (lever and lever_known(cls, intensity, lever)):
        reasons.append(f'lever "{lever}" is not in the catalogue cell {cls}/{intensity}')
    if hits is None:
        hits = semantic_hits(row)
    reasons += [f"{name}: {why}" for name, why in hits]
    return (not reasons), ("; ".join(reasons) or None)
