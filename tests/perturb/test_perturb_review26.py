"""Gates added after the twenty-sixth blind review (items made from fresh source items no one had seen): the
answer-token purge declines where a kept sentence points back to the time a cut sentence gave, where the answer
stands only in a cut sentence's opening phrase, and where a kept participle sentence goes on with "the <noun>" of a
lead that went; a redacted price reads "an unspecified cost" (it read "an undisclosed cost" then) and is not
redacted after "reportedly" or "about". Each declines a hand-made bad item and still edits a good one."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_perturb_review14 import _generate, _row

PURGE = "Answer Token Purge"
TREATY = (
    "The Treaty of Vellmar was an agreement that ended the border war between the duchies of Arnsholt and Velden. "
    "It was signed on 4 May 1702 near Kassel. Under its terms "
    "Arnsholt kept the river villages, while Velden received a payment in silver. {last}"
)


@pytest.mark.parametrize(
    "last, declines",
    [
        ("The treaty was ratified by the imperial diet later the same year.", True),
        ("The treaty was ratified by the imperial diet at Regensburg.", False),
    ],
)
def test_purge_declines_when_a_kept_sentence_points_back_to_the_cut_date(last, declines):
    row = _row("when was the treaty of vellmar signed", ["4 May 1702"], TREATY.format(last=last))
    if declines:
        with pytest.raises(NotApplicable, match="points back to a time"):
            _generate(row, tx.MISSING_INFO, tx.HIGH, PURGE)
    else:
        assert "1702" not in _generate(row, tx.MISSING_INFO, tx.HIGH, PURGE)["perturbed_context"]


def test_a_storys_next_day_after_a_cut_that_dated_nothing_does_not_decline():
    context = (
        "The travellers leave the harbour before dawn and cross the bay in a borrowed boat. During the crossing a "
        "storm drowns the guide Tomas Brandt and sinks the supplies. The boat drifts east through the night with a "
        "torn sail. The next day the boat reaches the island, where an old lighthouse keeper offers shelter until "
        "the weather turns."
    )
    row = _row("who drowns during the crossing in the bay", ["Tomas Brandt"], context)
    assert "Brandt" not in _generate(row, tx.MISSING_INFO, tx.HIGH, PURGE)["perturbed_context"]


def test_purge_declines_an_answer_only_in_an_opening_phrase_whose_main_clause_holds_other_facts():
    context = (
        "Marrow Vale Football Club is an English football club based in Marrow Vale, Cumbria. Nicknamed the "
        "Kestrels, the club was founded in 1891 and plays its home matches at Mill Lane, which holds 3,200. The club "
        "competes in the Northern League and reached the second round of the FA Cup in 1966."
    )
    row = _row("what is the nickname of marrow vale fc", ["the Kestrels", "Kestrels"], context)
    with pytest.raises(NotApplicable, match="opening phrase"):
        _generate(row, tx.MISSING_INFO, tx.HIGH, PURGE)


def test_purge_declines_a_cut_lead_whose_next_sentence_says_the_album():
    context = (
        "Quiet Pylons is the third studio album by the English rock band Harwick, released on 9 June 1999 by Lantern "
        "Records. Recorded over five weeks at a studio in Leeds, the album was produced by Ian Marsh and featured two "
        "singles. It entered the national chart at number eight and was certified gold within a year."
    )
    row = _row("when did quiet pylons come out", ["9 June 1999"], context)
    with pytest.raises(NotApplicable, match="refers back"):
        _generate(row, tx.MISSING_INFO, tx.HIGH, PURGE)


BRIDGE = (
    "The Farrow Bridge is a suspension bridge over the Wye between two market towns. It was completed in 1931 {cost}. "
    "The main span is 230 metres long, and tolls were lifted in 1960."
)


def test_a_redacted_cost_reads_as_an_unspecified_cost():
    row = _row("how much did the farrow bridge cost", ["$2.1 million"], BRIDGE.format(cost="at a cost of $2.1 million"))
    out = _generate(row, tx.MISSING_INFO, tx.MEDIUM, "Price Redacted")
    assert "completed in 1931 at an unspecified cost." in out["perturbed_context"]


@pytest.mark.parametrize("hedge", ["at a reported cost of", "at an estimated cost of", "at a cost of about"])
def test_a_hedged_amount_is_not_redacted(hedge):
    row = _row("how much did the farrow bridge cost", ["$2.1 million"], BRIDGE.format(cost=f"{hedge} $2.1 million"))
    with pytest.raises(NotApplicable, match="hedged"):
        _generate(row, tx.MISSING_INFO, tx.MEDIUM, "Price Redacted")
