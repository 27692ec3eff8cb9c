"""Gates added after the seventh blind review: an opening clause is cut only when it carries information."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic
from refusalbench.perturb.levers_missing_low import informative

SOURCE = {
    "source_id": "s7",
    "query": "who sang the song holiday road",
    "answers": ["Lindsey Buckingham"],
    "context": "Holiday Road is a 1983 song by Lindsey Buckingham. It was written for the film National Lampoon's "
    "Vacation and released as a single that year. The song reached the charts in several countries.",
}


@pytest.mark.parametrize(
    "clause, carries_information",
    [
        ("In addition, ", False),
        ("At the same time, ", False),
        ("On the other hand, ", False),
        ("Meanwhile, ", False),
        ("In 1990, ", True),
        ("During the war, ", True),
        ("After the release of the album, ", True),
    ],
)
def test_opening_clause_is_cut_only_when_it_carries_information(clause, carries_information):
    assert informative(clause) is carries_information


def test_intro_clause_removal_declines_a_bare_connective():
    row = dict(SOURCE, context=SOURCE["context"] + " In addition, the band toured Europe with the song that summer.")
    with pytest.raises(NotApplicable):
        generate_programmatic(
            row, tx.MISSING_INFO, tx.LOW, 0, DistractorPool.from_base([row]), lever="Intro Clause Removal"
        )
