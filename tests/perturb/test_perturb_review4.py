"""Gates added after the fourth blind review: each declines a hand-made bad item and accepts a good one."""

from __future__ import annotations

import random

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic
from refusalbench.perturb.engine import make_item
from refusalbench.perturb.grounding import weak_grounding
from refusalbench.perturb.levers_ambiguity import pronoun_query
from refusalbench.perturb.levers_missing_low import is_statement


def _lever(row, cls, intensity, lever, pool_rows=()):
    return generate_programmatic(row, cls, intensity, 0, DistractorPool.from_base([row, *pool_rows]), lever=lever)


def _weak(row: dict) -> str | None:
    return weak_grounding(make_item(row, DistractorPool.from_base([row]), False, random.Random(0)))


TEMPORAL = "Missing Temporal Adjunct"


@pytest.mark.parametrize(
    "context",
    [
        # another date of the same sentence would read as the answer once the first goes
        "The game was released in September 2014 for Windows, and in November 2014 for older consoles.",
        # another year elsewhere in the passage
        "Hyderabad joined the Indian Union in 1948. The state was reorganised in 1956 into Andhra Pradesh.",
    ],
)
def test_temporal_adjunct_declines_when_another_date_stays(context):
    row = {"source_id": "t1", "query": "when was it released", "answers": ["September 2014", "1948"]}
    with pytest.raises(NotApplicable):
        _lever(dict(row, context=context), tx.MISSING_INFO, tx.MEDIUM, TEMPORAL)


def test_temporal_adjunct_declines_a_clause_left_without_its_time_beside_while():
    row = {
        "source_id": "t2",
        "query": "when does the soundtrack come out",
        "answers": ["February 16, 2018"],
        "context": "The album was released on February 16, 2018, while the score was released on February 16, 2018.",
    }
    with pytest.raises(NotApplicable):
        _lever(row, tx.MISSING_INFO, tx.MEDIUM, TEMPORAL)


@pytest.mark.parametrize(
    "context",
    ["Opened in 1904, the subway is one of the oldest systems.", "First appearing in 1904, the trains were slow."],
)
def test_temporal_adjunct_declines_an_opening_participle_left_without_its_time(context):
    row = {"source_id": "t4", "query": "when did the subway open", "answers": ["1904"], "context": context}
    with pytest.raises(NotApplicable):
        _lever(row, tx.MISSING_INFO, tx.MEDIUM, TEMPORAL)


def test_temporal_adjunct_cuts_the_only_date():
    row = {
        "source_id": "t3",
        "query": "when was the bridge opened",
        "answers": ["1932"],
        "context": "The Sydney Harbour Bridge is a steel arch bridge. It was opened in 1932 by the premier.",
    }
    out = _lever(row, tx.MISSING_INFO, tx.MEDIUM, TEMPORAL)
    assert out["perturbed_context"].endswith("It was opened by the premier.")


@pytest.mark.parametrize(
    "sentence, ok",
    [("Countries", False), ("Member countries and regions.", False), ("The fund lends money to members.", True)],
)
def test_sentence_deletion_removes_statements_only(sentence, ok):
    assert is_statement(sentence) is ok


def test_non_answer_deletion_declines_a_stray_fragment():
    row = {
        "source_id": "n1",
        "query": "where is the fund headquartered",
        "answers": ["Washington, D.C."],
        "context": "The fund is headquartered in Washington, D.C. Countries",
    }
    with pytest.raises(NotApplicable):
        _lever(row, tx.MISSING_INFO, tx.LOW, "Non-answer Sentence Deletion")


@pytest.mark.parametrize(
    "query, title",
    [
        ("what is the enrollment at university of miami", "University of Miami"),  # "at it"
        ("what is a another name for the water cycle", "Water cycle"),  # "a another": a source typo
        ("who is the the author of the hobbit", "The Hobbit"),  # a doubled word
    ],
)
def test_pronoun_declines_after_a_preposition_or_a_source_typo(query, title):
    assert pronoun_query(query, title, "it") is None


def test_pronoun_still_replaces_a_plain_subject():
    assert pronoun_query("who sang the song holiday road", "Holiday Road", "it") == "Who sang it?"


def test_source_gate_declines_a_number_the_passage_does_not_state():
    row = {
        "source_id": "s1",
        "query": "who won season 7 of the voice",
        "answers": ["Craig Wayne Boyd"],
        "context": "The Voice season 6 was its last with old coaches. Craig Wayne Boyd won the season of the voice.",
    }
    assert "7" in (_weak(row) or "")
    for query in ("who won the seventh season of the voice", "who won the 7th season of the voice"):
        assert _weak(dict(row, query=query))
    stated = dict(row, context="Craig Wayne Boyd won the seventh season of The Voice.")
    assert _weak(dict(stated, query="who won season 7 of the voice")) is None
    assert _weak(dict(stated, query="who won the 7th season of the voice")) is None


def test_source_gate_declines_a_where_question_answered_by_a_year_or_nationality():
    row = {
        "source_id": "s2",
        "query": "where was the witch of blackbird pond published",
        "answers": ["United States", "1958"],
        "context": "The Witch of Blackbird Pond is a novel by American author Elizabeth Speare, published in 1958.",
    }
    assert "where" in (_weak(row) or "")
    placed = dict(row, context="The Witch of Blackbird Pond is a novel published in 1958 in the United States.")
    assert _weak(placed) is None
