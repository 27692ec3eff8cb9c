"""Granularity MEDIUM, "Part-of-part Detail": a part of the answer asked where the passage names only the whole
(the member of a band that sang a song, the street address of a building placed in a town)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic

LEVER = "Part-of-part Detail"
SONG = (
    '"Lantern Weather" is a song by the Welsh folk band the Harrow Lines, released on their second album in 1971. '
    "It reached number nine on the national chart and stayed there for eleven weeks."
)
MUSEUM = (
    "The Coastal Lifeboat Museum in Porthwen, Wales, is one of the oldest maritime museums in Britain. Opened in "
    "1908, it holds the boats, logbooks and medals of the town's lifeboat crews."
)


def _generate(query: str, answers: list[str], context: str) -> dict:
    row = {"source_id": "p", "query": query, "answers": answers, "title": "T", "context": context}
    return generate_programmatic(row, tx.GRANULARITY, tx.MEDIUM, 0, DistractorPool.from_base([row]), lever=LEVER)


def test_asks_which_member_of_the_band_sang_and_keeps_the_passage():
    out = _generate("who sang lantern weather", ["the Harrow Lines"], SONG)
    assert out["perturbed_query"] == "Which member of the band sang the lead vocal on lantern weather?"
    assert out["perturbed_context"] == SONG
    duo = SONG.replace("folk band", "folk duo")
    present = _generate("who sings lantern weather", ["the Harrow Lines"], duo)
    assert present["perturbed_query"] == "Which member of the duo sings the lead vocal on lantern weather?"


@pytest.mark.parametrize(
    "query, answers, context, why",
    [
        ("who wrote lantern weather", ["the Harrow Lines"], SONG, "neither who sang"),
        ("who sang the theme song to lantern weather", ["the Harrow Lines"], SONG, "not about one song"),
        ("who sang lantern weather and when", ["the Harrow Lines"], SONG, "not about one song"),
        # a singer among the gold answers: the question asks for a person already
        ("who sang lantern weather", ["the Harrow Lines", "Mair Evans"], SONG + " Mair Evans toured it.", "a band"),
        ("who sang lantern weather", ["the Harrow Lines"], SONG.replace("folk band ", ""), "a band"),
        ("who sang lantern weather", ["the Harrow Lines"], SONG + " Its lead vocal is by Mair Evans.", "voices"),
        ("who sang lantern weather", ["the Harrow Lines"], SONG + " The band's members were from Bangor.", "voices"),
        # a writer in the band is a guess at the singer
        ("who sang lantern weather", ["the Harrow Lines"], SONG + " It was written by Mair Evans.", "makers"),
    ],
)
def test_band_member_declines_where_the_passage_tells_more_or_the_answer_is_no_band(query, answers, context, why):
    with pytest.raises(NotApplicable, match=why):
        _generate(query, answers, context)


def test_asks_the_street_address_of_a_building_placed_in_a_town():
    out = _generate("where is the coastal lifeboat museum located", ["Porthwen"], MUSEUM)
    assert out["perturbed_query"] == "At what street address is the coastal lifeboat museum located?"
    assert out["perturbed_context"] == MUSEUM


@pytest.mark.parametrize(
    "query, context, why",
    [
        ("where is the lifeboat quay located", MUSEUM, "not a building"),  # a quay, a town: no one address
        ("where is the coastal lifeboat museum", MUSEUM, "neither"),  # no "located"
        (
            "where is the coastal lifeboat museum located",
            MUSEUM.replace("in Porthwen", "on Quay Street in Porthwen"),
            "finer than a town",
        ),
        (
            "where is the coastal lifeboat museum located",
            MUSEUM.replace("in Porthwen", "in central Porthwen"),
            "finer than a town",
        ),
        ("where is the coastal lifeboat museum located", MUSEUM + " It appears in the novel Salt Roads.", "story"),
    ],
)
def test_street_address_declines_areas_stories_and_passages_placing_it_finer(query, context, why):
    with pytest.raises(NotApplicable, match=why):
        _generate(query, ["Porthwen"], context)
