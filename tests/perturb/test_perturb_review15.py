"""Gates added after the fifteenth blind review (unseen MissingInfo HIGH items after the fourteenth review's gates):
a sentence kept right after a cut may not point back with "the same" / "the remaining" or add with "also" to what
went, and no deletion is made for questions that ask for a meaning or the parts of something. Each declines a
hand-made bad item and still edits a good one."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_perturb_review14 import _generate, _row

OPENING = '"Harbour Lights" is a song by the rock duo the Night Owls, from their second album.'
LEAD = "It came out in March 2003."
CLOSING = "The duo recorded the song in a small studio in Detroit over two days with a borrowed drum kit."


@pytest.mark.parametrize(
    "after",
    [
        "It also became the third best-performing song of the decade on the alternative charts.",
        "The song became the third best-performing song of the decade on the same chart.",
        "Sales of the remaining singles from the album were lower than the duo had hoped.",
    ],
)
def test_purge_declines_when_the_next_sentence_points_back_or_adds_with_also(after):
    row = _row("what year did harbour lights by the night owls come out", ["2003", "March 2003"], "")
    row["context"] = f"{OPENING} {LEAD} {after} {CLOSING}"
    with pytest.raises(NotApplicable):
        _generate(row, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")


def test_purge_still_applies_when_the_next_sentence_stands_alone():
    row = _row("what year did harbour lights by the night owls come out", ["2003", "March 2003"], "")
    row["context"] = f"{OPENING} {LEAD} {CLOSING} Critics praised its simple riff and loud chorus."
    assert "2003" not in _generate(row, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")["perturbed_context"]


NERVES = (
    "The outer nervous system connects the brain to the limbs and organs. It is divided into the reflex system "
    "and the glandular system. Nerves of the outer system are easily damaged because they lack bony protection. "
    "Damage to them can be repaired in part, unlike damage to the brain."
)


@pytest.mark.parametrize(
    "query",
    ["what parts make up the outer nervous system", "the outer nervous system in old texts is called which means"],
)
def test_purge_declines_questions_for_parts_or_meaning(query):
    row = _row(query, ["reflex system", "glandular system"], NERVES)
    with pytest.raises(NotApplicable, match="description"):
        _generate(row, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")
