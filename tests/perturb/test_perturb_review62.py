"""Sixty-second blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb.levers_premise_living import role_noun
from tests.perturb.test_perturb_review14 import _generate as _run
from tests.perturb.test_perturb_review14 import _row


def test_the_role_asked_about_takes_no_article_from_the_lead():
    # R096: "What kept Lieve Vandenbroucke from ever becoming a the medical director?"
    assert (
        role_noun("Belgian cardiac surgeon and the medical director of Sint-Aldegondis Hospital") == "medical director"
    )


NOVEL = dict(
    title="The Stone Gardener",
    **_row(
        "when was the stone gardener published",
        ["1987"],
        "The Stone Gardener is a novel by English writer Philippa Hawes, published in 1987 by Marlowe & Finch. Set in "
        "a Cotswold village, it follows a widowed mason who restores a ruined chapel. It won a regional fiction prize.",
    ),
)
RIVALS = [
    _row(f"when was the other book {y} published", [str(y)], f"The other book was published in {y}.", f"p{y}")
    for y in (1984, 1985, 1989, 1990)
]


def test_a_rival_source_restates_the_dated_predicate_not_the_whole_lead():
    # R007, R055: "claims that The Stone Gardener is a novel by English writer Philippa Hawes, published in 1989 by
    # Marlowe & Finch" repeated the lead
    for intensity, lever in ((tx.LOW, "Fringe vs. Official Source"), (tx.MEDIUM, "Dual-authoritative Dates")):
        out = _run(NOVEL, tx.CONTRADICTION, intensity, lever, RIVALS)["perturbed_context"]
        added = out.replace(NOVEL["context"].split(" Set in")[0], "", 1)
        assert re.search(r"that The Stone Gardener was published in \d{4} by Marlowe & Finch\.", added)
        assert "English writer" not in added
