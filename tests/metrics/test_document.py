"""The metrics document: one shape for one model or many, and the reader that also takes earlier versions' files."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from refusalbench.config import ScoreConfig
from refusalbench.errors import UserError
from refusalbench.metrics.document import (
    SCHEMA_VERSION,
    as_document,
    load_metrics,
    metrics_per_model,
    sole_model_meta,
)
from refusalbench.metrics.io import save_metrics
from refusalbench.metrics.models import combine, score_by_model
from tests.support.scoring import labels_table


def scored(models=("m-a",)) -> dict[str, dict]:
    return score_by_model(labels_table(models=models), settings=ScoreConfig(n_resamples=20), meta={"benchmark": "NQ"})


def test_one_model_and_several_share_the_shape():
    one, several = combine(scored(), {"source": "s"}), combine(scored(("m-a", "m-b")), {"source": "s"})
    for doc in (one, several):
        assert set(doc) == {"schema_version", "models", "paired_differences", "meta"}
        assert doc["schema_version"] == SCHEMA_VERSION and doc["meta"]["source"] == "s"
    assert list(one["models"]) == ["m-a"] and one["paired_differences"] == {}
    assert set(several["models"]) == {"m-a", "m-b"} and len(several["paired_differences"]) == 1
    assert metrics_per_model(one)["m-a"]["refusal_accuracy"]["value"] is not None


def test_written_document_reads_back_unchanged(tmp_path):
    doc = combine(scored(("m-a", "m-b")), {"source": "s"})
    save_metrics(doc, tmp_path / "metrics.json")
    assert load_metrics(tmp_path / "metrics.json") == json.loads((tmp_path / "metrics.json").read_text())


def test_an_earlier_single_model_file_reads_as_a_document(tmp_path):
    flat = scored()["m-a"]  # what earlier versions wrote for one model: its metrics object itself
    save_metrics(flat, tmp_path / "metrics.json")
    doc = load_metrics(tmp_path / "metrics.json")
    assert doc["schema_version"] == SCHEMA_VERSION and list(doc["models"]) == ["m-a"]
    assert doc["models"]["m-a"] == json.loads((tmp_path / "metrics.json").read_text())
    assert doc["paired_differences"] == {} and doc["meta"]["benchmark"] == "NQ" and "model" not in doc["meta"]
    assert sole_model_meta(doc)["model"] == "m-a"


def test_an_earlier_several_model_file_reads_as_a_document():
    doc = combine(scored(("m-a", "m-b")))
    del doc["schema_version"]  # earlier versions wrote the same layout without a version
    assert as_document(doc)["schema_version"] == SCHEMA_VERSION
    assert set(metrics_per_model(doc)) == {"m-a", "m-b"} and sole_model_meta(doc) == {}


@pytest.mark.parametrize(
    "data, message",
    [
        ([1, 2], "not a JSON object"),
        ({"schema_version": 3, "models": {}}, "schema version 3"),
        ({"models": {"m": 0.5}}, "'models' must map"),
        ({"meta": {"model": "m"}}, "holds no model metrics"),
    ],
)
def test_what_is_not_a_metrics_document_is_named(data, message):
    with pytest.raises(UserError, match=message):
        as_document(data)


def test_missing_and_broken_files_are_user_errors(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        load_metrics(tmp_path / "metrics.json")
    (tmp_path / "metrics.json").write_text("{not json")
    with pytest.raises(UserError, match="Cannot read"):
        load_metrics(tmp_path / "metrics.json")


@pytest.mark.integration
def test_reading_metrics_keeps_the_command_line_start_light():
    code = (
        "import sys, refusalbench.cli, refusalbench.metrics.document; "
        "print(sorted(m for m in ('pandas', 'numpy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
