"""Forty-third blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_perturb_review14 import _generate as _run

PEAK = {
    "source_id": "peak",
    "query": "when was mount tarewai first climbed",
    "answers": ["January 14, 1934", "1934"],
    "title": "Mount Tarewai",
    "context": "Mount Tarewai is a 2,912-metre peak in the Southern Alps of New Zealand. The first recorded ascent was "
    "made on January 14, 1934. Its Maori name is commonly translated as 'the watching peak'.",
}
DATE_CELLS = [(tx.MEDIUM, "Dual-authoritative Dates"), (tx.HIGH, "Mutual Exclusion Claim")]


@pytest.mark.parametrize("intensity, lever", DATE_CELLS)
def test_the_date_clash_still_applies_to_the_plain_item(intensity, lever):
    assert "1934" in _run(PEAK, tx.CONTRADICTION, intensity, lever)["perturbed_context"]


@pytest.mark.parametrize("intensity, lever", DATE_CELLS)
def test_a_question_asking_the_day_is_declined(intensity, lever):
    # R012: "what day was mount tarewai first climbed": "January 14" stands under both dates
    with pytest.raises(NotApplicable):
        _run(dict(PEAK, query="what day was mount tarewai first climbed"), tx.CONTRADICTION, intensity, lever)


@pytest.mark.parametrize("intensity, lever", DATE_CELLS)
def test_a_next_sentence_pointing_back_to_the_year_is_declined(intensity, lever):
    # R027: "... in March 1958 ... The song became one of the most played records on Radio Nacional that year."
    context = PEAK["context"].replace("Its Maori name", "The peak was climbed twice more that year. Its Maori name")
    with pytest.raises(NotApplicable):
        _run(dict(PEAK, context=context), tx.CONTRADICTION, intensity, lever)


@pytest.mark.parametrize("intensity, lever", DATE_CELLS)
def test_a_celebration_tied_to_another_year_is_declined(intensity, lever):
    # R028: "first performed in Budapest in 1896, as part of the celebrations of the millennium of the Hungarian
    # state": the millennium gives the year back
    context = PEAK["context"].replace(
        "Its Maori name", "The climb marked the centenary of the colony's first survey. Its Maori name"
    )
    with pytest.raises(NotApplicable):
        _run(dict(PEAK, context=context), tx.CONTRADICTION, intensity, lever)


DRUG = {
    "source_id": "drug",
    "query": "when was pemarolide approved in the us",
    "answers": ["2006"],
    "title": "Pemarolide",
    "context": "Pemarolide is a topical medication used to treat the inflammatory lesions of rosacea. It is applied to "
    "the skin once a day as a thin layer of cream. Pemarolide was approved in the United States in 2006. "
    "Common side effects include skin irritation and dryness.",
}


def test_the_purge_takes_a_sentence_that_holds_only_the_answer():
    out = _run(DRUG, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")
    assert "2006" not in out["perturbed_context"] and "Common side effects" in out["perturbed_context"]


def test_the_purge_declines_a_whole_sentence_that_carries_another_figure():
    # R001: "First synthesised in 1994 at a laboratory in Lyon, pemarolide was approved ... in 2006 and in the
    # European Union two years later." would lose the synthesis and the EU approval with the US date
    context = DRUG["context"].replace(
        "Pemarolide was approved in the United States in 2006.",
        "First synthesised in 1994 at a laboratory in Lyon, pemarolide was approved for use in the United States in "
        "2006 and in the European Union two years later.",
    )
    with pytest.raises(NotApplicable):
        _run(dict(DRUG, context=context), tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")


POLITICIAN = {
    "source_id": "mp",
    "query": "what date was aino kettunen first elected",
    "answers": ["17 March 1991"],
    "title": "Aino Kettunen",
    "context": "Aino Kettunen (born 1955) is a Finnish politician of the Centre Party who was first elected to the "
    "Parliament of Finland on 17 March 1991, representing the Oulu constituency. She served six consecutive terms.",
}


def test_the_pronoun_lever_declines_a_person_it_would_call_it():
    # R075: "What date was it first elected to parliament?" (its passage writes "the Parliament of Finland")
    with pytest.raises(NotApplicable):
        _run(POLITICIAN, tx.AMBIGUITY, tx.LOW, "Salient-antecedent Pronoun")


def test_the_pronoun_lever_keeps_a_song_whose_singer_s_birth_is_given():
    song = {
        "source_id": "song",
        "query": "what year did les quais de brest come out",
        "answers": ["1996"],
        "title": "Les Quais de Brest",
        "context": '"Les Quais de Brest" is a song by the French singer Maelle Kerjean (born 1972), released in 1996 '
        "as the second single from her debut album. It reached number 7 in France.",
    }
    assert _run(song, tx.AMBIGUITY, tx.LOW, "Salient-antecedent Pronoun")["perturbed_query"] == (
        "What year did it come out?"
    )
