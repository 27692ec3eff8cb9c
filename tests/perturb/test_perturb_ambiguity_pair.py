"""Ambiguity MEDIUM / HIGH: the leads of other works asked the same question beside the item's own passage."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic
from refusalbench.perturb.levers_ambiguity_pair import PARAGRAPH


def song(sid: str, title: str, singer: str, year: str, query: str | None = None, tail: str = "") -> dict:
    return {
        "source_id": sid,
        "query": query or f"who sang {title.lower()}",
        "answers": [singer],
        "title": title,
        "context": (
            f'"{title}" is a {year} song recorded by the singer {singer} for the album Harbour Lights. It was '
            f"released as the second single from the album and reached number four on the national chart. "
            f"The song was produced in a small studio on the coast over two weeks.{tail}"
        ),
    }


LANTERN = song("a1", "Paper Lantern", "Mara Quill", "1979")
TIDES = song("a2", "Slow Tides", "Oren Vale", "1984")
COPPER = song("a3", "Copper Sky", "Ilse Brandt", "1991")
ROWS = [LANTERN, TIDES, COPPER]
POOL = DistractorPool.from_base(ROWS)


def test_medium_puts_one_other_song_beside_the_passage_and_asks_about_this_song():
    out = generate_programmatic(LANTERN, tx.AMBIGUITY, tx.MEDIUM, 0, POOL)
    assert out["lever_selected"] == "Ambiguous Deictic Reference"
    assert out["perturbed_query"] == "Who sang this song?"
    paragraphs = out["perturbed_context"].split(PARAGRAPH)
    assert len(paragraphs) == 2 and LANTERN["context"] in paragraphs
    other = next(p for p in paragraphs if p != LANTERN["context"])
    assert other in (TIDES["context"], COPPER["context"]) and "Mara Quill" not in other


def test_high_puts_two_other_songs_beside_the_passage_and_asks_about_that_one():
    out = generate_programmatic(LANTERN, tx.AMBIGUITY, tx.HIGH, 0, POOL)
    assert out["lever_selected"] == "Anaphoric 'One' Collision"
    assert out["perturbed_query"] == "Who sang that one?"
    assert sorted(out["perturbed_context"].split(PARAGRAPH)) == sorted(r["context"] for r in ROWS)


def test_high_needs_two_other_songs():
    pool = DistractorPool.from_base([LANTERN, TIDES])
    assert generate_programmatic(LANTERN, tx.AMBIGUITY, tx.MEDIUM, 0, pool)["perturbed_query"] == "Who sang this song?"
    with pytest.raises(NotApplicable, match="fewer than 2"):
        generate_programmatic(LANTERN, tx.AMBIGUITY, tx.HIGH, 0, pool)


def test_a_song_with_the_same_singer_or_naming_the_other_is_no_companion():
    same_singer = song("b1", "Slow Tides", "Mara Quill", "1984")
    names_it = song("b2", "Copper Sky", "Ilse Brandt", "1991", tail=' It was written as an answer to "Paper Lantern".')
    for other in (
        same_singer,
        names_it,
    ):  # the answer would be right under both readings, or one reading names the other
        with pytest.raises(NotApplicable, match="fewer than 1"):
            generate_programmatic(LANTERN, tx.AMBIGUITY, tx.MEDIUM, 0, DistractorPool.from_base([LANTERN, other]))


def test_release_dates_in_the_same_year_are_no_two_readings():
    lantern = dict(LANTERN, query="when did paper lantern come out", answers=["1979"])
    same_year = dict(TIDES, query="when did slow tides come out", answers=["1979"])
    same_year["context"] = same_year["context"].replace("1984", "1979")
    other_year = dict(COPPER, query="when did copper sky come out", answers=["1991"])
    with pytest.raises(NotApplicable, match="fewer than 1"):
        generate_programmatic(lantern, tx.AMBIGUITY, tx.MEDIUM, 0, DistractorPool.from_base([lantern, same_year]))
    out = generate_programmatic(lantern, tx.AMBIGUITY, tx.MEDIUM, 0, DistractorPool.from_base([lantern, other_year]))
    assert out["perturbed_query"] == "When did this song come out?"


def test_a_question_that_says_more_than_the_work_or_asks_another_relation_is_declined():
    more = dict(LANTERN, query="who sang paper lantern in the 1979 charity concert")
    wrote = dict(TIDES, query="who wrote slow tides")  # asks another relation: no companion of the same question
    with pytest.raises(NotApplicable, match="does not ask"):
        generate_programmatic(more, tx.AMBIGUITY, tx.MEDIUM, 0, POOL)
    with pytest.raises(NotApplicable, match="fewer than 1"):
        generate_programmatic(LANTERN, tx.AMBIGUITY, tx.MEDIUM, 0, DistractorPool.from_base([LANTERN, wrote]))


def test_a_trailing_fragment_of_a_retrieved_chunk_is_left_out():
    cut = dict(TIDES, context=TIDES["context"] + " One month earlier, another")
    out = generate_programmatic(LANTERN, tx.AMBIGUITY, tx.MEDIUM, 0, DistractorPool.from_base([LANTERN, cut]))
    assert out["perturbed_context"].split(PARAGRAPH).count(TIDES["context"]) == 1
    assert "One month earlier" not in out["perturbed_context"]


def test_the_items_own_passage_loses_a_cut_off_fragment_and_takes_any_place():
    # kept whole and last on every cut chunk, the item's own reading was the last-mentioned one (fifty-second review);
    # with its fragment gone, as the other passages lose theirs, it is shuffled among them (fifty-third: 10 of 10 valid)
    own = dict(LANTERN, context=LANTERN["context"] + " Quill sings the verses while the choir sings")
    pool = DistractorPool.from_base([own, TIDES, COPPER])
    places = set()
    for seed in range(8):
        for intensity in (tx.MEDIUM, tx.HIGH):
            paragraphs = generate_programmatic(own, tx.AMBIGUITY, intensity, seed, pool)["perturbed_context"].split(
                PARAGRAPH
            )
            assert LANTERN["context"] in paragraphs and "the choir sings" not in " ".join(paragraphs)
            places.add(paragraphs.index(LANTERN["context"]) == len(paragraphs) - 1)
    assert places == {True, False}
