"""NaturalQuestions single-passage source: NQ-open oracle records and the original base records.

Two record formats are recognised per record:

- NQ-open oracle (lost-in-the-middle): ``question``, ``answers``, ``ctxs[0].title/text``;
- the original RefusalBench base format: ``qid``, ``query``, ``answer`` (list or string),
  ``gold_docs`` / ``retrieved_docs`` (context = ``gold_docs[0]``, else ``retrieved_docs[0]``).

``source_id`` is ``qid`` when present, else ``nq-<sha1(question)[:10]>``. ``dataset.n_base``
questions are drawn with ``dataset.seed`` (file order kept) from the questions whose passage holds
an answer string (``dataset.require_answer_in_passage``) and, with ``dataset.source_verdicts``, whose passage a
source review did not find weak or unsupported.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field

import pandas as pd

from refusalbench.config import DatasetConfig
from refusalbench.data.loader import load_records
from refusalbench.data.records import (
    DataError,
    LoadResult,
    RecordError,
    SkipLog,
    answers,
    contains_answer,
    content_id,
    finish,
    optional_text,
    record_json,
    string_list,
    text,
)
from refusalbench.data.source_verdicts import read_verdicts, split_by_verdict

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class NQItem:
    source_id: str
    query: str
    answers: list[str]
    context: str
    title: str | None
    record: dict = field(repr=False, hash=False, compare=False)


@dataclass
class NQSelection:
    items: list[NQItem]  # the chosen questions
    pool: list[NQItem]  # every valid question (distractor source for multi-passage NQ)
    skips: SkipLog
    not_answer_bearing: int
    read: int
    source_counts: dict[str, int] = field(default_factory=dict)  # weak / unsupported / unvetted sources


def _source_id(record: dict, query: str) -> str:
    qid = record.get("qid")
    if isinstance(qid, (str, int)) and not isinstance(qid, bool) and str(qid).strip():
        return str(qid).strip()
    return content_id("nq", query)


def _oracle(record: dict) -> NQItem:
    query = text(record, "question")
    answer_list = answers(record.get("answers"), "answers")
    ctxs = record.get("ctxs")
    if not isinstance(ctxs, list) or not ctxs:
        raise RecordError("'ctxs' is missing or empty")
    if not isinstance(ctxs[0], dict):
        raise RecordError("'ctxs[0]' is not an object")
    try:
        context = text(ctxs[0], "text")
        title = optional_text(ctxs[0], "title")
    except RecordError as exc:
        raise RecordError(f"ctxs[0]: {exc}") from None
    return NQItem(_source_id(record, query), query, answer_list, context, title, record)


def _base(record: dict) -> NQItem:
    query = text(record, "query")
    answer_list = answers(record.get("answer"), "answer")
    for key in ("gold_docs", "retrieved_docs"):
        docs = record.get(key)
        if docs is None:
            continue
        docs = string_list(docs, key)
        if docs and docs[0].strip():
            return NQItem(_source_id(record, query), query, answer_list, docs[0].strip(), None, record)
    raise RecordError("empty context: neither gold_docs[0] nor retrieved_docs[0] holds text")


def parse(record: dict) -> NQItem:
    """One NQ record in either format as an NQItem; RecordError when it cannot be used."""
    if record.get("question") is not None or record.get("ctxs") is not None:
        return _oracle(record)
    if record.get("query") is not None:
        return _base(record)
    raise RecordError(
        "neither an NQ-open oracle record (question, answers, ctxs) nor an NQ base record "
        "(query, answer, gold_docs/retrieved_docs)"
    )


def sample(items: list, n: int | None, seed: int, what: str = "questions") -> list:
    """``n`` items drawn with ``seed``, in their original order (all when ``n`` is null or larger)."""
    if n is not None and n < 1:
        raise DataError(f"dataset.n_base must be a positive number or null, got {n}.")
    if n is None or n >= len(items):
        if n is not None and n > len(items):
            log.warning("dataset.n_base=%d but only %d usable %s; using all of them", n, len(items), what)
        return list(items)
    chosen = sorted(random.Random(seed).sample(range(len(items)), n))
    return [items[i] for i in chosen]


def select(cfg: DatasetConfig) -> NQSelection:
    """Parse, validate, de-duplicate, filter on answer-bearing passages and draw n_base questions."""
    records, skips = load_records(cfg)
    first_seen: dict[str, str] = {}
    pool: list[NQItem] = []
    for where, record in records:
        try:
            item = parse(record)
        except RecordError as exc:
            skips.skip(where, str(exc))
            continue
        if item.source_id in first_seen:
            skips.skip(where, f"duplicate source id {item.source_id!r} (first at {first_seen[item.source_id]})")
            continue
        first_seen[item.source_id] = where
        pool.append(item)
    usable = pool
    if cfg.require_answer_in_passage:
        usable = [item for item in pool if contains_answer(item.context, item.answers)]
    not_bearing = len(pool) - len(usable)
    if not_bearing:
        log.info(
            "Left out %d question(s) whose passage holds none of their answers "
            "(dataset.require_answer_in_passage=true)",
            not_bearing,
        )
    source_counts: dict[str, int] = {}
    if cfg.source_verdicts:
        usable, source_counts = split_by_verdict(usable, read_verdicts(cfg.source_verdicts))
        log.info(
            "Source verdicts: left out %d question(s) with a weak and %d with an unsupported passage; kept %d the "
            "file does not judge (dataset.source_verdicts)",
            source_counts["weak"],
            source_counts["unsupported"],
            source_counts["unvetted"],
        )
    items = sample(usable, cfg.n_base, cfg.seed)
    return NQSelection(
        items=items,
        pool=pool,
        skips=skips,
        not_answer_bearing=not_bearing,
        read=len(records),
        source_counts=source_counts,
    )


def empty_hint(sel: NQSelection) -> str:
    hints = []
    if sel.not_answer_bearing:
        hints.append(
            f"{sel.not_answer_bearing} valid question(s) had no answer string in their passage "
            "(set dataset.require_answer_in_passage=false to keep them)."
        )
    declined = sel.source_counts.get("weak", 0) + sel.source_counts.get("unsupported", 0)
    if declined:
        hints.append(
            f"{declined} question(s) were left out as weak or unsupported sources "
            "(set dataset.source_verdicts=null to keep them)."
        )
    return " ".join(hints)


def load_nq(cfg: DatasetConfig) -> LoadResult:
    """The single-passage base table: source_id, query, answers, context, title, source_record."""
    sel = select(cfg)
    table = pd.DataFrame(
        [
            {
                "source_id": item.source_id,
                "query": item.query,
                "answers": item.answers,
                "context": item.context,
                "title": item.title,
                "source_record": record_json(item.record),
            }
            for item in sel.items
        ],
        columns=["source_id", "query", "answers", "context", "title", "source_record"],
    )
    log.info(
        "NQ: %d question(s) chosen from %d read (%d bad, %d not answer-bearing)",
        len(table),
        sel.read,
        sel.skips.count,
        sel.not_answer_bearing,
    )
    return finish(
        table,
        sel.skips,
        empty_hint=empty_hint(sel),
        not_answer_bearing=sel.not_answer_bearing,
        counts={"read": sel.read, "valid": len(sel.pool), "selected": len(table), **sel.source_counts},
    )
