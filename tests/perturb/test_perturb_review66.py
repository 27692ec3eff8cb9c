"""Sixty-sixth blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

from refusalbench import taxonomy as tx
from tests.perturb.test_contradiction_gates import added
from tests.perturb.test_perturb_review14 import _generate as _run
from tests.perturb.test_perturb_review14 import _row


def test_a_rounded_figure_is_written_to_the_precision_it_was_rounded_to():
    # R047: "Another source rounds the figure, stating that its main approach channel is dredged to 17.0 metres"
    rivals = [_row("how deep is port 9", ["9 metres"], "Port 9 is 9 metres deep.", "p9")]
    row = _row(
        "how deep is the port of hestnes",
        ["16.5 metres"],
        "The Port of Hestnes is a deep-water port in Norway, opened in 1978. Its main approach channel is dredged to "
        "16.5 metres. The port was extended in 2004.",
    )
    statement = added(row, _run(row, tx.CONTRADICTION, tx.LOW, "Minor Numeric Rounding", rivals))
    assert "dredged to 17 metres." in statement
