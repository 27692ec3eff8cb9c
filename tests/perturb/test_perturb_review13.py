"""Gates added after the thirteenth blind review (MissingInfo LOW): a bracket that limits its statement or names the
query's place as an adjective stays, and a sentence stays when a kept sentence after it points back to what it named
("the graft"). Each declines a hand-made bad item and still edits a good one."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_perturb_review11 import ANSWER, _generate, _low, deletion_keeps


@pytest.mark.parametrize("aside", ["(except Canada and Florida)", "(excluding the islands)", "(but not its capital)"])
def test_bracket_that_limits_the_statement_stays(aside):
    context = f"{ANSWER} The treaty gave the new nation the land east of the river {aside} in the same year."
    with pytest.raises(NotApplicable):
        _low(context, "Parenthetical Excise", seeds=[0])


def test_bracket_that_only_adds_a_detail_still_goes():
    aside = "(then a small market town)"
    context = f"{ANSWER} The treaty was signed at Ghent {aside} in the same year as the song came out."
    assert aside not in _low(context, "Parenthetical Excise", seeds=[0])[0]


def test_sentence_deletion_keeps_what_a_later_noun_phrase_points_back_to():
    grafting = "Each technique involves bone grafting from the patient or a donor to help the bones heal."
    context = (
        f"{ANSWER} {grafting} Additional hardware is often used to hold the bones in place while the graft sets. "
        "The single sold well in Canada and in Australia."
    )
    deletion_keeps(grafting, context, goes="The single sold well")


def test_bracket_naming_the_query_place_as_an_adjective_stays():
    row = {
        "source_id": "fd",
        "query": "what is a fancy dress party called in the uk",
        "answers": ["costume party"],
        "context": (
            "A costume party is called a fancy dress party (British English) by most hosts. Such parties (often "
            "held at weekends) ask every guest to come dressed as a character from a film, a book or history."
        ),
    }
    texts = {
        _generate(dict(row, source_id=f"fd{seed}"), tx.LOW, "Parenthetical Excise")["perturbed_context"]
        for seed in range(6)
    }
    assert all("(British English)" in text for text in texts)
    assert any("(often held at weekends)" not in text for text in texts)  # the other bracket still goes
