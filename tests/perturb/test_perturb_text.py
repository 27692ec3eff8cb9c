"""Sentence splitting, answer matching and the casing/punctuation helpers."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refusalbench.perturb.text import (
    answer_pattern,
    as_question,
    balanced,
    capitalise,
    contains,
    contains_any,
    embed,
    end_sentence,
    is_clean,
    normalise_space,
    raw_contains_any,
    split_sentences,
    tidy,
)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Dr. Smith went home. He slept.", ["Dr. Smith went home.", "He slept."]),
        (
            "The U.S. Army was founded in 1775. It grew quickly.",
            ["The U.S. Army was founded in 1775.", "It grew quickly."],
        ),
        ("J. R. R. Tolkien wrote it. It sold well.", ["J. R. R. Tolkien wrote it.", "It sold well."]),
        ("It cost 3.5 dollars. That was cheap!", ["It cost 3.5 dollars.", "That was cheap!"]),
        (
            "Mr. and Mrs. Jones arrived on Jan. 5 at noon. They left.",
            ["Mr. and Mrs. Jones arrived on Jan. 5 at noon.", "They left."],
        ),
        ('He said "Go." Then he left.', ['He said "Go."', "Then he left."]),
        (
            "Symphony No. 40, KV. 550, was written in 1788. It is famous.",
            ["Symphony No. 40, KV. 550, was written in 1788.", "It is famous."],
        ),
        (
            "George II (German: Georg II. August) was king. He died.",
            ["George II (German: Georg II. August) was king.", "He died."],
        ),
        ("Ask e.g. the staff. Or call.", ["Ask e.g. the staff.", "Or call."]),
        (
            "Deadpool 2 is out on May 18, 2018.  A sequel is in development.",
            ["Deadpool 2 is out on May 18, 2018.", "A sequel is in development."],
        ),
        ("no final punctuation here", ["no final punctuation here"]),
        ("", []),
    ],
)
def test_split_sentences(text, expected):
    assert split_sentences(text) == expected


@given(
    st.lists(
        st.sampled_from(
            [
                "Dr.",
                "Smith",
                "went",
                "home.",
                "U.S.",
                "J.",
                "R.",
                "3.5",
                "He",
                "slept!",
                "It",
                "is",
                "May",
                "18,",
                "2018.",
                "(born",
                "1990)",
                "e.g.",
                "?",
                "\u00a0",
                "  ",
            ]
        ),
        max_size=30,
    )
)
@settings(max_examples=200, deadline=None)
def test_split_then_join_keeps_every_word(words):
    text = " ".join(words)
    assert " ".join(split_sentences(text)) == normalise_space(text)


@pytest.mark.parametrize(
    "text, answer, found",
    [
        ("Released on May 18,  2018.", "May 18, 2018", True),
        ("Released on may 18, 2018.", "May 18, 2018", True),
        ("In 1990 it opened.", "1", False),
        ("The Ledgers met.", "Ledger", False),
        ("Ledger's film", "Ledger", True),
        ("October\u00a02003 – present", "October 2003", True),
    ],
)
def test_answer_matching(text, answer, found):
    assert contains(text, answer) is found


@given(st.text(alphabet="abc ,.XYZ0123", max_size=40), st.sampled_from(["X Y", "abc", "Z0", "a.b"]))
@settings(max_examples=200, deadline=None)
def test_our_matcher_finds_everything_the_check_stage_finds(text, answer):
    if raw_contains_any(text, [answer]):
        assert contains_any(text, [answer])


def test_answer_pattern_is_none_for_blank():
    assert answer_pattern("   ") is None


def test_casing_and_punctuation_helpers():
    assert capitalise('"hello" world') == '"Hello" world'
    assert as_question("who plays joker in the dark knight") == "Who plays joker in the dark knight?"
    assert as_question("  when is it ?  ") == "When is it?"
    assert end_sentence("the show was headlined by Lady Gaga") == "The show was headlined by Lady Gaga."
    assert tidy("a  , b ( c ) d ,, e .") == "a, b (c) d, e."
    assert embed("The show was headlined by Lady Gaga.") == "the show was headlined by Lady Gaga"
    assert embed("Deadpool 2 is out.") == "Deadpool 2 is out"
    assert embed("Premiering in 2007, the video aired.") == "premiering in 2007, the video aired"
    assert embed("Symphony No. 40 is in G minor.", frozenset({"symphony"})) == "Symphony No. 40 is in G minor"
    assert embed("Principal photography began.", frozenset({"principal"})) == "principal photography began"


def test_clean_and_balanced():
    assert is_clean("Who is it?") and not is_clean("Who  is it?") and not is_clean("Who is it ?")
    assert not is_clean("no final mark")
    assert balanced('A (b) "c".') and not balanced("A (b.") and not balanced('He said "yes.')


@given(st.text(max_size=60))
@settings(max_examples=200, deadline=None)
def test_tidy_is_idempotent_and_single_spaced(text):
    once = tidy(text)
    assert tidy(once) == once
    assert "  " not in once and not re.search(r"\s[,.;:!?]", once)
