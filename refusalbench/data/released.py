"""Released RefusalBench benchmarks (the hub datasets' rows): reading them into the benchmark table, and writing one.

RefusalBench-NQ rows hold ``id``, ``source_id``, ``generator_model``, ``perturbation_class``,
``intensity``, ``expected_rag_behavior``, ``lever_selected``, ``original_*``, ``perturbed_query``,
``perturbed_context``, ``implementation_reasoning`` and ``verifier_votes`` (verifier -> PASS).
RefusalBench-GaRAGe rows add ``query``, ``grounding`` (passages), ``reference_answer``,
``signal_indices``, ``noise_indices`` and the GaRAGe annotations. The stored expected behaviour is
the item's label; ``dataset.recompute_labels=true`` replaces it by the (class, intensity) rule.
Either way the items whose stored label disagrees with the rule are counted and logged; an item
without a stored label gets the rule's, and a stored value that is not a ground-truth label skips the item.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pandas as pd

from refusalbench.config import DatasetConfig
from refusalbench.data.garage import passage_text
from refusalbench.data.loader import load_records
from refusalbench.data.records import (
    LoadResult,
    RecordError,
    answers,
    finish,
    int_list,
    optional_text,
    text,
)
from refusalbench.taxonomy import CLASSES, GROUND_TRUTH_LABELS, INTENSITIES, ground_truth

log = logging.getLogger(__name__)

CORE_COLUMNS = [
    "id",
    "source_id",
    "generator_model",
    "perturbation_class",
    "intensity",
    "expected_rag_behavior",
    "lever_selected",
    "original_query",
    "original_context",
    "original_answers",
    "perturbed_query",
    "perturbed_context",
    "implementation_reasoning",
    "verifier_votes",
]
MULTI_COLUMNS = ["query", "grounding", "reference_answer", "signal_indices", "noise_indices", "relevant", "domain"]
GARAGE_ANNOTATIONS = [
    "question_category",
    "topic_tag",
    "question_tag",
    "question_type",
    "question_complexity",
    "question_popularity",
]
OPTIONAL_TEXT = ["generator_model", "lever_selected", "original_query", "implementation_reasoning"]


def votes(value: Any) -> dict[str, str]:
    """``verifier_votes`` as a plain dict: from a dict, a struct with nulls, or JSON text."""
    if value is None:
        return {}
    if isinstance(value, str):
        try:
            value = json.loads(value) if value.strip() else {}
        except json.JSONDecodeError:
            raise RecordError("'verifier_votes' is text but not JSON") from None
    if not isinstance(value, dict):
        raise RecordError(f"'verifier_votes' is not an object (got {type(value).__name__})")
    return {str(k): str(v) for k, v in value.items() if v is not None}


def _item_id(record: dict) -> str:
    value = record.get("id")
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return text(record, "id")


def _grounding(record: dict) -> list[str]:
    value = record.get("grounding")
    if not isinstance(value, list) or not value:
        raise RecordError("'grounding' is missing or not a non-empty list")
    out = []
    for i, passage in enumerate(value):
        passage_str = passage.strip() if isinstance(passage, str) else passage_text(passage)
        if not passage_str:
            raise RecordError(f"grounding[{i}] is not a non-empty text passage")
        out.append(passage_str)
    return out


def _indices(record: dict, key: str, n: int) -> list[int]:
    value = record.get(key)
    if value is None:
        return []
    idx = int_list(value, key)
    if any(i < 0 or i >= n for i in idx):
        raise RecordError(f"{key!r} has an index outside the {n} grounding passages")
    return idx


def _multi(record: dict, row: dict) -> None:
    grounding = _grounding(record)
    n = len(grounding)
    row["query"] = optional_text(record, "query") or row["perturbed_query"]
    row["grounding"] = grounding
    row["reference_answer"] = optional_text(record, "reference_answer")
    row["signal_indices"] = _indices(record, "signal_indices", n)
    row["noise_indices"] = _indices(record, "noise_indices", n)
    relevant = record.get("relevant")
    tags = record.get("evidence_relevant")
    if isinstance(relevant, list) and len(relevant) == n and all(isinstance(v, bool) for v in relevant):
        row["relevant"] = list(relevant)
    elif isinstance(tags, list) and len(tags) == n:
        row["relevant"] = [tag == "YES" for tag in tags]
    else:
        row["relevant"] = [i in row["signal_indices"] for i in range(n)]
    row["domain"] = optional_text(record, "domain") or optional_text(record, "question_category")
    if not row["original_answers"] and row["reference_answer"]:
        row["original_answers"] = [row["reference_answer"]]
    for key in GARAGE_ANNOTATIONS:
        if key in record:
            row[key] = record[key]


def normalise_record(record: dict, multi: bool, recompute_labels: bool = False) -> tuple[dict, bool]:
    """One released row in the benchmark-table columns; also whether its stored behaviour disagreed
    with the (class, intensity) rule. The stored label is kept unless `recompute_labels`."""
    record = dict(record)
    for key, alias in (("id", "unique_id"), ("source_id", "source_qid")):  # the stratified-file names
        if record.get(key) is None:
            record[key] = record.get(alias)
    cls, intensity = text(record, "perturbation_class"), text(record, "intensity")
    if cls not in CLASSES:
        raise RecordError(f"unknown perturbation_class {cls!r}")
    if intensity not in INTENSITIES:
        raise RecordError(f"unknown intensity {intensity!r}")
    rule = ground_truth(cls, intensity)
    stored = record.get("expected_rag_behavior")
    if stored is not None and stored not in GROUND_TRUTH_LABELS:
        raise RecordError(
            f"expected_rag_behavior {stored!r} is not a ground-truth label ({', '.join(GROUND_TRUTH_LABELS)})"
        )
    expected = rule if recompute_labels or stored is None else stored
    perturbed_query = optional_text(record, "perturbed_query") or (optional_text(record, "query") if multi else None)
    if not perturbed_query:
        raise RecordError("missing field 'perturbed_query'")
    raw_answers = record.get("original_answers")
    source_id = record.get("source_id")
    row = {
        "id": _item_id(record),
        "source_id": None if source_id is None else str(source_id),
        "perturbation_class": cls,
        "intensity": intensity,
        "expected_rag_behavior": expected,
        "original_context": optional_text(record, "original_context"),
        "original_answers": [] if multi and raw_answers is None else answers(raw_answers, "original_answers"),
        "perturbed_query": perturbed_query,
        "perturbed_context": optional_text(record, "perturbed_context") if multi else text(record, "perturbed_context"),
        "verifier_votes": votes(record.get("verifier_votes")),
    }
    for key in OPTIONAL_TEXT:
        row[key] = optional_text(record, key)
    if multi:
        _multi(record, row)
    return row, stored is not None and stored != rule


def load_released(cfg: DatasetConfig, multi: bool) -> LoadResult:
    """A released (or previously written) benchmark as the benchmark table."""
    if cfg.n_base is not None:
        log.warning("dataset.n_base is ignored for a released benchmark; use evaluate.limit to evaluate fewer items")
    records, skips = load_records(cfg)
    rows, seen, disagree = [], set(), 0
    for where, record in records:
        try:
            row, differs = normalise_record(record, multi, cfg.recompute_labels)
        except RecordError as exc:
            skips.skip(where, str(exc))
            continue
        if row["id"] in seen:
            skips.skip(where, f"duplicate id {row['id']!r}")
            continue
        seen.add(row["id"])
        disagree += differs
        rows.append(row)
    if disagree:
        used = (
            "the rule's label is used (dataset.recompute_labels=true)"
            if cfg.recompute_labels
            else ("the stored label is used (dataset.recompute_labels=true uses the rule)")
        )
        log.warning(
            "%d item(s) store an expected_rag_behavior that disagrees with the (class, intensity) rule; %s",
            disagree,
            used,
        )
    columns = CORE_COLUMNS + (MULTI_COLUMNS if multi else [])
    columns += [c for c in GARAGE_ANNOTATIONS if any(c in r for r in rows)]
    table = pd.DataFrame(rows, columns=columns)
    return finish(
        table, skips, counts={"read": len(records), "behavior_disagreements": disagree, "selected": len(table)}
    )
