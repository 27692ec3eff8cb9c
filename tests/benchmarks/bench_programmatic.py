"""Benchmark: the programmatic generator over questions x 18 (class, intensity) cells.

Prints questions, items made and seconds; no target. Source questions: ``RB_NQ_POOL`` (an NQ-open
oracle JSONL, first 100 answer-bearing questions) or the 30 bundled sample questions. Run with
``pytest -m benchmark tests/benchmarks/bench_programmatic.py -s`` or ``python -m tests.benchmarks.bench_programmatic``.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from refusalbench.paths import PACKAGE_DATA_DIR
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic
from refusalbench.taxonomy import cells

N_QUESTIONS = 100


def source_rows(limit: int = N_QUESTIONS) -> list[dict]:
    path = Path(os.environ.get("RB_NQ_POOL", PACKAGE_DATA_DIR / "nq_sample.jsonl"))
    rows = []
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        if not line.strip():
            continue
        rec = json.loads(line)
        context = rec["ctxs"][0]["text"]
        if any(a.casefold() in context.casefold() for a in rec["answers"]):
            rows.append(
                {"source_id": f"nq-{i}", "query": rec["question"], "answers": rec["answers"], "context": context}
            )
    return rows[:limit]


def run_benchmark() -> dict:
    rows = source_rows()
    pool = DistractorPool.from_base(rows)
    start = time.perf_counter()
    made = 0
    for cls, intensity in cells():
        for row in rows:
            try:
                generate_programmatic(row, cls, intensity, 9, pool)
                made += 1
            except NotApplicable:
                pass
    return {"questions": len(rows), "items": made, "seconds": time.perf_counter() - start}


@pytest.mark.benchmark
def test_programmatic_generation_speed():
    r = run_benchmark()
    print(
        f"\nprogrammatic generation: {r['questions']} questions x 18 cells, {r['items']} items in {r['seconds']:.2f} s"
    )


if __name__ == "__main__":
    test_programmatic_generation_speed()
