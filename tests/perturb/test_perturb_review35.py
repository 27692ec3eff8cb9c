"""Gates after the thirty-fifth blind review (a ninth fresh set, every cell the generator filled): an equal-standing
count clash declines where the answer sentence splits the count into parts with no noun of their own, and a
redacted price declines where the words after it rank or measure the amount."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_perturb_review14 import _generate, _row

COURT = (
    "The Constitutional Tribunal of Varnau was a special court of the Duchy of Varnau established under the "
    "constitution of 1819. It consisted of seven judges{parts}. The tribunal was abolished when the duchy was annexed "
    "by Prussia in 1866."
)


def test_a_count_clash_declines_where_the_parts_add_up_to_the_count():
    parts = ", three appointed by the duke, three elected by the diet and a president chosen by the other six"
    row = _row("how many judges sat on the varnau constitutional tribunal", ["seven judges"], COURT.format(parts=parts))
    with pytest.raises(NotApplicable, match="splits the count into parts"):
        _generate(row, tx.CONTRADICTION, tx.MEDIUM, "Equal-standing Value Clash")


def test_counts_of_other_things_do_not_stop_the_clash():
    parts = ", elected every four years from five districts"
    row = _row("how many judges sat on the varnau constitutional tribunal", ["seven judges"], COURT.format(parts=parts))
    new = _generate(row, tx.CONTRADICTION, tx.MEDIUM, "Equal-standing Value Clash")["perturbed_context"]
    assert "equal" in new.lower() or "reliable" in new.lower()


GUITAR = (
    "Blue Moth is an electric guitar that belonged to the rock guitarist Johnny Varela. After his death, the guitar "
    "was sold at auction in New York in June 2019 for $3.1 million{after}. Its buyer has since loaned it to a museum."
)


@pytest.mark.parametrize(
    "after",
    [", at the time one of the highest prices ever paid for a guitar", ", around 40 percent over its estimate"],
)
def test_a_price_ranked_or_measured_after_it_is_not_redacted(after):
    row = _row("how much did the blue moth guitar sell for", ["$3.1 million"], GUITAR.format(after=after))
    with pytest.raises(NotApplicable, match="described after it"):
        _generate(row, tx.MISSING_INFO, tx.MEDIUM, "Price Redacted")


def test_a_price_followed_by_other_facts_is_redacted():
    row = _row("how much did the blue moth guitar sell for", ["$3.1 million"], GUITAR.format(after=", to a collector"))
    new = _generate(row, tx.MISSING_INFO, tx.MEDIUM, "Price Redacted")["perturbed_context"]
    assert "for an unspecified amount, to a collector" in new
