"""Sixty-fourth blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_contradiction_gates import added
from tests.perturb.test_perturb_review14 import _generate as _run
from tests.perturb.test_perturb_review14 import _row

FALLS = (
    "The Sellbachfall is a waterfall on the Sellbach, a tributary of the Reuss, in the canton of Uri, Switzerland. "
    "{when}, when the stream was diverted into the pressure pipeline of the Sellmatt power station, water has flowed "
    "over the falls only at weekends. The falls were a popular subject of 19th-century engravings."
)


@pytest.mark.parametrize("bound", ["Since", "From"])
def test_coarsening_declines_a_year_that_bounds_a_period(bound):
    # R017: "Since 1957, when the stream was diverted" became "Since the 20th century, when ..."
    row = _row("when was the sellbach waterfall diverted", ["1957"], FALLS.format(when=f"{bound} 1957"))
    with pytest.raises(NotApplicable, match="bounds a period"):
        _run(row, tx.GRANULARITY, tx.MEDIUM, "Answer Stated One Level Coarser")


def test_coarsening_still_restates_a_year_the_event_happened_in():
    row = _row(
        "when was the sellbach waterfall diverted",
        ["1957"],
        FALLS.format(when="In 1957").replace(", when the stream was diverted", " the stream was diverted"),
    )
    out = _run(row, tx.GRANULARITY, tx.MEDIUM, "Answer Stated One Level Coarser")["perturbed_context"]
    assert "1957" not in out


def test_a_rounded_figure_is_restated_without_the_first_predicate():
    # R001: "stating that the lake is known for its highly indented shoreline and contains 1,400 islands"
    rivals = [_row(f"how many islands in lake {n}", [str(n)], f"Lake {n} has {n} islands.", f"p{n}") for n in (9,)]
    row = _row(
        "how many islands in vaskijarvi lake",
        ["1,412"],
        "Vaskijärvi is a lake in the Southern Savonia region of Finland. With an area of 212 square kilometres it is "
        "among the largest lakes in the country. The lake is known for its highly indented shoreline and contains "
        "1,412 islands. Vaskijärvi is a popular destination for canoe touring.",
    )
    statement = added(row, _run(row, tx.CONTRADICTION, tx.LOW, "Minor Numeric Rounding", rivals))
    assert "the lake contains 1,400 islands" in statement
    assert "shoreline" not in statement
