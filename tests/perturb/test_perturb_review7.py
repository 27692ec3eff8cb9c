"""Gates added after the seventh blind review: the unrelated passage must open as a lead sentence, and an
opening clause is cut only when it carries information. Each declines a hand-made bad item and accepts a good
one."""

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
OTHER_TEXT = (
    "during its long voyage across the southern ocean, and did not want the crew to rest at the harbour. "
    "The ship then sailed north along the coast for many weeks. Its captain kept a detailed log of every storm "
    "and every island seen. The log survives in a naval archive today and is often studied by historians."
)
LEAD_TEXT = (
    "Alderton is a small market town on the river Alde in eastern England. Its stone bridge was finished in 1821 "
    "after four years of work by local masons. Carts crossed it for a century before a wider bridge was built "
    "downstream, and walkers still use it on summer evenings."
)


def _irrelevant(other_text: str, answer: str):
    other = {"source_id": "o7", "query": "where is the old log kept", "answers": [answer], "context": other_text}
    pool = DistractorPool.from_base([SOURCE, other])
    return generate_programmatic(SOURCE, tx.MISSING_INFO, tx.HIGH, 0, pool, lever="Entirely Irrelevant Context")


def test_unrelated_passage_must_open_as_a_lead_sentence():
    # the chunk opens on the tail of a cut sentence that happens to start with a capital after trimming
    with pytest.raises(NotApplicable):
        _irrelevant("Wars and the voyage went on, " + OTHER_TEXT, "a naval archive")


def test_unrelated_passage_with_a_lead_opening_is_used():
    out = _irrelevant(LEAD_TEXT, "the river Alde")
    assert out["perturbed_context"].startswith("Alderton is a small market town")


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
