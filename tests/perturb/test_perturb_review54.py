"""Fifty-fourth blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_perturb_review14 import _generate as _run

FESTIVAL = {
    "source_id": "festival",
    "query": "when did the sahel screen festival start",
    "answers": ["1998"],
    "title": "Sahel Screen Festival",
    "context": "The Sahel Screen Festival is a {kind} film festival held in Niamey, Niger. It was first held in 1998, "
    "organised by a group of filmmakers from Niger and Mali. The festival presents feature films and documentaries "
    "from West Africa.",
}


def test_a_date_clash_declines_for_an_event_that_recurs_every_few_years():
    # R009: "It was first held in 2001, and not in 1998." of a biennial festival whose 2012 edition fits 1998 only
    row = dict(FESTIVAL, context=FESTIVAL["context"].format(kind="biennial"))
    with pytest.raises(NotApplicable, match="period"):
        _run(row, tx.CONTRADICTION, tx.HIGH, "Mutual Exclusion Claim")
    row = dict(FESTIVAL, context=FESTIVAL["context"].format(kind="West African"))
    assert "by the end of 1998" in _run(row, tx.CONTRADICTION, tx.HIGH, "Mutual Exclusion Claim")["perturbed_context"]


MISSION = {
    "source_id": "mission",
    "query": "how many astronauts were on kairos 3",
    "answers": ["four astronauts", "four"],
    "title": "Kairos 3",
    "context": "Kairos 3 was a private crewed spaceflight launched from Florida in May 2025. The mission carried four "
    "astronauts{parts}. The crew spent nine days in low Earth orbit.",
}
RIVALS = [
    {"source_id": f"r{k}", "query": "how many astronauts flew", "answers": [v], "context": f"It carried {v}."}
    for k, v in enumerate(["five astronauts", "six astronauts", "seven astronauts"])
]


def test_a_count_clash_declines_where_the_parts_follow_the_count():
    # R038: "five astronauts, a commander ... and three paying participants" adds up to four
    parts = ", a commander employed by the operating company and three paying participants"
    row = dict(MISSION, context=MISSION["context"].format(parts=parts))
    with pytest.raises(NotApplicable, match="parts"):
        _run(row, tx.CONTRADICTION, tx.MEDIUM, "Equal-standing Value Clash", RIVALS)
    row = dict(MISSION, context=MISSION["context"].format(parts=" from three countries"))
    out = _run(row, tx.CONTRADICTION, tx.MEDIUM, "Equal-standing Value Clash", RIVALS)["perturbed_context"]
    assert out.count("astronauts from three countries") == 2


CHARTER = {
    "source_id": "charter",
    "query": "what language is the foral of vilarinho da serra written in",
    "answers": ["Galician-Portuguese"],
    "title": "Foral of Vilarinho da Serra",
    "context": "The Foral of Vilarinho da Serra is a municipal charter granted to the settlers of a village in "
    "northern Portugal. {sentence} It set out the settlers' obligations of rent and military service.",
}


def test_the_purge_keeps_no_opening_phrase_without_its_main_clause():
    # R010: "Unlike most Portuguese forais of the period." was left of "..., which were written in Latin, it was
    # drafted in Galician-Portuguese, ..."
    sentence = (
        "Unlike most Portuguese charters of the period, which were written in Latin, it was drafted in "
        "Galician-Portuguese."
    )
    row = dict(CHARTER, context=CHARTER["context"].format(sentence=sentence))
    try:
        out = _run(row, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")["perturbed_context"]
    except NotApplicable:
        return
    assert "of the period." not in out
