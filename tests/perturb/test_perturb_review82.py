"""Eighty-second blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from refusalbench.perturb.purge_cuts import kept_second_predicate
from tests.perturb.test_perturb_review14 import _generate, _row


def test_the_purge_keeps_no_second_predicate_whose_its_pointed_into_the_cut():
    # R056: "It was released as its lead single in April 1989" once "is the opening track on their album" went
    def names(s: str) -> bool:
        return "Prairie Fire" in s

    pointing = "It is the opening track on their album Prairie Fire and was released as its lead single in April 1989."
    assert kept_second_predicate(pointing, names) is None
    plain = "It premiered on Prairie Fire radio in 2020 and consists of eight long episodes."
    assert kept_second_predicate(plain, names) == "It consists of eight long episodes."
    # "its" after a thing of the kept predicate's own points to that thing: "the Parana River and its islands"
    own = "It opened on Prairie Fire day in 2019 and has a platform overlooking the river and its islands."
    assert kept_second_predicate(own, names) == "It has a platform overlooking the river and its islands."


LIGHTHOUSE = (
    "Carn Dubh Lighthouse is an active lighthouse on a rocky islet off the coast of the Isle of Lewis, Scotland. "
    "The 38-metre granite tower was designed by the civil engineer Archibald Rattray and first lit in 1868."
)


def test_the_inanimate_agent_does_not_quote_a_buildings_name():
    # R085: 'Which grain of sand designed "Carn Dubh Lighthouse"?'
    row = _row("who designed carn dubh lighthouse", ["Archibald Rattray"], LIGHTHOUSE)
    row["title"] = "Carn Dubh Lighthouse"
    query = _generate(row, tx.FALSE_PREMISE, tx.HIGH, "Inanimate Agent Verb")["perturbed_query"]
    assert query.endswith(" designed Carn Dubh Lighthouse?")


SONG = (
    '"Janela do Mar" is a 1974 Brazilian {genre} song by the singer Clarice Monteiro. It was released in 1974 on '
    "her album Mare Alta."
)


def test_popular_music_is_a_genre_not_a_label_to_ask_about():
    # R100: 'Was "Janela do Mar" a popular music song, and when did it come out?'
    row = _row("when did janela do mar come out", ["1974"], SONG.format(genre="popular music"))
    row["title"] = "Janela do Mar"
    with pytest.raises(NotApplicable):
        _generate(row, tx.EPISTEMIC, tx.LOW, "Minor vs Major (Definitional)")
    row["context"] = SONG.format(genre="popular")
    query = _generate(row, tx.EPISTEMIC, tx.LOW, "Minor vs Major (Definitional)")["perturbed_query"]
    assert query.startswith('Was "Janela do Mar" a popular song')
