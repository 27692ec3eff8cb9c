"""Eighty-sixth blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic
from refusalbench.perturb.purge_cuts import trimmed_clause

LEAGUE = (
    "The Kyushu Frontier Baseball League is an independent professional baseball league in Japan. It was founded in "
    "2011. The league currently consists of six teams, in Kagoshima, Kumamoto, Miyazaki, Ōita, Saga and Nagasaki. "
    "Each season runs from April to September."
)


def _rival_count(context: str) -> dict:
    row = {"source_id": "k", "query": "how many teams are in the kyushu frontier baseball league", "answers": ["six"]}
    row.update(title="Kyushu Frontier Baseball League", context=context)
    others = [
        {"source_id": f"o{n}", "query": "how many", "answers": [a], "context": f"It has {a}."}
        for n, a in enumerate(["four teams", "nine teams", "eight teams", "ten teams"])
    ]
    pool = DistractorPool.from_base([row, *others])
    return generate_programmatic(row, tx.CONTRADICTION, tx.MEDIUM, 0, pool, lever="Equal-standing Value Clash")


def test_a_rival_count_is_declined_where_the_members_are_listed_after_the_count():
    # R037: "... consists of four teams, in Kagoshima, Kumamoto, Miyazaki, Ōita, Saga and Nagasaki": six named
    with pytest.raises(NotApplicable, match="list of its members"):
        _rival_count(LEAGUE)


def test_a_purge_does_not_cut_the_last_of_a_list_of_predicates():
    # R102: "They cover some 3,200 square kilometres, reach 2,640 metres at Mount Bifang." lost its "and"
    sentence = (
        "They cover some 3,200 square kilometres, reach 2,640 metres at Mount Bifang, and are home to about 410,000 "
        "people."
    )
    assert trimmed_clause(sentence, lambda text: "410,000" in text) is None
    # a clause with its own subject, and a place after a comma, are no list of predicates
    ship = (
        "Named after the biologist Aurelia Kanner, she was built by the Fassmer shipyard in Berne, Lower Saxony, and "
        "launched on 19 November 2011."
    )
    assert trimmed_clause(ship, lambda text: "2011" in text).startswith("Named after the biologist Aurelia Kanner, she")
    two = "The highlands reach 2,640 metres at Mount Bifang and are home to about 410,000 people."
    assert trimmed_clause(two, lambda text: "410,000" in text) == "The highlands reach 2,640 metres at Mount Bifang."


@pytest.mark.parametrize(
    "listed",
    ["", " in Kagoshima, Kumamoto and Saga"],  # no list, or a list of places that is not the six teams
)
def test_a_rival_count_stands_where_the_members_are_not_listed(listed):
    out = _rival_count(LEAGUE.replace(", in Kagoshima, Kumamoto, Miyazaki, Ōita, Saga and Nagasaki", listed))
    assert "six teams" in out["perturbed_context"] and out["perturbed_context"].count("teams") == 2
