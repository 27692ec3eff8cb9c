"""Released-schema benchmarks: normalisation, and the write -> `datasets` reload round trip."""

from __future__ import annotations

import json

import datasets
import pandas as pd
import pytest

from refusalbench.data import DataError, load_benchmark, write_benchmark
from refusalbench.data.released import CORE_COLUMNS, MULTI_COLUMNS
from refusalbench.tables import write_table
from tests.data.rb_data_helpers import cfg, write_jsonl

CELLS = [
    ("P-Ambiguity", "HIGH", "REFUSE_AMBIGUOUS_QUERY"),
    ("P-MissingInfo", "LOW", "ANSWER_CORRECTLY"),
    ("P-FalsePremise", "MEDIUM", "REFUSE_FALSE_PREMISE_IN_QUERY"),
]


def nq_items() -> pd.DataFrame:
    rows = []
    for i, (cls, intensity, expected) in enumerate(CELLS):
        rows.append(
            {
                "id": f"RB-NQ_claude_q{i}_{cls}_{intensity}_abcdef12_{i}",
                "source_id": f"q{i}",
                "generator_model": "claude",
                "perturbation_class": cls,
                "intensity": intensity,
                "expected_rag_behavior": expected,
                "lever_selected": "Some Lever",
                "original_query": f"who did thing {i}?",
                "original_context": f"Person {i} did thing {i}.",
                "original_answers": [f"Person {i}", f"P{i}"],
                "perturbed_query": f"who did thing {i} again?",
                "perturbed_context": f"Someone did thing {i}.",
                "implementation_reasoning": "because",
                "verifier_votes": {"claude": "PASS", "gpt": "PASS"} if i else {"nova": "PASS"},
            }
        )
    return pd.DataFrame(rows)


def garage_items() -> pd.DataFrame:
    df = nq_items()
    df["original_context"] = None
    df["perturbed_context"] = None
    df["query"] = df["perturbed_query"]
    df["grounding"] = [[f"passage {i}.{j}" for j in range(10)] for i in range(len(df))]
    df["reference_answer"] = [f"Person {i} did it." for i in range(len(df))]
    df["signal_indices"] = [[0, 3], [1], [2, 4, 5]]
    df["noise_indices"] = [[i for i in range(10) if i not in s] for s in df["signal_indices"]]
    df["relevant"] = [[i in s for i in range(10)] for s in df["signal_indices"]]
    df["domain"] = ["Science", "Health", "Finance"]
    return df


def plain(records):
    """Records with votes' missing verifiers (nulls of a struct column) dropped."""
    out = []
    for r in records:
        r = dict(r)
        r["verifier_votes"] = {k: v for k, v in (r["verifier_votes"] or {}).items() if v is not None}
        out.append(r)
    return out


@pytest.mark.parametrize("make, kind", [(nq_items, "refusalbench_nq"), (garage_items, "refusalbench_garage")])
def test_round_trip_with_datasets(tmp_path, make, kind):
    df = make()
    parquet_path, jsonl_path = write_benchmark(df, tmp_path / "bench")
    assert parquet_path.name == "bench.parquet" and jsonl_path.name == "bench.jsonl"
    columns = CORE_COLUMNS + (MULTI_COLUMNS if kind == "refusalbench_garage" else [])
    expected = [{c: row[c] for c in columns} for row in df.to_dict(orient="records")]
    for fmt, path in (("parquet", parquet_path), ("json", jsonl_path)):
        reloaded = datasets.load_dataset(fmt, data_files=str(path), split="train").to_list()
        assert plain(reloaded) == expected, fmt
        result = load_benchmark(cfg(kind, path))
        assert list(result.table.columns) == columns
        assert plain(result.table.to_dict(orient="records")) == expected
    first = json.loads(jsonl_path.read_text().splitlines()[0])
    assert first["verifier_votes"] == {"nova": "PASS"} and isinstance(first["original_answers"], list)


def test_contract_table_reloads(tmp_path):
    """benchmark.parquet written with tables.write_table (votes as JSON text) loads as the same records."""
    df = nq_items()
    write_table(df, tmp_path / "benchmark.parquet")
    table = load_benchmark(cfg("refusalbench_nq", tmp_path / "benchmark.parquet")).table
    assert table["verifier_votes"].tolist() == df["verifier_votes"].tolist()
    assert [list(a) for a in table["original_answers"]] == df["original_answers"].tolist()


def test_released_garage_shapes_and_rule(tmp_path, caplog):
    row = {
        "id": "RB-G-1",
        "source_id": "s1",
        "generator_model": "gpt",
        "perturbation_class": "P-Contradiction",
        "intensity": "MEDIUM",
        "expected_rag_behavior": "ANSWER_CORRECTLY",  # disagrees with the rule
        "perturbed_query": "what?",
        "query": "what?",
        "reference_answer": "This.",
        "grounding": [{"cite_1": f"text {j}", "age": "1"} for j in range(10)],
        "signal_indices": [2],
        "noise_indices": [j for j in range(10) if j != 2],
        "evidence_relevant": ["YES" if j in (2, 5) else "NO" for j in range(10)],
        "question_category": "Law & Government",
        "question_complexity": "Simple",
        "verifier_votes": {"claude": "PASS", "nova": "PASS", "gpt": "PASS", "deepseek": "PASS"},
    }
    path = write_jsonl(tmp_path / "g.jsonl", [row])
    with caplog.at_level("WARNING"):
        stored = load_benchmark(cfg("refusalbench_garage", path)).table.iloc[0]
    assert stored.expected_rag_behavior == "ANSWER_CORRECTLY"  # the stored label is respected
    assert "stored label is used" in caplog.text
    caplog.clear()
    with caplog.at_level("WARNING"):
        result = load_benchmark(cfg("refusalbench_garage", path, recompute_labels=True))
    item = result.table.iloc[0]
    assert item.expected_rag_behavior == "REFUSE_CONTRADICTORY_CONTEXT"
    assert result.counts["behavior_disagreements"] == 1 and "disagrees" in caplog.text
    assert list(item.grounding) == [f"text {j}" for j in range(10)]
    assert list(item.relevant) == [j in (2, 5) for j in range(10)]
    assert item.domain == "Law & Government" and item.question_complexity == "Simple"
    assert list(item.original_answers) == ["This."]


def test_bad_benchmark_rows(tmp_path):
    good = nq_items().to_dict(orient="records")
    bad = [
        dict(good[0], id="x1", perturbation_class="P-Unknown"),
        dict(good[0], id="x2", intensity="EXTREME"),
        dict(good[0], id="x3", perturbed_context=""),
        dict(good[0], id="x4", verifier_votes="not json"),
        dict(good[0], id="x5", expected_rag_behavior="REFUSE_NONE"),  # not a ground-truth label
        dict(good[1]),  # duplicate id
    ]
    path = write_jsonl(tmp_path / "b.jsonl", good + bad)
    result = load_benchmark(cfg("refusalbench_nq", path))
    assert len(result.table) == 3 and result.skipped == 6
    with pytest.raises(DataError, match="6 bad record"):
        load_benchmark(cfg("refusalbench_nq", path, strict=True))
    multi = garage_items().to_dict(orient="records")
    multi[0]["grounding"] = ["ok"] * 9 + [7]
    multi[1]["signal_indices"] = [12]
    result = load_benchmark(cfg("refusalbench_garage", write_jsonl(tmp_path / "m.jsonl", multi)))
    assert result.skipped == 2 and any("grounding[9]" in r for r in result.reasons)


def test_writer_edge_cases(tmp_path):
    df = nq_items()
    df["verifier_votes"] = [{}, None, {}]
    p, j = write_benchmark(df, tmp_path / "novotes.parquet")  # a suffix given is replaced
    assert p.name == "novotes.parquet" and j.exists()
    assert load_benchmark(cfg("refusalbench_nq", p)).table["verifier_votes"].tolist() == [{}, {}, {}]
    write_benchmark(df.iloc[0:0], tmp_path / "empty")
    assert (tmp_path / "empty.parquet").exists()
    with pytest.raises(DataError, match="perturbed_query"):
        write_benchmark(df.drop(columns=["perturbed_query"]), tmp_path / "x")
