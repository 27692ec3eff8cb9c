"""SQuAD-style normalisation, exact match and token F1."""

from __future__ import annotations

import pytest

from refusalbench.judging.answer_match import best_match, exact_match, f1_score, normalize_answer


@pytest.mark.parametrize(
    "text,expected",
    [
        ("The Eiffel Tower!", "eiffel tower"),
        ("  A  cat,   an apple and THE dog. ", "cat apple and dog"),
        ("U.S.A.", "usa"),
        ("“Quoted” — text", "quoted text"),
        ("Theatre", "theatre"),  # articles only as whole words
    ],
)
def test_normalize(text, expected):
    assert normalize_answer(text) == expected


def test_exact_match():
    assert exact_match("the Beatles.", "Beatles")
    assert not exact_match("The Rolling Stones", "Beatles")


def test_f1_known_values():
    assert f1_score("Barack Obama", "Barack Obama") == 1.0
    assert f1_score("Barack Hussein Obama", "Barack Obama") == pytest.approx(0.8)  # p=2/3, r=1
    assert f1_score("Obama", "Barack Obama") == pytest.approx(2 / 3)  # p=1, r=1/2
    assert f1_score("George Bush", "Barack Obama") == 0.0
    assert f1_score("the", "a") == 1.0  # both normalise to empty
    assert f1_score("", "Obama") == 0.0


def test_best_match_over_references():
    m = best_match("It was Barack Obama [1].", ["George Bush", "Barack Obama"])
    assert m.f1 == pytest.approx(2 * (2 / 4) * 1 / (2 / 4 + 1))  # "it was barack obama" vs "barack obama"
    assert not m.em
    assert m.best_reference == "Barack Obama"
    assert best_match("Obama", ["", "obama"]).em
    assert best_match("**Answer:** Barack Obama", ["Barack Obama"]).em  # echoed prompt cue dropped
    assert best_match("x", []) is None
    assert best_match("x", [None, "  "]) is None
