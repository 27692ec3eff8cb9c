"""Sixty-fifth blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

from refusalbench import taxonomy as tx
from tests.perturb.test_contradiction_gates import added
from tests.perturb.test_perturb_review14 import _generate as _run
from tests.perturb.test_perturb_review14 import _row


def test_a_count_clash_does_not_stop_inside_the_list_its_noun_heads():
    # R091: "the tower has 31 floors of offices" of "54 floors of offices, apartments and a hotel" left 54 safe
    rivals = [
        _row(f"how many floors does tower {n} have", [str(n)], f"Tower {n} has {n} floors.", f"p{n}") for n in (31,)
    ]
    row = _row(
        "how many floors does torre aldana have",
        ["54 floors", "54"],
        "Torre Aldana is a mixed-use skyscraper in Mexico City, Mexico. It was completed in 2015 and stands 236 metres "
        "tall. The tower has 54 floors of offices, apartments and a hotel, and its façade is fitted with angled fins. "
        "It was awarded a certification in 2016.",
    )
    statement = added(row, _run(row, tx.CONTRADICTION, tx.MEDIUM, "Equal-standing Value Clash", rivals))
    assert "floors of offices, apartments and a hotel." in statement
    assert "façade" not in statement
