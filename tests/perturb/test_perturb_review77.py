"""Seventy-seventh blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import random

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from refusalbench.perturb.distractors import DistractorPool
from refusalbench.perturb.engine import make_item
from tests.perturb.test_perturb_review14 import _generate, _row

QUIZ = (
    'Kopf an Kopf ("Head to Head") was a West German radio quiz programme broadcast on Saturday evenings from 1958 '
    "to 1981. It was devised and presented by the journalist Heinz-Otto Brueckner, who put general-knowledge "
    "questions to two teams representing different towns."
)


def test_the_inanimate_agent_writes_every_word_of_a_name_in_the_passage_capitals():
    # R064: "Which shade of blue hosted Kopf an kopf radio quiz?" kept the second "kopf" in lower case
    row = _row("who hosted kopf an kopf radio quiz", ["Heinz-Otto Brueckner"], QUIZ)
    row["title"] = "Kopf an Kopf"
    query = _generate(row, tx.FALSE_PREMISE, tx.HIGH, "Inanimate Agent Verb")["perturbed_query"]
    assert "Kopf an Kopf radio quiz" in query


CATHEDRAL = (
    "Holy Cross Cathedral is a Roman Catholic cathedral in Port Adair, Nova Scotia, Canada. Built in the Gothic "
    "Revival style between 1874 and 1889, it replaced a wooden church destroyed by fire in 1871. Its granite spire "
    "rises to 71 metres, making it the tallest structure in the town."
)


def test_the_counterfactual_names_the_settlement_as_the_passage_does():
    # R004: "how would the city around it have developed" of a cathedral the passage places in a town
    row = _row("how tall is the spire on holy cross cathedral", ["71 metres"], CATHEDRAL)
    row["title"] = "Holy Cross Cathedral"
    query = _generate(row, tx.EPISTEMIC, tx.HIGH, "Historical Counterfactual Chain")["perturbed_query"]
    assert "the town around it" in query
    row["context"] = CATHEDRAL.replace("in the town", "in the city")
    query = _generate(row, tx.EPISTEMIC, tx.HIGH, "Historical Counterfactual Chain")["perturbed_query"]
    assert "the city around it" in query


def test_a_sentence_opening_on_a_participle_phrase_is_not_put_after_that():
    # R063: "an equally authoritative source states that used from the late Old Kingdom ..., it contains 42 tombs"
    row = _row("how many tombs are at qasr el hamra", ["63"], "The necropolis holds 63 rock-cut tombs.")
    item = make_item(row, DistractorPool.from_base([row]), False, random.Random(0))
    with pytest.raises(NotApplicable, match="participle"):
        item.embedded("Used from the late Old Kingdom until the Ptolemaic period, it contains 42 rock-cut tombs.")
    for sentence in ("During the war, the site held 42 tombs.", "Following the survey, the site held 42 tombs."):
        assert item.embedded(sentence).startswith(sentence[0].lower())


REGIMENT = (
    "The Swellendam Light Horse was a volunteer mounted regiment of the Cape Colony, raised in 1878 among farmers "
    "of the Overberg district. After the Union of South Africa was formed in 1910 the regiment became part of the "
    "Active Citizen Force. It was disbanded in 1921{tail}. The regiment's colours hang in the town's church."
)


def test_mutual_exclusion_opens_on_no_pronoun_that_could_point_to_another_thing():
    # R038: "It was disbanded in 1924, not in 1921." after "... transferred to a newly formed mounted rifles unit"
    tail = ", and its members were transferred to a newly formed mounted rifles unit based in Worcester"
    row = _row("when was the swellendam light horse disbanded", ["1921"], REGIMENT.format(tail=tail))
    with pytest.raises(NotApplicable, match="pronoun"):
        _generate(row, tx.CONTRADICTION, tx.HIGH, "Mutual Exclusion Claim")
    # a second clause that brings in nothing new leaves "It" with its one antecedent (as judged valid of the ISS)
    for tail in ("", ", and the regiment is now remembered by the town"):
        row["context"] = REGIMENT.format(tail=tail)
        context = _generate(row, tx.CONTRADICTION, tx.HIGH, "Mutual Exclusion Claim")["perturbed_context"]
        assert "by the end of 1921." in context


PAGODA = (
    "Quang Te Pagoda (Vietnamese: Chua Quang Te) is a Buddhist temple on the southern bank of the Perfume River in "
    "Hue, Vietnam. Founded in 1689 by a Chinese Chan monk who had fled southern China, it received patronage from "
    "the Nguyen lords and was rebuilt in 1825. The pagoda is known for its seven-tiered brick tower and a bronze "
    "bell cast in 1710. It was damaged by a storm in 1904 and restored in the 1990s."
)


def test_the_purge_keeps_a_lead_whose_subject_has_a_bracket_with_a_colon():
    # R027: the whole lead went, and with it the only sentence naming the pagoda
    row = _row("where is quang te pagoda", ["Hue, Vietnam", "Hue"], PAGODA)
    with pytest.raises(NotApplicable, match="lead sentence"):
        _generate(row, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")
