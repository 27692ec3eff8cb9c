"""Small record builders shared by the data-source tests (files are written under tmp_path)."""

from __future__ import annotations

import json
from pathlib import Path

from refusalbench.config import DatasetConfig


def write_jsonl(path: Path, rows: list) -> Path:
    """Write rows (dicts, or raw strings for deliberately broken lines) as JSON Lines."""
    with path.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write((row if isinstance(row, str) else json.dumps(row)) + "\n")
    return path


def cfg(kind: str, path: Path | str | None, **kw) -> DatasetConfig:
    return DatasetConfig(kind=kind, path=None if path is None else str(path), **kw)


def oracle(i: int, answer: str | None = None, passage: str | None = None) -> dict:
    """An NQ-open oracle record whose passage contains its answer (unless ``passage`` says otherwise)."""
    answer = answer or f"answer{i}"
    text = passage if passage is not None else f"Passage number {i} says the thing is {answer.upper()} indeed."
    return {
        "question": f"question number {i}?",
        "answers": [answer, f"alt{i}"],
        "ctxs": [{"title": f"Title {i}", "text": text, "hasanswer": True, "isgold": True}],
    }


def garage(
    sample_id: str,
    category: str = "Science",
    tags: list[str] | None = None,
    cited: list[str] | None = None,
    relevant: list[str] | None = None,
    **overrides,
) -> dict:
    """A GaRAGe-shaped record; by default eligible with 12 passages (3 signal, 9 noise)."""
    tags = tags or ["ANSWER-THE-QUESTION"] * 3 + ["RELATED-INFORMATION"] * 4 + ["UNKNOWN"] * 5
    n = len(tags)
    record = {
        "sample_id": sample_id,
        "question_date": "2024-01-01",
        "grounding": [
            {
                f"cite_{j + 1}": f"[{j + 1}] passage {j} of {sample_id}",
                "age": "1 year",
                "date": "2023-01-01",
                "provider": "web",
            }
            for j in range(n)
        ],
        "question": f"What about {sample_id}?",
        "question_valid": "YES",
        "question_false_premise": "NO",
        "question_seeking": "YES",
        "question_sensitive": "NO",
        "question_type": "SLOW-CHANGING",
        "question_complexity": "Simple",
        "question_category": category,
        "question_popularity": "Head",
        "evidence_relevant": relevant or ["YES" if t != "UNKNOWN" else "NO" for t in tags],
        "evidence_correct": tags,
        "answer_generate": f"The answer for {sample_id} [1].",
        "answer_related_info": "",
        "answer_validate": "YES",
        "comments": "",
        "evidence_cited": cited or ["NO"] * n,
        "question_tag": "web",
        "topic_tag": "web",
    }
    record.update(overrides)
    return record
