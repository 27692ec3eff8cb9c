"""Forty-second blind review: the answer-token purge kept a closing clause whose subject was "it"."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic

RELAY = {
    "source_id": "relay",
    "query": "when was the first rift valley relay",
    "answers": ["1988"],
    "title": "Rift Valley Relay",
    "context": "The Rift Valley Relay is an annual road running relay race held between Nakuru and Eldoret in Kenya. "
    "Teams of six runners cover a total distance of about 156 kilometres. The race was first held in 1988, and it "
    "has been won by a team from the Kenya Police every year.",
}


def _purge(context: str) -> str:
    row = dict(RELAY, context=context)
    out = generate_programmatic(
        row, tx.MISSING_INFO, tx.HIGH, 0, DistractorPool.from_base([row]), lever="Answer Token Purge"
    )
    return out["perturbed_context"]


def test_a_closing_clause_on_it_stays_with_the_subject_named_again():
    # R066 lost "since 2009 it has also included a separate women's division" with the answer's clause
    assert _purge(RELAY["context"]).endswith(
        "about 156 kilometres. The race has been won by a team from the Kenya Police every year."
    )


def test_a_kept_clause_that_offers_another_year_is_declined():
    context = RELAY["context"].replace(
        "it has been won by a team from the Kenya Police every year",
        "since 2009 it has also included a separate women's division",
    )
    with pytest.raises(NotApplicable):
        _purge(context)
