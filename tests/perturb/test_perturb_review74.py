"""Seventy-fourth blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_perturb_review14 import _generate, _row


def test_the_inanimate_agent_keeps_no_title_the_passage_does_not_give():
    # the seventy-fourth review's R094: "Which mathematical theorem wrote the Book a Winter in Kharkov?"
    context = (
        "A Winter in Kharkiv (published in some editions as A Winter in Kharkov) is a 2013 novel by the British "
        "author Oleksandra Marchuk. The novel was a BBC Radio 4 Book at Bedtime selection in 2014."
    )
    row = _row("who wrote the book a winter in kharkov", ["Oleksandra Marchuk"], context)
    row["title"] = "A Winter in Kharkiv"
    with pytest.raises(NotApplicable):
        _generate(row, tx.FALSE_PREMISE, tx.HIGH, "Inanimate Agent Verb")
    row["query"] = "who wrote the book a winter in kharkiv"
    assert (
        '"A Winter in Kharkiv"' in _generate(row, tx.FALSE_PREMISE, tx.HIGH, "Inanimate Agent Verb")["perturbed_query"]
    )
