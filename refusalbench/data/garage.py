"""GaRAGe multi-passage source, curated as in the paper.

1. Structure: ``question``, ``grounding`` (list of objects) and per-passage ``evidence_correct``,
   ``evidence_cited``, ``evidence_relevant`` lists of the same length; else a bad record.
2. Eligibility: ``answer_validate == "YES"``, some passage is ANSWER-THE-QUESTION, complexity in
   {Simple, Simple w. condition, Comparison, Set}, type SLOW-CHANGING or empty, >= 10 passages.
3. Eligible records also need a non-empty ``answer_generate`` and a text for every passage (the
   first ``cite_*`` key with a string value); else a bad record.
4. Pools per ``question_category``; per domain (in ``dataset.domains`` order, one RNG seeded with
   ``dataset.seed``) ``random.sample(pool, min(per_domain, len(pool)))``.
5. Exactly ``passages_per_question`` passages: up to ``max_signal_passages`` signal passages
   (ANSWER-THE-QUESTION), filled with noise; both groups ordered by priority (cited 0,
   RELATED-INFORMATION 1, else 2; stable); kept indices back in original order; a record that
   cannot reach the count is dropped.
"""

from __future__ import annotations

import copy
import logging
import random

import pandas as pd

from refusalbench.config import DatasetConfig
from refusalbench.data.loader import load_records
from refusalbench.data.nq import sample
from refusalbench.data.records import LoadResult, RecordError, content_id, finish, record_json, text

log = logging.getLogger(__name__)

SIGNAL = "ANSWER-THE-QUESTION"
RELATED = "RELATED-INFORMATION"
COMPLEXITIES = frozenset({"Simple", "Simple w. condition", "Comparison", "Set"})
QUESTION_TYPES = frozenset({"SLOW-CHANGING", ""})
MIN_GROUNDING = 10
PER_PASSAGE = ("evidence_correct", "evidence_cited", "evidence_relevant")
COLUMNS = [
    "source_id",
    "query",
    "answers",
    "passages",
    "signal_indices",
    "noise_indices",
    "relevant",
    "reference_answer",
    "domain",
    "grounding_indices",
    "source_record",
]


def passage_text(passage: object) -> str | None:
    """The text of a grounding passage: the first ``cite_*`` key with a non-empty string value."""
    if not isinstance(passage, dict):
        return None
    for key, value in passage.items():
        if str(key).startswith("cite_") and isinstance(value, str) and value.strip():
            return value.strip()
    return None


def check_structure(record: dict) -> None:
    text(record, "question")
    grounding = record.get("grounding")
    if not isinstance(grounding, list) or not grounding:
        raise RecordError("'grounding' is missing or not a non-empty list")
    for i, passage in enumerate(grounding):
        if not isinstance(passage, dict):
            raise RecordError(f"grounding[{i}] is not an object")
    for key in PER_PASSAGE:
        tags = record.get(key)
        if not isinstance(tags, list) or len(tags) != len(grounding):
            raise RecordError(f"{key!r} is not a list with one tag per grounding passage")


def eligible(record: dict) -> bool:
    return (
        record.get("answer_validate") == "YES"
        and SIGNAL in record["evidence_correct"]
        and record.get("question_complexity") in COMPLEXITIES
        and record.get("question_type") in QUESTION_TYPES
        and len(record["grounding"]) >= MIN_GROUNDING
    )


def check_content(record: dict) -> None:
    text(record, "answer_generate")
    for i, passage in enumerate(record["grounding"]):
        if passage_text(passage) is None:
            raise RecordError(f"grounding[{i}] has no cite_* key with a string text")


def compose(record: dict, n: int, max_signal: int) -> list[int] | None:
    """Indices of the ``n`` kept passages in original order, or None when ``n`` cannot be reached."""
    correct, cited = record["evidence_correct"], record["evidence_cited"]

    def priority(i: int) -> int:
        return 0 if cited[i] == "YES" else 1 if correct[i] == RELATED else 2

    signal = sorted((i for i, tag in enumerate(correct) if tag == SIGNAL), key=priority)
    noise = sorted((i for i, tag in enumerate(correct) if tag != SIGNAL), key=priority)
    kept = signal[: min(max_signal, n)]
    kept += noise[: n - len(kept)]
    return sorted(kept) if len(kept) == n else None


def curate(record: dict, keep: list[int], n: int) -> dict:
    """The record with grounding and per-passage tags subset to ``keep``, plus curation notes."""
    out = copy.deepcopy(record)
    for key in ("grounding", *PER_PASSAGE):
        out[key] = [record[key][i] for i in keep]
    k = sum(tag == SIGNAL for tag in out["evidence_correct"])
    out["curation_notes"] = {
        "source_dataset": "GaRAGe",
        "status": "Pristine",
        "passages_normalized_to": n,
        "normalization_strategy": f"{k}_signal_{n - k}_noise",
    }
    return out


def _row(record: dict, keep: list[int], n: int) -> dict:
    curated = curate(record, keep, n)
    answer = text(record, "answer_generate")
    correct = curated["evidence_correct"]
    sample_id = record.get("sample_id")
    source_id = (
        str(sample_id).strip()
        if sample_id is not None and str(sample_id).strip()
        else content_id("garage", record["question"])
    )
    return {
        "source_id": source_id,
        "query": text(record, "question"),
        "answers": [answer],
        "passages": [passage_text(p) for p in curated["grounding"]],
        "signal_indices": [j for j, tag in enumerate(correct) if tag == SIGNAL],
        "noise_indices": [j for j, tag in enumerate(correct) if tag != SIGNAL],
        "relevant": [tag == "YES" for tag in curated["evidence_relevant"]],
        "reference_answer": answer,
        "domain": record.get("question_category"),
        "grounding_indices": keep,
        "source_record": record_json(curated),
    }


def load_garage(cfg: DatasetConfig) -> LoadResult:
    """The curated GaRAGe base table (multi-passage columns of base.parquet)."""
    n, max_signal = cfg.passages_per_question, cfg.max_signal_passages  # >= 1: checked by the config schema
    records, skips = load_records(cfg)
    pools: dict[str, list[dict]] = {}
    ineligible = 0
    for where, record in records:
        try:
            check_structure(record)
            if not eligible(record):
                ineligible += 1
                continue
            check_content(record)
        except RecordError as exc:
            skips.skip(where, str(exc))
            continue
        pools.setdefault(str(record.get("question_category")), []).append(record)
    domains = list(cfg.domains) or sorted(pools)
    rng = random.Random(cfg.seed)
    rows, dropped = [], 0
    for domain in domains:
        pool = pools.get(domain, [])
        if not pool:
            log.warning("GaRAGe: no eligible question in domain %r", domain)
        for record in rng.sample(pool, min(cfg.per_domain, len(pool))):
            keep = compose(record, n, max_signal)
            if keep is None:
                dropped += 1
                continue
            rows.append(_row(record, keep, n))
    rows = sample(rows, cfg.n_base, cfg.seed)
    table = pd.DataFrame(rows, columns=COLUMNS)
    log.info(
        "GaRAGe: %d question(s) from %d read (%d ineligible, %d bad, %d could not reach %d passages)",
        len(table),
        len(records),
        ineligible,
        skips.count,
        dropped,
        n,
    )
    hint = (
        f"{ineligible} record(s) failed the eligibility filters and {dropped} could not reach {n} passages; "
        f"domains asked: {domains}."
    )
    return finish(
        table,
        skips,
        empty_hint=hint,
        counts={"read": len(records), "ineligible": ineligible, "dropped_short": dropped, "selected": len(table)},
    )
