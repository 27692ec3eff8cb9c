"""Sixty-ninth blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_perturb_review14 import _generate as _run
from tests.perturb.test_perturb_review14 import _row


def test_the_temporal_cut_declines_a_date_named_in_apposition():
    # R073: "by the provincial government, International Mother Language Day."
    row = _row(
        "when did teshmi become an official language",
        ["21 February 2014", "2014"],
        "Teshmi is a Dardic language spoken in northern Pakistan. It was granted the status of an official regional "
        "language by the provincial government on 21 February 2014, International Mother Language Day. Teshmi has "
        "an estimated 18,000 speakers.",
    )
    with pytest.raises(NotApplicable):
        _run(row, tx.MISSING_INFO, tx.MEDIUM, "Missing Temporal Adjunct")
