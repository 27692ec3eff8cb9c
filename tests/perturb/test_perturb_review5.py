"""MissingInfo gates added after the fifth blind review: each declines a hand-made bad item and keeps a good one."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic
from refusalbench.perturb.missing_gates import purgeable, refers_to_figure, rival_left

MI = tx.MISSING_INFO


def _lever(row, intensity, lever, pool_rows=()):
    return generate_programmatic(row, MI, intensity, 0, DistractorPool.from_base([row, *pool_rows]), lever=lever)


# -- Missing Temporal Adjunct: commas stay balanced ------------------------------------------------------------


@pytest.mark.parametrize(
    "context, expected",
    [
        # an adjunct set off by a pair of commas goes with both
        (
            "The comic series, in 2003, moved to a small press run by two brothers.",
            "The comic series moved to a small press run by two brothers.",
        ),
        # a full date's closing comma goes with it where the sentence flows on
        (
            "The comic series began on October 10, 2003, with a small press run by two brothers.",
            "The comic series began with a small press run by two brothers.",
        ),
    ],
)
def test_temporal_adjunct_keeps_commas_balanced(context, expected):
    row = {"source_id": "c1", "query": "when did the comic series come out", "answers": ["2003", "October 10, 2003"]}
    assert _lever(dict(row, context=context), tx.MEDIUM, "Missing Temporal Adjunct")["perturbed_context"] == expected


@pytest.mark.parametrize(
    "context",
    [
        "The comic series (in 2003, ) was published by a small press run by two brothers.",  # "( )"
        # "debuted, published by ...": a bare verb before the clause the year's comma opened
        "The comic series debuted in 2003, published by a small press, with art by a local painter.",
        "The comic series has won many prizes, the first being in 2003.",  # "the first being."
        "The comic series was published in 2003 and written by a painter from the coast.",  # a shared "by"
        "At about 8:20 p.m. on 25 September 2003, the comic series was sent to print.",  # a time left dateless
        "The comic series is a spin-off from the 2003 Marvel crossover event.",  # the year qualifies a noun
    ],
)
def test_temporal_adjunct_declines_punctuation_it_cannot_make_right(context):
    row = {"source_id": "c2", "query": "when did the comic series come out", "answers": ["2003", "25 September 2003"]}
    with pytest.raises(NotApplicable):
        _lever(dict(row, context=context), tx.MEDIUM, "Missing Temporal Adjunct")


# -- Strip Non-queried Statistic: nothing left refers back to the removed figure -------------------------------


@pytest.mark.parametrize(
    "sentence, refers",
    [
        ("Although the length of stays has since increased, the care is underused.", True),
        ("That figure doubled within a decade.", True),
        ("The increase was due to better referral.", True),
        ("It was up from the previous survey.", True),
        ("The following year the service expanded.", True),
        ("Scientists chose strays since they assumed such animals were hardy.", False),
        ("In 2004 the average stay was 57 days.", False),
    ],
)
def test_refers_to_figure(sentence, refers):
    assert refers_to_figure(sentence) is refers


_HOSPICE = (
    "Most patients are referred to hospice in the very end stages of their illness. "
    "The average stay in hospice was 26 days in 1994 and 19 days in 1998. "
    "Although the length of average stays has since increased, hospice care continues to be underused. "
    "In 2004 the average stay was 57 days and the median stay was 22 days."
)


def test_strip_statistic_declines_a_figure_referred_back_to():
    row = {"source_id": "s1", "query": "what is the average time in hospice care", "answers": ["57 days"]}
    with pytest.raises(NotApplicable):
        _lever(dict(row, context=_HOSPICE), tx.LOW, "Strip Non-queried Statistic")


def test_strip_statistic_keeps_a_figure_nothing_refers_back_to():
    context = _HOSPICE.replace("Although the length of average stays has since increased, h", "H")
    row = {"source_id": "s2", "query": "what is the average time in hospice care", "answers": ["57 days"]}
    out = _lever(dict(row, context=context), tx.LOW, "Strip Non-queried Statistic")
    assert "26 days" not in out["perturbed_context"] and "57 days" in out["perturbed_context"]


# -- Answer Token Purge: short factoid answers only; no back-reference to a cut sentence ------------------------


@pytest.mark.parametrize(
    "query, answers, atype, ok",
    [
        ("what is the job of justice of the peace", ["dispense summary justice"], "other", False),
        ("what does a justice of the peace do", ["keeps the peace"], "other", False),
        ("what type of dog was laika the spacedog", ["mongrel"], "other", False),
        ("who led the soldiers in ending the raid", ["Robert E. Lee"], "person", True),
        ("which film has the routine in it", ["The Naughty Nineties"], "other", True),
    ],
)
def test_purge_only_short_factoid_answers(query, answers, atype, ok):
    assert purgeable(query, answers, atype) is ok


_DOG = (
    "The dog was found wandering the streets of the capital in the winter. "
    "Scientists chose strays because they assumed such animals could endure cold and hunger. "
    "The dog chosen for the flight was trained by Oleg Gazenko at the institute. "
    "{opener} the dog weighed about six kilograms at the time of the flight."
)


def test_token_purge_declines_a_back_reference_to_a_cut_sentence():
    row = {"source_id": "p1", "query": "who trained the dog", "answers": ["Oleg Gazenko"]}
    with pytest.raises(NotApplicable):
        _lever(dict(row, context=_DOG.format(opener="Another account reported that")), tx.HIGH, "Answer Token Purge")
    out = _lever(dict(row, context=_DOG.format(opener="Records show that")), tx.HIGH, "Answer Token Purge")
    assert "Gazenko" not in out["perturbed_context"]


def test_token_purge_declines_a_role_question():
    row = {
        "source_id": "p2",
        "query": "what is the job of a justice of the peace",
        "answers": ["dispense summary justice"],
        "context": "A justice of the peace is a judicial officer appointed to keep the peace. "
        "In past centuries the term commissioner of the peace was used. "
        "Justices of the peace dispense summary justice in common law jurisdictions.",
    }
    with pytest.raises(NotApplicable):
        _lever(row, tx.HIGH, "Answer Token Purge")


@pytest.mark.parametrize(
    "text, atype, ok",
    [
        ("In 1936 the province was split into two provinces.", "year", False),  # another date reads as the answer
        ("The province was later split into two provinces.", "year", True),
        ("Live-action filming locations included Bay of Plenty, Taupo and Wellington.", "place", False),
        ("Rehearsals began early, and the crew hired local carpenters.", "place", True),
    ],
)
def test_purge_declines_a_rival_value_left(text, atype, ok):
    assert rival_left(text, atype, {"filmed", "dragon", "bihar", "bifurcate"}) is not ok


def test_token_purge_declines_a_definite_phrase_whose_referent_went():
    row = {
        "source_id": "p5",
        "query": "who sang the theme song for the sitcom",
        "answers": ["Cyndi Grecco"],
        "context": "Cyndi Grecco is an American singer who performed the theme of the popular sitcom. "
        "The song came out on a small label based in New York. An album followed, though a second single, "
        "a disco number released the next year, failed to chart anywhere at all.",
    }
    with pytest.raises(NotApplicable):  # "The song came out ..." names no song once the first sentence went
        _lever(row, tx.HIGH, "Answer Token Purge")


def test_token_purge_declines_leaving_a_fragment():
    row = {
        "source_id": "p4",
        "query": "which actor plays the brother in the family funeral",
        "answers": ["Tyler Perry"],
        "context": "In the family funeral film the brother is played by Tyler Perry. A Vietnam war veteran.",
    }
    with pytest.raises(NotApplicable):
        _lever(row, tx.HIGH, "Answer Token Purge")


def test_token_purge_declines_filming_places_left_for_a_where_question():
    row = {
        "source_id": "p3",
        "query": "where was the new dragon film filmed",
        "answers": ["New Zealand"],
        "context": "Principal photography of the dragon film commenced in New Zealand, with Lowery directing. "
        "Rehearsals began early in the year, while news reported the beginning of the shooting in spring. "
        "Live-action filming locations included Bay of Plenty, Taupo and Wellington.",
    }
    with pytest.raises(NotApplicable):
        _lever(row, tx.HIGH, "Answer Token Purge")
