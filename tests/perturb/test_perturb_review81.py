"""Eighty-first blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_perturb_review14 import _generate, _row

LEVER = "Answer Stated One Level Coarser"
AIRLINE = (
    "Kirra Air is a regional airline based in Mombasa, Kenya. It was founded in 1996 by the pilot Amina Wekesa and "
    "began flying {relative} with a single turboprop aircraft."
)


@pytest.mark.parametrize("relative", ["the following March", "the previous summer", "next spring"])
def test_coarsening_declines_a_season_or_month_counted_from_the_exact_date(relative):
    # K004: "founded in the 20th century ... and began flying the following March"; K017: "a premiere ... the
    # previous summer" before "released ... in the 2000s": the relative time has nothing left to count from
    row = _row("when was kirra air founded", ["1996"], AIRLINE.format(relative=relative))
    with pytest.raises(NotApplicable, match="refers back"):
        _generate(row, tx.GRANULARITY, tx.MEDIUM, LEVER)


def test_coarsening_still_applies_without_a_relative_time():
    row = _row("when was kirra air founded", ["1996"], AIRLINE.format(relative="from Moi International Airport"))
    out = _generate(row, tx.GRANULARITY, tx.MEDIUM, LEVER)
    assert "founded in the 20th century" in out["perturbed_context"]
