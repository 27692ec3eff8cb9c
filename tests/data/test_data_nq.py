"""NQ single-passage source: both record formats, seeded selection, answer-in-passage filter."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
from omegaconf import OmegaConf

from refusalbench.config import DatasetConfig, register_configs
from refusalbench.data import load_base
from refusalbench.paths import CONF_DIR, PACKAGE_DATA_DIR
from tests.data.rb_data_helpers import cfg, oracle, write_jsonl


def test_oracle_format(tmp_path):
    path = write_jsonl(tmp_path / "o.jsonl", [oracle(i) for i in range(3)])
    result = load_base(cfg("nq", path))
    t = result.table
    assert list(t.columns) == ["source_id", "query", "answers", "context", "title", "source_record"]
    assert t.loc[0, "query"] == "question number 0?"
    assert list(t.loc[0, "answers"]) == ["answer0", "alt0"]
    assert t.loc[0, "context"] == oracle(0)["ctxs"][0]["text"]
    assert t.loc[0, "title"] == "Title 0"
    assert all(re.fullmatch(r"nq-[0-9a-f]{10}", s) for s in t["source_id"])
    assert json.loads(t.loc[1, "source_record"]) == oracle(1)
    assert result.skipped == 0 and result.not_answer_bearing == 0
    assert re.fullmatch(r"[0-9a-f]{64}", result.fingerprint)
    # the id is a content hash of the question: stable across files and runs
    again = load_base(cfg("nq", write_jsonl(tmp_path / "o2.jsonl", [oracle(1)])))
    assert again.table.loc[0, "source_id"] == t.loc[1, "source_id"]


def test_base_format(tmp_path):
    rows = [
        {"qid": "q-a", "query": "who?", "answer": "Alice", "gold_docs": ["Alice did it."], "retrieved_docs": ["other"]},
        {"qid": 17, "query": "when?", "answer": ["1984", "84"], "gold_docs": [], "retrieved_docs": ["It was 1984."]},
        {"query": "where?", "answer": ["Paris"], "gold_docs": ["", "x"], "retrieved_docs": ["In Paris."]},
    ]
    t = load_base(cfg("nq_base", write_jsonl(tmp_path / "b.jsonl", rows))).table
    assert list(t["source_id"][:2]) == ["q-a", "17"]
    assert t.loc[2, "source_id"].startswith("nq-")
    assert list(t["context"]) == ["Alice did it.", "It was 1984.", "In Paris."]
    # a string answer stays a string (not coerced to a number by a mixed-type column)
    assert [list(a) for a in t["answers"]] == [["Alice"], ["1984", "84"], ["Paris"]]
    assert t["title"].isna().all()


def test_mixed_type_values_stay_exact(tmp_path):
    rows = [
        {"qid": "1", "query": "q1", "answer": ["a"], "gold_docs": ["a is here"]},
        {"qid": 2, "query": "q2", "answer": "1984", "gold_docs": ["in 1984"]},
        {"qid": "3", "query": "q3", "answer": "true", "gold_docs": ["it is true"]},
    ]
    t = load_base(cfg("nq", write_jsonl(tmp_path / "m.jsonl", rows))).table
    assert [list(a) for a in t["answers"]] == [["a"], ["1984"], ["true"]]
    assert list(t["source_id"]) == ["1", "2", "3"]


def test_parquet_and_folder_sources(tmp_path):
    rows = [oracle(i) for i in range(4)]
    pd.DataFrame(rows).to_parquet(tmp_path / "o.parquet")
    from_parquet = load_base(cfg("nq", tmp_path / "o.parquet")).table
    assert len(from_parquet) == 4
    folder = tmp_path / "folder"
    folder.mkdir()
    write_jsonl(folder / "a.jsonl", rows[:2])
    write_jsonl(folder / "b.jsonl", rows[2:])
    from_folder = load_base(cfg("nq", folder)).table
    assert list(from_folder["source_id"]) == list(from_parquet["source_id"])


def test_n_base_seeded_and_stable(tmp_path):
    path = write_jsonl(tmp_path / "o.jsonl", [oracle(i) for i in range(40)])
    first = load_base(cfg("nq", path, n_base=10, seed=7))
    second = load_base(cfg("nq", path, n_base=10, seed=7))
    other = load_base(cfg("nq", path, n_base=10, seed=8))
    ids = list(first.table["source_id"])
    assert len(ids) == 10 and ids == list(second.table["source_id"])
    assert first.fingerprint == second.fingerprint
    assert ids != list(other.table["source_id"]) and first.fingerprint != other.fingerprint
    order = {q: i for i, q in enumerate(f"question number {i}?" for i in range(40))}
    positions = [order[q] for q in first.table["query"]]
    assert positions == sorted(positions)  # file order kept
    assert len(load_base(cfg("nq", path, n_base=100)).table) == 40  # more than available: all


def test_answer_in_passage_filter(tmp_path):
    rows = [oracle(i) for i in range(5)] + [oracle(i, passage=f"Nothing relevant in passage {i}.") for i in range(5, 8)]
    rows.append(oracle(8, answer="New  York", passage="It happened in new york city."))  # case/space-insensitive
    path = write_jsonl(tmp_path / "o.jsonl", rows)
    kept = load_base(cfg("nq", path))
    assert len(kept.table) == 6 and kept.not_answer_bearing == 3 and kept.skipped == 0
    assert kept.counts["valid"] == 9
    everything = load_base(cfg("nq", path, require_answer_in_passage=False))
    assert len(everything.table) == 9 and everything.not_answer_bearing == 0


def test_bundled_sample():
    result = load_base(DatasetConfig(kind="nq", path=str(PACKAGE_DATA_DIR / "nq_sample.jsonl")))
    t = result.table
    assert len(t) == 30 and result.skipped == 0 and result.not_answer_bearing == 0
    assert t["source_id"].is_unique
    assert all(len(c.split()) <= 120 for c in t["context"])
    assert (PACKAGE_DATA_DIR / "README.md").read_text().count("CC BY-SA 3.0") >= 1
    assert (PACKAGE_DATA_DIR / "paper_reported_numbers.csv").exists()


def test_make_sample_is_reproducible(tmp_path):
    from refusalbench.data.make_sample import make_sample

    pool = write_jsonl(tmp_path / "pool.jsonl", [oracle(i) for i in range(20)] + [oracle(99, passage="no answer")])
    make_sample(pool, tmp_path / "a.jsonl", n=5, seed=3)
    make_sample(pool, tmp_path / "b.jsonl", n=5, seed=3)
    text = (tmp_path / "a.jsonl").read_text()
    assert text == (tmp_path / "b.jsonl").read_text()
    rows = [json.loads(line) for line in text.splitlines()]
    assert len(rows) == 5 and all(set(r["ctxs"][0]) == {"title", "text"} for r in rows)
    assert all(r["question"] != "question number 99?" for r in rows)


def test_make_sample_draws_only_supported_sources_when_given_verdicts(tmp_path):
    from refusalbench.data import nq
    from refusalbench.data.make_sample import make_sample
    from refusalbench.data.source_verdicts import passage_id

    records = [oracle(i) for i in range(8)]
    pool = write_jsonl(tmp_path / "pool.jsonl", records)
    verdicts = tmp_path / "verdicts.csv"
    lines = ["source_id,passage_id,verdict,notes"]
    for i, rec in enumerate(records):
        item = nq.parse(rec)
        lines.append(f"{item.source_id},{passage_id(item.context)},{'V' if i < 4 else 'B'},")
    verdicts.write_text("\n".join(lines) + "\n")
    assert make_sample(pool, tmp_path / "s.jsonl", n=4, seed=1, verdicts=verdicts) == 4
    drawn = {json.loads(line)["question"] for line in (tmp_path / "s.jsonl").read_text().splitlines()}
    assert drawn == {f"question number {i}?" for i in range(4)}
    with pytest.raises(SystemExit, match="Only 4 usable"):
        make_sample(pool, tmp_path / "t.jsonl", n=5, seed=1, verdicts=verdicts)


def test_bundled_sample_questions_all_have_a_supported_source():
    from refusalbench.data.source_verdicts import passage_id, read_verdicts

    verdicts = read_verdicts(PACKAGE_DATA_DIR / "nq_source_verdicts.csv")
    items = load_base(DatasetConfig(kind="nq", path=str(PACKAGE_DATA_DIR / "nq_sample.jsonl"), source_verdicts=None))
    keys = zip(items.table["source_id"], items.table["context"].map(passage_id))
    assert [verdicts.get(k) for k in keys] == ["V"] * 30


@pytest.mark.parametrize("name", sorted(p.stem for p in (CONF_DIR / "dataset").glob("*.yaml")))
def test_dataset_presets_fit_the_schema(name):
    register_configs()
    node = OmegaConf.merge(OmegaConf.structured(DatasetConfig), OmegaConf.load(CONF_DIR / "dataset" / f"{name}.yaml"))
    if OmegaConf.is_missing(node, "path") or (node.kind in ("nq", "nq_base") and node.path is None):
        node.path = "somewhere.jsonl"  # the NQ presets need dataset.path from the user
    ds = OmegaConf.to_object(node)
    assert ds.kind in ("nq", "nq_base", "nq_multi", "garage", "refusalbench_nq", "refusalbench_garage")
    if ds.path and "nq_sample" in ds.path:
        assert (PACKAGE_DATA_DIR / "nq_sample.jsonl").samefile(ds.path)


def _verdicts(path, rows):
    pd.DataFrame(rows, columns=["source_id", "passage_id", "verdict", "notes"]).to_csv(path, index=False)
    return path


def test_source_verdicts_leave_out_weak_and_unsupported_sources_and_keep_unvetted_ones(tmp_path):
    from refusalbench.data.source_verdicts import passage_id

    records = [oracle(i) for i in range(5)]
    path = write_jsonl(tmp_path / "o.jsonl", records)
    ids = list(load_base(cfg("nq", path)).table["source_id"])
    pid = [passage_id(r["ctxs"][0]["text"]) for r in records]
    verdicts = _verdicts(
        tmp_path / "v.csv",
        [
            (ids[0], pid[0], "V", ""),
            (ids[1], pid[1], "B", "only implied"),
            (ids[2], pid[2], "i", "another topic"),
            (ids[3], passage_id("a different passage"), "I", "judged on another passage"),
        ],
    )
    result = load_base(cfg("nq", path, source_verdicts=str(verdicts)))
    # the verdict of another passage does not apply to question 3, which is unvetted like question 4
    assert list(result.table["source_id"]) == [ids[0], ids[3], ids[4]]
    assert {k: result.counts[k] for k in ("weak", "unsupported", "unvetted")} == {
        "weak": 1,
        "unsupported": 1,
        "unvetted": 2,
    }
    # the draw happens after the filter: n_base counts supported and unvetted questions only
    assert len(load_base(cfg("nq", path, source_verdicts=str(verdicts), n_base=3)).table) == 3


def test_bad_source_verdict_files_fail_clearly(tmp_path):
    from refusalbench.data import DataError
    from refusalbench.data.source_verdicts import passage_id

    path = write_jsonl(tmp_path / "o.jsonl", [oracle(0)])
    with pytest.raises(DataError, match="does not exist"):
        load_base(cfg("nq", path, source_verdicts=str(tmp_path / "none.csv")))
    pd.DataFrame({"source_id": ["x"], "verdict": ["V"]}).to_csv(tmp_path / "cols.csv", index=False)
    with pytest.raises(DataError, match="lacks the column"):
        load_base(cfg("nq", path, source_verdicts=str(tmp_path / "cols.csv")))
    bad = _verdicts(tmp_path / "bad.csv", [("x", "p", "maybe", "")])
    with pytest.raises(DataError, match="not V, B or I"):
        load_base(cfg("nq", path, source_verdicts=str(bad)))
    only_source = load_base(cfg("nq", path)).table.loc[0, "source_id"]
    every = _verdicts(tmp_path / "all.csv", [(only_source, passage_id(oracle(0)["ctxs"][0]["text"]), "B", "")])
    with pytest.raises(DataError, match="source_verdicts=null"):
        load_base(cfg("nq", path, source_verdicts=str(every)))


def test_source_verdicts_are_for_nq_sources_only():
    from refusalbench.config import ConfigError

    with pytest.raises(ConfigError, match="NQ sources only"):
        cfg("garage", "x.jsonl", source_verdicts="v.csv")
