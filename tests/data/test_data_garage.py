"""GaRAGe curation: eligibility, per-domain sampling, 10 passages with priority, drop short."""

from __future__ import annotations

import json
import random

from refusalbench.data import load_base
from refusalbench.data.garage import passage_text
from tests.data.rb_data_helpers import cfg, garage, write_jsonl

SIG, REL, UNK = "ANSWER-THE-QUESTION", "RELATED-INFORMATION", "UNKNOWN"


def load(tmp_path, rows, **kw):
    kw.setdefault("domains", ["Science"])
    return load_base(cfg("garage", write_jsonl(tmp_path / "garage.jsonl", rows), **kw))


def test_eligibility_filters(tmp_path):
    rows = [
        garage("ok1"),
        garage("ok2", question_complexity="Comparison", question_type=""),
        garage("no-validate", answer_validate="NO"),
        garage("no-signal", tags=[REL] * 6 + [UNK] * 6),
        garage("multi-hop", question_complexity="Multi-Hop"),
        garage("fast", question_type="FAST-CHANGING"),
        garage("short", tags=[SIG] * 2 + [UNK] * 7),
    ]
    result = load(tmp_path, rows)
    assert sorted(result.table["source_id"]) == ["ok1", "ok2"]
    assert result.counts["ineligible"] == 5 and result.skipped == 0


def test_passage_priority_and_order(tmp_path):
    # 15 passages: 3 signal, 12 noise; the noise fill prefers cited, then RELATED-INFORMATION, then the rest
    tags = [UNK, SIG, UNK, REL, UNK, SIG, REL, UNK, UNK, REL, SIG, UNK, UNK, REL, UNK]
    cited = ["NO"] * 15
    cited[12] = "YES"  # a cited UNKNOWN noise passage comes first
    row = load(tmp_path, [garage("p", tags=tags, cited=cited)]).table.iloc[0]
    # signal: 1, 5, 10; noise by priority: 12 (cited), 3, 6, 9, 13 (related), then 0, 2 (first unknowns)
    assert list(row.grounding_indices) == [0, 1, 2, 3, 5, 6, 9, 10, 12, 13]
    assert list(row.signal_indices) == [1, 4, 7]
    assert list(row.noise_indices) == [0, 2, 3, 5, 6, 8, 9]
    assert list(row.passages) == [f"[{i + 1}] passage {i} of p" for i in row.grounding_indices]
    curated = json.loads(row.source_record)
    assert len(curated["grounding"]) == 10 and curated["evidence_correct"] == [tags[i] for i in row.grounding_indices]
    assert curated["curation_notes"] == {
        "source_dataset": "GaRAGe",
        "status": "Pristine",
        "passages_normalized_to": 10,
        "normalization_strategy": "3_signal_7_noise",
    }
    assert row.domain == "Science" and row.reference_answer == "The answer for p [1]."
    assert list(row.relevant) == [tags[i] != UNK for i in row.grounding_indices]


def test_at_most_five_signal_passages_cited_first(tmp_path):
    tags = [SIG] * 8 + [UNK] * 6
    cited = ["NO"] * 14
    cited[6] = cited[7] = "YES"
    row = load(tmp_path, [garage("s", tags=tags, cited=cited)]).table.iloc[0]
    # signal: cited 6, 7 first, then 0, 1, 2; noise 8..12
    assert list(row.grounding_indices) == [0, 1, 2, 6, 7, 8, 9, 10, 11, 12]
    assert list(row.signal_indices) == [0, 1, 2, 3, 4]
    assert json.loads(row.source_record)["curation_notes"]["normalization_strategy"] == "5_signal_5_noise"


def test_drop_records_that_cannot_reach_ten(tmp_path):
    short = garage("short", tags=[SIG] * 9 + [REL] * 3)  # 5 signal + 3 noise = 8
    result = load(tmp_path, [short, garage("fine")])
    assert list(result.table["source_id"]) == ["fine"]
    assert result.counts["dropped_short"] == 1


def test_per_domain_seeded_sampling(tmp_path):
    rows = [garage(f"sci{i}") for i in range(30)] + [garage(f"hea{i}", category="Health") for i in range(3)]
    rows += [garage("travel", category="Travel")]
    result = load(tmp_path, rows, domains=["Science", "Health", "Finance"], per_domain=5, seed=42)
    ids = list(result.table["source_id"])
    rng = random.Random(42)  # the reference: one RNG, random.sample per domain in order
    expected = [r["sample_id"] for r in rng.sample(rows[:30], 5)] + [r["sample_id"] for r in rng.sample(rows[30:33], 3)]
    assert ids == expected
    assert ids == list(
        load(tmp_path, rows, domains=["Science", "Health", "Finance"], per_domain=5, seed=42).table["source_id"]
    )
    # no domains given: every category, sorted
    all_domains = load(tmp_path, rows, domains=[], per_domain=2).table
    assert sorted(set(all_domains["domain"])) == ["Health", "Science", "Travel"] and len(all_domains) == 5


def test_passage_text_is_first_cite_string():
    assert passage_text({"age": "x", "cite_9": None, "cite_3": " text ", "cite_4": "later"}) == "text"
    assert passage_text({"age": "x"}) is None
    assert passage_text("plain") is None


def test_n_base_subsamples(tmp_path):
    rows = [garage(f"sci{i}") for i in range(10)]
    assert len(load(tmp_path, rows, n_base=4).table) == 4
