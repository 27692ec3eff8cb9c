"""Fifty-seventh blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_perturb_review14 import _generate as _run

LIGHTHOUSE = {
    "source_id": "lighthouse",
    "query": "when did rathbeg point lighthouse open",
    "answers": ["1 December 1856", "1856"],
    "title": "Rathbeg Point Lighthouse",
    "context": "Rathbeg Point Lighthouse is an active lighthouse on the north-west coast of County Donegal, Ireland. "
    "{sentence} It was converted to electric operation in 1958.",
}


def test_the_date_clash_declines_where_an_aside_comes_before_the_date():
    # R035: "The tower, 23 metres high and built of local granite, was first lit on 1 December 1858, not in 1856."
    aside = "The tower, 23 metres high and built of local granite, was first lit on 1 December 1856."
    with pytest.raises(NotApplicable, match="aside"):
        _run(
            dict(LIGHTHOUSE, context=LIGHTHOUSE["context"].format(sentence=aside)),
            tx.CONTRADICTION,
            tx.HIGH,
            "Mutual Exclusion Claim",
        )
    plain = "The tower was first lit on 1 December 1856."
    out = _run(
        dict(LIGHTHOUSE, context=LIGHTHOUSE["context"].format(sentence=plain)),
        tx.CONTRADICTION,
        tx.HIGH,
        "Mutual Exclusion Claim",
    )["perturbed_context"]
    assert "by the end of 1856." in out


SINGER = {
    "source_id": "singer",
    "query": "who discovered amara owusu",
    "answers": ["Kojo Mensah-Bonsu"],
    "title": "Amara Owusu",
    "context": "{lead} is a Ghanaian highlife singer from Kumasi. She was discovered by the producer Kojo Mensah-Bonsu "
    "while singing in a church choir in 2010.",
}


def test_the_inanimate_agent_does_not_quote_a_person_s_name_as_a_title():
    # R042: 'Which mathematical theorem discovered "Amara Osei"?' quoted a singer's name as if it were a title
    person = dict(SINGER, context=SINGER["context"].format(lead="Amara Owusu (born 5 May 1992)"))
    with pytest.raises(NotApplicable):  # the name stands only at the sentence start: its capitals are unknown
        _run(person, tx.FALSE_PREMISE, tx.HIGH, "Inanimate Agent Verb")
    person["context"] += " Her debut album made Amara Owusu a household name."
    query = _run(person, tx.FALSE_PREMISE, tx.HIGH, "Inanimate Agent Verb")["perturbed_query"]
    assert query.endswith(" discovered Amara Owusu?")
    work = dict(SINGER, context=SINGER["context"].format(lead="Amara Owusu").replace("She was", "It was"))
    assert _run(work, tx.FALSE_PREMISE, tx.HIGH, "Inanimate Agent Verb")["perturbed_query"].endswith(
        ' discovered "Amara Owusu"?'
    )


def test_a_redacted_price_after_a_modifier_reads_as_an_unspecified_price():
    # R062: "at a launch price of an unspecified amount for the 32 GB model"
    row = {
        "source_id": "phone",
        "query": "how much did the kaleva one phone cost",
        "answers": ["€349"],
        "title": "Kaleva One",
        "context": "The Kaleva One is a smartphone made by the Finnish company Kaleva Mobile. It went on sale in March "
        "2016 at a launch price of €349 for the 32 GB model. The phone was noted for its replaceable battery.",
    }
    out = _run(row, tx.MISSING_INFO, tx.MEDIUM, "Price Redacted")["perturbed_context"]
    assert "at an unspecified launch price for the 32 GB model" in out


def test_the_date_clash_keeps_a_list_of_places_before_the_date():
    # the forty-third review's R046, judged valid: the places are the event's own, not an aside
    sentence = "The first lights were shown in Malin Head, Donegal and Fanad Head, Donegal in 1856."
    row = dict(LIGHTHOUSE, context=LIGHTHOUSE["context"].format(sentence=sentence))
    out = _run(row, tx.CONTRADICTION, tx.HIGH, "Mutual Exclusion Claim")["perturbed_context"]
    assert "by the end of 1856." in out
