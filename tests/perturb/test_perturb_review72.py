"""Seventy-second blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_perturb_review14 import _generate, _row

GEOGRAPHER = (
    "Kenji Moriyama (born 4 May 1948) is a Japanese physical geographer and professor emeritus at Hokkaido "
    "University. {he} the Japanese Karakoram Glacier Survey in 1986. The survey measured the velocity and "
    "thickness of several large glaciers in the Hunza basin. Moriyama later directed the university's Institute of "
    "Low Temperature Science."
)


def _denied(he: str) -> dict:
    row = _row("when did kenji moriyama lead the karakoram glacier survey", ["1986"], GEOGRAPHER.format(he=he))
    return _generate(row, tx.CONTRADICTION, tx.HIGH, "Mutual Exclusion Claim")


def test_mutual_exclusion_denies_no_year_of_what_a_person_is_known_for():
    # R020: "He is best known for leading the ... Survey in 1984, and not in 1986." repeats a description
    with pytest.raises(NotApplicable):
        _denied("He is best known for leading")
    assert "by the end of 1986" in _denied("He led")["perturbed_context"]
