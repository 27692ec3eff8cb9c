"""Source questions for the programmatic-generator tests: seeded samples of the NQ-open oracle pool in
``fixtures/`` (2,124 questions with their gold passages; ``RB_NQ_POOL=FILE`` reads another file of that
format instead)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic
from refusalbench.taxonomy import cells

POOL_PATH = Path(os.environ.get("RB_NQ_POOL", Path(__file__).parent / "fixtures" / "nq_open_oracle_pool.jsonl"))
N_SINGLE, N_MULTI, PASSAGES = 300, 150, 4


def _read(path: Path) -> list[dict]:
    rows = []
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        if line.strip():
            rec = json.loads(line)
            rows.append(
                {
                    "source_id": f"nq-{i}",
                    "query": rec["question"],
                    "answers": rec["answers"],
                    "context": rec["ctxs"][0]["text"],
                    "title": rec["ctxs"][0].get("title"),
                }
            )
    return rows


def _answer_bearing(row: dict) -> bool:
    hay = " ".join(row["context"].split()).casefold()
    return any(" ".join(a.split()).casefold() in hay for a in row["answers"] if a.strip())


@pytest.fixture(scope="session")
def source_rows() -> list[dict]:
    """All usable source questions (answer string in the gold passage)."""
    return [r for r in _read(POOL_PATH) if _answer_bearing(r)]


@pytest.fixture(scope="session")
def single_rows(source_rows) -> list[dict]:
    return random.Random(11).sample(source_rows, min(N_SINGLE, len(source_rows)))


@pytest.fixture(scope="session")
def multi_rows(source_rows) -> list[dict]:
    """Multi-passage items: the gold passage as the one signal passage among 3 answer-free noise passages."""
    rng = random.Random(12)
    out = []
    for row in rng.sample(source_rows, min(N_MULTI, len(source_rows))):
        noise = [
            o["context"]
            for o in rng.sample(source_rows, min(12, len(source_rows)))
            if o is not row and not _answer_bearing({"context": o["context"], "answers": row["answers"]})
        ][: PASSAGES - 1]
        pos = rng.randrange(len(noise) + 1)
        passages = noise[:pos] + [row["context"]] + noise[pos:]
        out.append(
            {
                "source_id": row["source_id"],
                "query": row["query"],
                "answers": row["answers"],
                "passages": passages,
                "signal_indices": [pos],
                "noise_indices": [i for i in range(len(passages)) if i != pos],
                "reference_answer": row["answers"][0],
            }
        )
    return out


@pytest.fixture(scope="session")
def pool(source_rows) -> DistractorPool:
    return DistractorPool.from_base(source_rows)


def generate_all(rows: list[dict], pool: DistractorPool, seed: int, multi: bool) -> dict:
    """{(class, intensity): [(row, output or None), ...]} over every cell."""
    out = {}
    for cls, intensity in cells():
        items = []
        for row in rows:
            try:
                items.append((row, generate_programmatic(row, cls, intensity, seed, pool, multi_passage=multi)))
            except NotApplicable:
                items.append((row, None))
        out[(cls, intensity)] = items
    return out


@pytest.fixture(scope="session")
def single_items(single_rows, pool) -> dict:
    return generate_all(single_rows, pool, seed=5, multi=False)


@pytest.fixture(scope="session")
def multi_items(multi_rows, pool) -> dict:
    return generate_all(multi_rows, pool, seed=5, multi=True)
