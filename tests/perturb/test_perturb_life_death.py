"""Contradiction HIGH, "Life/Death Status Inconsistency": the person who answers is stated to have died years
before the live act the passage dates."""

from __future__ import annotations

import re

import pytest

from refusalbench import taxonomy as tx
from refusalbench.generation.semantic import Candidate, answer_uncontested
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic
from refusalbench.perturb.levers_life_death import MAX_GAP, MIN_GAP, dated_act

LEVER = "Life/Death Status Inconsistency"
BOARD = (
    "The Porthwen Harbour Board manages the port of Porthwen in west Wales. Mared Ellis was appointed chair of "
    "the board on 3 March 2011, replacing Owen Price. The board meets four times a year."
)


def _generate(query: str, answers: list[str], context: str, seed: int = 0) -> dict:
    row = {"source_id": "p", "query": query, "answers": answers, "title": "T", "context": context}
    return generate_programmatic(row, tx.CONTRADICTION, tx.HIGH, seed, DistractorPool.from_base([row]), lever=LEVER)


def test_adds_a_death_years_before_the_dated_act_at_the_end_of_the_passage():
    for seed in range(6):
        out = _generate("who is the chair of the porthwen harbour board", ["Mared Ellis"], BOARD, seed)
        assert out["perturbed_query"] == "who is the chair of the porthwen harbour board"
        assert out["perturbed_context"].startswith(BOARD + " Mared Ellis died in ")
        death = int(re.search(r"died in (\d{4})\.$", out["perturbed_context"]).group(1))
        assert 2011 - MAX_GAP <= death <= 2011 - MIN_GAP


@pytest.mark.parametrize(
    "sentence, name, year",
    [
        ("In 1492 Cristina Alves sailed from Lisbon with three ships.", "Cristina Alves", 1492),
        ("Mared Ellis was appointed chair of the board on 3 March 2011.", "Mared Ellis", 2011),
        ("The cell was first observed by Swiss botanist Anja Roth in 1835.", "Anja Roth", 1835),
        ("It is a note-taking system devised in the 1940s by Piet Kramer.", "Piet Kramer", 1940),
        ("Salt Hour is a 1993 Danish drama film directed by Ida Lund.", "Ida Lund", 1993),
    ],
)
def test_dates_the_act_of_the_person(sentence, name, year):
    assert dated_act(sentence, name)[0] == year


@pytest.mark.parametrize(
    "sentence, name",
    [
        # the year dates another person's act
        ('"Salt Hour" is a song written by Ida Lund, recorded by Piet Kramer in 1936.', "Ida Lund"),
        # acts a dead person's name still takes
        ("Salt Hour is a 1957 song written by Ida Lund.", "Ida Lund"),
        ("The novel was published in 1931 by Ida Lund.", "Ida Lund"),
        # a joint act
        ("In 1981 Piet Kramer and Ida Lund recorded a new version.", "Ida Lund"),
    ],
)
def test_does_not_date_an_act_it_cannot_tie_to_the_person(sentence, name):
    assert dated_act(sentence, name) is None


@pytest.mark.parametrize(
    "query, answers, context, why",
    [
        ("when was mared ellis appointed", ["3 March 2011"], BOARD, "'who'"),
        ("who is the chair of the porthwen harbour board", ["Mared Ellis", "Owen Price"], BOARD, "not one person"),
        ("who is the chair", ["Mared Ellis"], BOARD.replace("Mared Ellis", "Mared Ellis (born 1960)"), "birth"),
        ("who is the chair", ["Mared Ellis"], BOARD.replace("replacing", "replacing the late"), "birth"),
        ("who is the chair", ["Mared Ellis"], BOARD.replace(" on 3 March 2011", ""), "dates a live act"),
        ("who is the chair", ["Mared Ellis"], BOARD.replace("on 3 March 2011", "in 2011 and 2012"), "more than one"),
        (
            "who sang salt hour",
            ["Harrow Lines"],
            "Salt Hour is a song by the Welsh folk band Harrow Lines. In 1971 Harrow Lines recorded it in Cardiff.",
            "group",
        ),
    ],
)
def test_declines_where_the_death_would_not_contest_the_answer(query, answers, context, why):
    with pytest.raises(NotApplicable, match=why):
        _generate(query, answers, context)


def _candidate(added: str) -> Candidate:
    return Candidate(tx.CONTRADICTION, tx.HIGH, "q", "q", [BOARD], [f"{BOARD} {added}"], ["Mared Ellis"])


def test_the_detector_takes_a_death_before_the_dated_act_as_contesting_the_answer():
    assert answer_uncontested(_candidate("Mared Ellis died in 1999.")) is None
    # a death after the act leaves the answer standing
    assert "Mared Ellis" in answer_uncontested(_candidate("Mared Ellis died in 2015."))


def test_declines_where_the_dated_act_is_not_the_one_the_question_asks():
    # thirty-second review: a death before a dated patent leaves an undated, older invention standing
    kiln = "The Ferrocline kiln was invented by the engineer Ida Lund, who patented the design in Turin in 1887."
    with pytest.raises(NotApplicable, match="another act"):
        _generate("who invented the ferrocline kiln", ["Ida Lund"], kiln)
    # a question about what the person is now is undone by any dated act of theirs
    assert _generate("who is the chair of the porthwen harbour board", ["Mared Ellis"], BOARD)


def test_declines_where_the_passage_is_cut_inside_a_sentence_that_points_back():
    # thirty-second review: "... died in 1936. His work was" gave the cut sentence's "His" to the dead man
    cut = BOARD.replace(" The board meets four times a year.", " Owen Price wrote its history. His work was")
    with pytest.raises(NotApplicable, match="pronoun"):
        _generate("who is the chair of the porthwen harbour board", ["Mared Ellis"], cut)
    ends_cut = BOARD.replace(" The board meets four times a year.", " The board meets four")
    assert "Mared Ellis died in" in _generate("who is the chair", ["Mared Ellis"], ends_cut)["perturbed_context"]
