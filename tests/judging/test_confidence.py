"""Parsing the confidence variant's `CONFIDENCE: NN` line."""

from __future__ import annotations

import pytest

from refusalbench.judging.confidence import parse_confidence


@pytest.mark.parametrize(
    "text,answer,conf",
    [
        ("Paris\nCONFIDENCE: 85", "Paris", 0.85),
        ("Paris\n**Confidence:** 90%", "Paris", 0.90),
        ("REFUSE_OTHER\nconfidence = 100", "REFUSE_OTHER", 1.0),
        ("Paris\nCONFIDENCE: 0", "Paris", 0.0),
        ("CONFIDENCE: 10\nParis\nCONFIDENCE: 70", "Paris", 0.70),  # the last line counts
        ("Paris is the capital.\nConfidence: 72.5%", "Paris is the capital.", 0.725),
    ],
)
def test_parse(text, answer, conf):
    p = parse_confidence(text)
    assert p.answer == answer
    assert p.confidence == pytest.approx(conf)
    assert p.note is None


def test_missing_and_invalid():
    p = parse_confidence("Paris")
    assert p.confidence is None and p.answer == "Paris" and "no CONFIDENCE" in p.note
    p = parse_confidence("Paris\nCONFIDENCE: 150")
    assert p.confidence is None and p.answer == "Paris" and "outside" in p.note
    p = parse_confidence("Paris\nCONFIDENCE: high")
    assert p.confidence is None and p.answer == "Paris"
    assert parse_confidence("My confidence in this is low").answer == "My confidence in this is low"
