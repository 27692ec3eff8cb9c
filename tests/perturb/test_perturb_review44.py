"""Forty-fourth blind review: the purge took other facts with the answer, and a date restatement copied another fact."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_perturb_review14 import _generate as _run

PURGE = "Answer Token Purge"


FERRY = {
    "source_id": "ferry",
    "query": "which shipyard built the havbris ferries",
    "answers": ["Stocznia Oksywie"],
    "title": "Havbris ferries",
    "context": "The Havbris ferries are a class of electric car ferries on crossings of the Hardangerfjord in Norway. "
    "The vessels were built by the Polish shipyard Stocznia Oksywie in Gdynia and are powered by batteries charged "
    "at each terminal. Each ferry carries cars and foot passengers across the fjord.",
}
FILM = {
    "source_id": "film",
    "query": "which studio made the paper fox",
    "answers": ["Kestrel Animation"],
    "title": "The Paper Fox",
    "context": "The Paper Fox is a British stop-motion animated film directed by Imogen Wray. It was produced by "
    "Kestrel Animation, a studio based in Cardiff. The film follows a fox made of folded paper that comes to life "
    "in a toy shop at night.",
}


def test_the_purge_keeps_the_second_predicate_of_a_sentence_without_other_figures():
    new = _run(FERRY, tx.MISSING_INFO, tx.HIGH, PURGE)["perturbed_context"]
    assert "Oksywie" not in new and "The vessels are powered by batteries charged at each terminal." in new


def test_the_purge_declines_a_cut_part_that_holds_another_figure():
    # R014: "The vessels were built between 2018 and 2020 by the Polish shipyard ... and are powered by ...": the
    # build years went with the shipyard
    context = FERRY["context"].replace("were built by", "were built between 2018 and 2020 by")
    with pytest.raises(NotApplicable, match="another figure or clause"):
        _run(dict(FERRY, context=context), tx.MISSING_INFO, tx.HIGH, PURGE)


def test_the_purge_takes_a_sentence_of_one_clause():
    new = _run(FILM, tx.MISSING_INFO, tx.HIGH, PURGE)["perturbed_context"]
    assert "Kestrel" not in new and "Cardiff" not in new and "The film follows a fox" in new


@pytest.mark.parametrize(
    "extra",
    [
        ", and took almost four years to complete",  # R021: a second predicate, a figure in words
        ", and its animators later founded a school in Swansea",  # a second clause with a subject of its own
    ],
)
def test_the_purge_declines_a_whole_sentence_with_a_second_clause(extra):
    context = FILM["context"].replace("a studio based in Cardiff.", f"a studio based in Cardiff{extra}.")
    with pytest.raises(NotApplicable, match="another figure or clause"):
        _run(dict(FILM, context=context), tx.MISSING_INFO, tx.HIGH, PURGE)


OS = {
    "source_id": "os",
    "query": "when was kestrelos first released",
    "answers": ["3 August 2007", "2007"],
    "title": "KestrelOS",
    "context": "KestrelOS is a free operating system for embedded devices. It was first released on 3 August 2007. "
    "KestrelOS is distributed under the MIT licence.",
}


def test_the_mutual_exclusion_claim_restates_a_plain_event():
    new = _run(OS, tx.CONTRADICTION, tx.HIGH, "Mutual Exclusion Claim")["perturbed_context"]
    assert "by the end of 2007." in new


def test_the_mutual_exclusion_claim_declines_a_sentence_with_another_fact_before_the_date():
    # R020: "It was written by the Brazilian engineer Paulo Mendonca Vilar and first released on 3 August 2006, and
    # not in 2007." copied the authorship into the restatement
    context = OS["context"].replace(
        "It was first released", "It was written by the Brazilian engineer Paulo Vilar and first released"
    )
    with pytest.raises(NotApplicable):
        _run(dict(OS, context=context), tx.CONTRADICTION, tx.HIGH, "Mutual Exclusion Claim")
