"""Forty-fifth blind review: gates and a wording written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_perturb_review14 import _generate as _run

OPERA = {
    "source_id": "opera",
    "query": "when was le prince d'argile first performed",
    "answers": ["1903"],
    "title": "Le Prince d'argile",
    "context": "Le Prince d'argile is an opera in three acts by the Hungarian composer Bela Sarkozy. It was first "
    "performed in 1903. {next} Its score is held by a library in Paris.",
}


def test_the_purge_declines_where_a_kept_sentence_says_instead():
    # R001: "It premiered instead in Brussels" once the hope of a Paris production went
    row = dict(OPERA, context=OPERA["context"].format(next="Critics instead praised its orchestration."))
    with pytest.raises(NotApplicable, match="refers back"):
        _run(row, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")
    row = dict(OPERA, context=OPERA["context"].format(next="Critics praised its orchestration."))
    assert "1903" not in _run(row, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")["perturbed_context"]


LAGOON = {
    "source_id": "lagoon",
    "query": "how much did the pauli murtas restoration cost",
    "answers": ["€14.6 million"],
    "title": "Pauli Murtas",
    "context": "Pauli Murtas is a coastal lagoon in South Sardinia, Italy. It was returned to a natural water regime "
    "through a restoration project that cost €14.6 million{after}. The lagoon now hosts breeding flamingos.",
}


def test_a_price_after_which_the_sentence_goes_on_is_redacted():
    row = dict(LAGOON, context=LAGOON["context"].format(after=" in 2012"))
    assert (
        "an unspecified amount in 2012" in _run(row, tx.MISSING_INFO, tx.MEDIUM, "Price Redacted")["perturbed_context"]
    )


def test_a_price_that_qualifies_a_noun_is_not_redacted():
    # R003: "through a €14.6 million restoration project" read "through an undisclosed amount restoration project"
    context = (
        LAGOON["context"]
        .format(after="")
        .replace("a restoration project that cost €14.6 million", "a €14.6 million restoration project")
    )
    with pytest.raises(NotApplicable, match="qualifies a noun"):
        _run(dict(LAGOON, context=context), tx.MISSING_INFO, tx.MEDIUM, "Price Redacted")


BAND = {
    "source_id": "band",
    "query": "how many members does jangma have",
    "answers": ["five"],
    "title": "Jangma",
    "context": "Jangma is a South Korean rock band formed in Seoul. The band has five members. They won the grand "
    "prize at a televised band competition and released their debut album the following year.",
}


def test_a_count_clash_restates_a_plain_count():
    out = _run(BAND, tx.CONTRADICTION, tx.MEDIUM, "Equal-standing Value Clash")
    assert "the band has" in out["perturbed_context"] and "members." in out["perturbed_context"]


def test_a_count_clash_declines_a_sentence_that_lists_the_members_after_a_colon():
    # R067: "the band has eight members: vocalist Kim Do-hyun, ..." named the same five people
    context = BAND["context"].replace(
        "five members.", "five members: vocalist Kim Do-hyun, guitarist Park Jae-won, bassist Han Ji-ho and two more."
    )
    with pytest.raises(NotApplicable):
        _run(dict(BAND, context=context), tx.CONTRADICTION, tx.MEDIUM, "Equal-standing Value Clash")


def test_the_counterfactual_about_a_painting_names_the_art_of_painting():
    # R059, R080: "how would painting look today?" read as this painting
    row = {
        "source_id": "painting",
        "query": "who painted portrait of madame ostrovska",
        "answers": ["Leon Ravitch"],
        "title": "Portrait of Madame Ostrovska",
        "context": "Portrait of Madame Ostrovska is an 1896 oil painting by the French painter Leon Ravitch. It "
        "depicts the wife of a Kyiv sugar merchant, seated in a green velvet dress.",
    }
    query = _run(row, tx.EPISTEMIC, tx.HIGH, "Historical Counterfactual Chain")["perturbed_query"]
    assert "the art of painting" in query
