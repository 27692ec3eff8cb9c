"""Fifty-second blind review: a gate written from an item not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench.perturb.missing_gates import holds_reference_word


@pytest.mark.parametrize(
    "sentence, points_back",
    [
        ("Leo Marsh became the third in the 2016 season.", True),
        ("Leo Marsh was the third, after Bell and Roth.", True),
        ("Leo Marsh later won the third title of the cup.", False),
        ("The club was founded during the Second World War.", False),
        ("Marsh is the second most common surname in the region.", False),
    ],
)
def test_an_ordinal_with_no_noun_points_back(sentence, points_back):
    # R005: "LeBron James became the third in the 2016-17 season." once "... became just the second player" went
    assert holds_reference_word(sentence) == points_back
