"""Bad records are skipped and counted (strict mode: one clear error); missing data is a UserError."""

from __future__ import annotations

import datasets
import pytest

from refusalbench.config import ConfigError
from refusalbench.data import DataError, is_multi_passage, load_base, load_benchmark
from refusalbench.errors import UserError
from tests.data.rb_data_helpers import cfg, garage, oracle, write_jsonl

BAD_NQ = [
    {"answers": ["x"], "ctxs": [{"title": "t", "text": "x"}]},  # oracle without a question
    {"question": "q?", "answers": 5, "ctxs": [{"title": "t", "text": "5"}]},  # answers of the wrong type
    {"question": "q?", "answers": ["x"], "ctxs": [{"title": "t", "text": "   "}]},  # empty context
    {"question": "q?", "answers": [], "ctxs": [{"title": "t", "text": "x"}]},  # empty answers
    {"question": "q?", "answers": ["x"], "ctxs": [{"title": "t", "text": ["not", "a", "string"]}]},
    {"query": "q?", "answer": ["x"], "gold_docs": [{"text": "x"}]},  # passage that is not a string
    {"query": "q?", "answer": ["x"], "gold_docs": [], "retrieved_docs": []},  # no context at all
    {"something": "else"},
    "{not json",
    "[1, 2]",
]


def test_bad_records_are_counted_and_logged(tmp_path, caplog):
    rows = [oracle(0)] + BAD_NQ + [oracle(1), oracle(1)]  # the last one duplicates a source id
    path = write_jsonl(tmp_path / "bad.jsonl", rows)
    with caplog.at_level("WARNING"):
        result = load_base(cfg("nq", path))
    assert len(result.table) == 2
    assert result.skipped == len(BAD_NQ) + 1
    assert len(result.reasons) == 10  # the first few are kept
    joined = " | ".join(result.reasons)
    for needle in (
        "missing field 'question'",
        "'answers' is not a list",
        "'text' is empty",
        "no non-empty answer",
        "'text' is not a string",
        "'gold_docs'[0] is not a string",
        "empty context",
        "neither an NQ-open",
        "not valid JSON",
        "not a JSON object",
    ):
        assert needle in joined
    assert "Skipped 11 bad record(s)" in caplog.text


def test_strict_mode_is_one_clear_error(tmp_path):
    path = write_jsonl(tmp_path / "bad.jsonl", [oracle(0)] + BAD_NQ[:3])
    with pytest.raises(DataError) as err:
        load_base(cfg("nq", path, strict=True))
    message = str(err.value)
    assert "3 bad record(s)" in message and "record 2: missing field 'question'" in message
    assert "dataset.strict=false" in message
    assert isinstance(err.value, UserError)


def test_bad_garage_records(tmp_path):
    no_text = garage("g2")
    no_text["grounding"][4] = {"cite_5": None, "age": "x"}
    rows = [
        garage("g1"),
        no_text,
        garage("g3", evidence_correct=["ANSWER-THE-QUESTION"] * 3),  # tags do not match the passages
        garage("g4", grounding="not a list"),
        garage("g5", answer_generate=""),
    ]
    result = load_base(cfg("garage", write_jsonl(tmp_path / "g.jsonl", rows), domains=["Science"]))
    assert list(result.table["source_id"]) == ["g1"]
    assert result.skipped == 4
    assert any("grounding[4] has no cite_* key" in r for r in result.reasons)


def test_missing_file_names_the_path(tmp_path):
    missing = tmp_path / "nowhere" / "nq.jsonl"
    with pytest.raises(DataError, match="nowhere/nq.jsonl"):
        load_base(cfg("nq", missing))


def test_all_records_unusable(tmp_path):
    path = write_jsonl(tmp_path / "bad.jsonl", BAD_NQ[:2])
    with pytest.raises(DataError, match="No usable records"):
        load_base(cfg("nq", path))
    only_unanswerable = write_jsonl(tmp_path / "u.jsonl", [oracle(1, passage="nothing here")])
    with pytest.raises(DataError, match="require_answer_in_passage"):
        load_base(cfg("nq", only_unanswerable))


def test_unsupported_files(tmp_path):
    (tmp_path / "data.csv").write_text("a,b\n")
    with pytest.raises(DataError, match="Unsupported"):
        load_base(cfg("nq", tmp_path / "data.csv"))
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(DataError, match="holds no"):
        load_base(cfg("nq", empty))
    (tmp_path / "broken.parquet").write_text("not parquet")
    with pytest.raises(DataError, match="Cannot read parquet"):
        load_base(cfg("nq", tmp_path / "broken.parquet"))


def test_hub_failure_says_to_pass_a_path(monkeypatch):
    def offline(*args, **kwargs):
        raise ConnectionError("Couldn't reach the Hugging Face Hub")

    monkeypatch.setattr(datasets, "load_dataset", offline)
    with pytest.raises(DataError) as err:
        load_benchmark(cfg("refusalbench_nq", None, hub_id="aashiqmuhamed/RefusalBench-NQ"))
    assert "aashiqmuhamed/RefusalBench-NQ" in str(err.value) and "dataset.path=FILE" in str(err.value)
    with pytest.raises(DataError, match="dataset.path"):
        load_base(cfg("garage", None))  # neither a path nor a hub id


def test_kind_checks(tmp_path):
    path = write_jsonl(tmp_path / "o.jsonl", [oracle(0)])
    with pytest.raises(DataError, match="released benchmark"):
        load_base(cfg("refusalbench_nq", path))
    with pytest.raises(DataError, match="not a benchmark"):
        load_benchmark(cfg("nq", path))
    with pytest.raises(ConfigError, match="dataset.kind"):  # the config schema knows every kind
        cfg("squad", path)
    with pytest.raises(DataError, match="nq_multi"):
        load_base(cfg("nq", path, multi_passage=True))


def test_is_multi_passage():
    assert not is_multi_passage(cfg("nq", "x"))
    assert is_multi_passage(cfg("nq_multi", "x"))
    assert is_multi_passage(cfg("garage", "x"))
    assert not is_multi_passage(cfg("refusalbench_nq", "x"))
    assert is_multi_passage(cfg("refusalbench_nq", "x", multi_passage=True))
    assert is_multi_passage(cfg("refusalbench_garage", "x"))
