"""Sixty-seventh blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_perturb_review14 import _generate as _run
from tests.perturb.test_perturb_review14 import _row

LIGHTHOUSE = (
    "Capo Grecale Lighthouse is an active lighthouse on the island of Sant'Antioco, Sardinia, Italy. {s} The white "
    "masonry tower rises 22 metres above the sea."
)


def test_mutual_exclusion_declines_a_first_predicate_with_an_irregular_participle():
    # R087: "It was built by the Kingdom of Sardinia and first lit on 1 March 1858, not in 1859."
    row = _row(
        "when was capo grecale lighthouse built",
        ["1 March 1859", "1859"],
        LIGHTHOUSE.format(s="It was built by the Kingdom of Sardinia and first lit on 1 March 1859."),
    )
    with pytest.raises(NotApplicable, match="another fact before the date"):
        _run(row, tx.CONTRADICTION, tx.HIGH, "Mutual Exclusion Claim")


def test_mutual_exclusion_declines_a_phrase_that_opens_the_answer_sentence():
    # R034: "Hit by the Argentine economic crisis, the airline ceased operations in October 1998, and not in 2001."
    row = _row(
        "when did aerolineas pampeanas cease operations",
        ["October 2001", "2001"],
        "Aerolíneas Pampeanas was an Argentine regional airline based in Córdoba, founded in 1987. Hit by the "
        "Argentine economic crisis, the airline ceased operations in October 2001. Its aircraft were sold to "
        "operators in Paraguay.",
    )
    with pytest.raises(NotApplicable, match="opens the answer sentence"):
        _run(row, tx.CONTRADICTION, tx.HIGH, "Mutual Exclusion Claim")


def test_mutual_exclusion_still_restates_a_plain_dated_sentence():
    row = _row(
        "when was capo grecale lighthouse first lit",
        ["1 March 1859", "1859"],
        LIGHTHOUSE.format(s="The lighthouse was first lit on 1 March 1859."),
    )
    out = _run(row, tx.CONTRADICTION, tx.HIGH, "Mutual Exclusion Claim")["perturbed_context"]
    assert "by the end of 1859" in out


def test_the_temporal_cut_declines_to_leave_a_bare_irregular_participle():
    # R013: "It was first broadcast and aired every Wednesday and Thursday"
    row = _row(
        "when did moonlit pharmacy first air",
        ["3 May 2017", "2017"],
        "Moonlit Pharmacy is a South Korean television drama starring Kim Da-eun and Baek Seung-ho. It was first "
        "broadcast on 3 May 2017 and aired every Wednesday and Thursday on KBS2 for 16 episodes.",
    )
    with pytest.raises(NotApplicable):
        _run(row, tx.MISSING_INFO, tx.MEDIUM, "Missing Temporal Adjunct")
