"""Gates added after the twenty-seventh blind review (a second set of fresh source items): the answer-token purge
declines where the cut takes an article's lead and nothing left names its subject, or where a kept sentence still
names the answer's own word as "the <word>"; a redacted price is not described as "a figure" after it; a street
in another language places a building finer than its town. Each declines a hand-made bad item and still edits a
good one."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic
from tests.perturb.test_perturb_review14 import _generate, _row

PURGE = "Answer Token Purge"
GAME = (
    "Rook Parliament is a collectible card game created by the designer Amara Quist and first released by Lantern "
    "Games of Bristol. Players lead rival flocks of rooks competing for favour at a mythical court, using "
    "cards that stand for rumours, trinkets and alliances. The game peaked in the late 2000s, when its national "
    "championship drew more than 900 players{tail}."
)


def test_purge_declines_a_cut_lead_when_nothing_left_names_the_subject():
    row = _row("who created rook parliament card game", ["Amara Quist"], GAME.format(tail=""))
    with pytest.raises(NotApplicable, match="lead sentence"):
        _generate(row, tx.MISSING_INFO, tx.HIGH, PURGE)


def test_purge_keeps_cutting_a_lead_whose_subject_is_named_later_or_is_the_answer():
    named = _row(
        "who created rook parliament card game",
        ["Amara Quist"],
        GAME.format(tail=", and Rook Parliament returned in a digital edition in 2020"),
    )
    assert "Quist" not in _generate(named, tx.MISSING_INFO, tx.HIGH, PURGE)["perturbed_context"]
    title = _row("whats the card game with rooks at a mythical court", ["Rook Parliament"], GAME.format(tail=""))
    assert "Rook Parliament" not in _generate(title, tx.MISSING_INFO, tx.HIGH, PURGE)["perturbed_context"]


DERBY = (
    "The Estuary Derby is a rugby league rivalry between two clubs on opposite banks of the Humber. First contested "
    "in 1899, the fixture is played twice each season. Since the Second World War the club with the higher "
    "aggregate score has received the Marsh-Whitley Cup, a silver trophy given by local families. {last}"
)


@pytest.mark.parametrize(
    "last, declines",
    [
        ("By 2020 each club had won the cup more than 30 times.", True),
        ("By 2020 each club had won the trophy more than 30 times.", False),
    ],
)
def test_purge_declines_when_a_kept_sentence_still_names_the_answers_word(last, declines):
    row = _row("what is the trophy for the estuary derby called", ["the Marsh-Whitley Cup"], DERBY.format(last=last))
    if declines:
        with pytest.raises(NotApplicable, match="answer's kind"):
            _generate(row, tx.MISSING_INFO, tx.HIGH, PURGE)
    else:
        assert "Marsh-Whitley" not in _generate(row, tx.MISSING_INFO, tx.HIGH, PURGE)["perturbed_context"]


RAILWAY = (
    "The Fenmoor Railway was a line in Norfolk built to carry grain to the coast. It was completed in 1891 at a cost "
    "of £310,000{after}. The line closed in 1959."
)


def test_a_price_described_as_a_figure_is_not_redacted():
    row = _row(
        "how much did the fenmoor railway cost", ["£310,000"], RAILWAY.format(after=", a high figure for its length")
    )
    with pytest.raises(NotApplicable, match="described after it"):
        _generate(row, tx.MISSING_INFO, tx.MEDIUM, "Price Redacted")
    plain = _row("how much did the fenmoor railway cost", ["£310,000"], RAILWAY.format(after=", a record for Norfolk"))
    assert "unspecified" in _generate(plain, tx.MISSING_INFO, tx.MEDIUM, "Price Redacted")["perturbed_context"]


def test_a_street_in_another_language_places_the_building_finer_than_its_town():
    context = (
        "The Hotel Miramar Palace is a historic hotel in Porto Velho, Brazil, standing on the Rua Direita by the "
        "river port. It was built in 1912 and reopened in 2001 with 60 rooms."
    )
    row = {
        "source_id": "p",
        "query": "where is the hotel miramar palace located",
        "answers": ["Porto Velho"],
        "title": "Hotel Miramar Palace",
        "context": context,
    }
    with pytest.raises(NotApplicable, match="finer than a town"):
        generate_programmatic(
            row, tx.GRANULARITY, tx.MEDIUM, 0, DistractorPool.from_base([row]), lever="Part-of-part Detail"
        )
