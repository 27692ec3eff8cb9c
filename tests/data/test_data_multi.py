"""Multi-passage NQ: exactly N passages, one signal passage, consistent indices, seeded."""

from __future__ import annotations

import pytest

from refusalbench.data import DataError, load_base
from refusalbench.data.records import contains_answer
from refusalbench.paths import PACKAGE_DATA_DIR
from tests.data.rb_data_helpers import cfg, oracle, write_jsonl


@pytest.fixture
def pool(tmp_path):
    return write_jsonl(tmp_path / "pool.jsonl", [oracle(i) for i in range(25)])


def test_shape_and_indices(pool):
    result = load_base(cfg("nq_multi", pool, passages_per_question=10, n_base=8))
    t = result.table
    assert len(t) == 8
    singles = load_base(cfg("nq", pool)).table.set_index("source_id")
    for row in t.itertuples():
        passages = list(row.passages)
        assert len(passages) == 10 and all(isinstance(p, str) and p for p in passages)
        assert len(row.signal_indices) == 1
        (pos,) = row.signal_indices
        assert sorted([pos, *row.noise_indices]) == list(range(10))
        assert list(row.relevant) == [i == pos for i in range(10)]
        assert passages[pos] == singles.loc[row.source_id, "context"]
        assert row.reference_answer == list(row.answers)[0]
        assert len(set(passages)) == 10
        for i in row.noise_indices:
            assert not contains_answer(passages[i], list(row.answers))
        assert row.source_id not in list(row.distractor_source_ids)
        assert row.domain is None


def test_seeded(pool):
    a = load_base(cfg("nq_multi", pool, n_base=8, seed=1)).table
    b = load_base(cfg("nq_multi", pool, n_base=8, seed=1)).table
    c = load_base(cfg("nq_multi", pool, n_base=8, seed=2)).table
    assert a.to_json() == b.to_json()
    assert a.to_json() != c.to_json()


def test_distractors_never_hold_the_answer(tmp_path):
    rows = [oracle(i) for i in range(12)]
    rows.append(oracle(12, answer="answer0", passage="This one also mentions ANSWER0 in passing."))
    t = load_base(cfg("nq_multi", write_jsonl(tmp_path / "p.jsonl", rows), passages_per_question=5)).table
    first = t[t["query"] == "question number 0?"].iloc[0]
    assert all("answer0" not in p.lower() for i, p in enumerate(first.passages) if i != first.signal_indices[0])


def test_pool_too_small(tmp_path):
    path = write_jsonl(tmp_path / "p.jsonl", [oracle(i) for i in range(4)])
    with pytest.raises(DataError, match="distractor passages"):
        load_base(cfg("nq_multi", path, passages_per_question=10))
    assert len(load_base(cfg("nq_multi", path, passages_per_question=4)).table) == 4


def test_bundled_sample_as_multi_passage():
    t = load_base(cfg("nq_multi", PACKAGE_DATA_DIR / "nq_sample.jsonl")).table
    assert len(t) == 30 and all(len(p) == 10 for p in t["passages"])
