"""Forty-eighth blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.levers_contradiction import rounded
from tests.perturb.test_perturb_review14 import _generate as _run

COURT = {
    "source_id": "court",
    "query": "how many judges are on the east african labour appeals court",
    "answers": ["seven judges", "seven"],
    "title": "East African Court of Labour Appeals",
    "context": "The East African Court of Labour Appeals is a regional tribunal seated in Arusha, Tanzania. The court "
    "is composed of seven judges, each appointed for a single term of {term} years. Its first judgment was "
    "delivered in 2007.",
}
RIVALS = [
    {"source_id": f"r{k}", "query": "how many judges sit", "answers": [v], "context": f"It has {v}."}
    for k, v in enumerate(["twelve judges", "eleven judges", "ten judges", "twelve", "eleven"])
]


def test_a_count_clash_declines_where_the_figure_also_stands_outside_the_answer():
    # R058: "composed of twelve judges, each appointed for a single term of twelve judges years"
    row = dict(COURT, context=COURT["context"].format(term="seven"))
    with pytest.raises(NotApplicable, match="outside the answer"):
        _run(row, tx.CONTRADICTION, tx.MEDIUM, "Equal-standing Value Clash", RIVALS)
    row = dict(COURT, context=COURT["context"].format(term="five"))
    added = _run(row, tx.CONTRADICTION, tx.MEDIUM, "Equal-standing Value Clash", RIVALS)["perturbed_context"]
    assert "term of five years" in added and "judges years" not in added


@pytest.mark.parametrize("figure, expected", [("1,850 hectares", 1900), ("1,450", 1500), ("185", 190), ("1,849", 1800)])
def test_rounding_takes_a_half_up(figure, expected):
    # R069: "Another source rounds the figure, stating that ... 1,800 hectares" of 1,850
    assert rounded(at.parse_number(figure)) == expected


ENGINE = {
    "source_id": "engine",
    "query": "what programming language is the astrolith game engine written in",
    "answers": ["C++"],
    "title": "Astrolith",
    "context": "Astrolith is an open-source game engine for space simulation games, first released in 2015. It is "
    "written in C++{tail}. The engine was created by a small group of developers in Kraków, Poland, who had "
    "previously worked on flight simulators. Astrolith supports Windows, Linux and macOS.",
}


def test_the_purge_declines_a_sentence_with_a_second_present_tense_predicate():
    # R054: "It is written in C++ and uses Lua as its scripting language." went whole, Lua with it
    row = dict(ENGINE, context=ENGINE["context"].format(tail=" and uses Lua as its scripting language"))
    with pytest.raises(NotApplicable, match="another figure or clause"):
        _run(row, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")
    row = dict(ENGINE, context=ENGINE["context"].format(tail=""))
    assert "C++" not in _run(row, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")["perturbed_context"]
