"""Eighty-third blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench.perturb import NotApplicable
from refusalbench.perturb.levers_premise_living import role_noun
from refusalbench.perturb.not_yet import not_yet


def test_the_denial_declines_a_verb_whose_sense_is_in_what_follows():
    # R077: "Persistent industrial disputes and falling sales had still not led by the end of 1983."
    with pytest.raises(NotApplicable, match="needs the words after it"):
        not_yet(
            "Persistent industrial disputes and falling sales led to its closure in March 1983.", "March 1983", "1983"
        )
    assert not_yet("The factory closed in March 1983.", "March 1983", "1983") == (
        "The factory had not yet closed by the end of 1983."
    )


@pytest.mark.parametrize(
    "role, noun",
    [
        # R046: "Why did Marjatta Hyvönen never become a has been director?"
        ("Finnish zoologist who has been director of Kallioniemi Zoo since 2009", "director"),
        ("Senegalese zoologist who became director of the Dakar Institute in 2012", "director"),
        ("Nigerian climatologist who served as Director-General of the union", "Director-General"),
        ("Finnish former professional tennis player", "tennis player"),
    ],
)
def test_the_role_noun_stops_at_a_verb(role, noun):
    assert role_noun(role) == noun
