"""Forty-ninth blind review: gates and wordings written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from refusalbench.perturb.levers_premise import NON_AGENTS
from tests.perturb.test_perturb_review14 import _generate as _run

FILM = {
    "source_id": "film",
    "query": "who directed the long tide",
    "answers": ["Carla Benedetti"],
    "title": "The Long Tide",
    "context": "The Long Tide is a 1996 American disaster film directed by Carla Benedetti. {rank} Principal "
    "photography took place in Wilmington, North Carolina.",
}


@pytest.mark.parametrize(
    "rank",
    ["It was one of the highest-grossing films of 1996.", "It was among the top-grossing films of 1996."],
)
def test_no_ranking_question_where_the_passage_ranks_the_work(rank):
    # R066: "rank above the other films of 1996" beside "one of the highest-grossing films of 1996"
    row = dict(FILM, context=FILM["context"].format(rank=rank))
    with pytest.raises(NotApplicable, match="ranks the work"):
        _run(row, tx.EPISTEMIC, tx.MEDIUM, "Quality Ranking without Benchmark")
    row = dict(FILM, context=FILM["context"].format(rank="It was released in the summer of 1996."))
    assert "1996" in _run(row, tx.EPISTEMIC, tx.MEDIUM, "Quality Ranking without Benchmark")["perturbed_query"]


GAME = {
    "source_id": "game",
    "query": "how much did it cost to make the iron meridian",
    "answers": ["$80 million"],
    "title": "Iron Meridian",
    "context": "Iron Meridian is a 2019 open-world video game developed by a studio in Montreal. With {what} $80 "
    "million, it was the studio's largest project. It sold well in its first year.",
}


def test_no_price_redacted_where_the_passage_reports_it():
    # R023: "With a reported development and marketing budget of an undisclosed amount"
    row = dict(GAME, context=GAME["context"].format(what="a reported development and marketing budget of"))
    with pytest.raises(NotApplicable, match="hedged"):
        _run(row, tx.MISSING_INFO, tx.MEDIUM, "Price Redacted")
    row = dict(GAME, context=GAME["context"].format(what="a development and marketing budget of"))
    out = _run(row, tx.MISSING_INFO, tx.MEDIUM, "Price Redacted")["perturbed_context"]
    assert "budget of an unspecified amount" in out or "an unspecified budget" in out


def test_no_inanimate_agent_reads_as_a_blank_to_fill_in():
    # R031, R036, R046: "Which empty box founded ..." read as "Which ___ founded ..."
    assert not any("box" in agent or "blank" in agent for agent in NON_AGENTS)
