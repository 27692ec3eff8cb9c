"""A malformed JSON Lines record is one clear, counted warning naming its line, with no library ERROR."""

from __future__ import annotations

import json
import logging

import pytest

from refusalbench.config import DatasetConfig
from refusalbench.data.loader import load_records
from refusalbench.data.records import DataError


def _file(tmp_path):
    path = tmp_path / "questions.jsonl"
    good = json.dumps({"question": "q", "answers": ["a"], "context": "c", "year": "1984"})
    path.write_text(f"{good}\n\n{{not json\n{good}\n")
    return path


def test_malformed_line_is_a_counted_skip_naming_the_line(tmp_path, caplog):
    path = _file(tmp_path)
    with caplog.at_level(logging.DEBUG):
        records, skips = load_records(DatasetConfig(kind="nq", path=str(path)))
        skips.finish()
    assert len(records) == 2 and records[0][1]["year"] == "1984"  # values kept exactly as written
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "line 3 of questions.jsonl is not valid JSON" in warnings[0]


def test_malformed_line_is_an_error_when_strict(tmp_path):
    records, skips = load_records(DatasetConfig(kind="nq", path=str(_file(tmp_path)), strict=True))
    with pytest.raises(DataError, match="line 3"):
        skips.finish()


def test_a_skipped_base_record_is_warned_about_once(tmp_path, caplog):
    from refusalbench.generation.base_table import load_base_table

    good = json.dumps({"question": "q", "answers": ["a"], "ctxs": [{"title": "t", "text": "the answer is a"}]})
    path = tmp_path / "nq.jsonl"
    path.write_text(f'{good}\n{{"question": "cut\n')

    class Cfg:
        class generate:
            source = None

        dataset = DatasetConfig(kind="nq", path=str(path))

    with caplog.at_level(logging.DEBUG):
        load_base_table(Cfg)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "line 2 of nq.jsonl is not valid JSON" in warnings[0]
    assert "at at" not in warnings[0]
