"""Contradiction HIGH: the passage says the dated event had not yet taken place by the end of its stated year."""

from __future__ import annotations

import re

import pytest

from refusalbench import taxonomy as tx
from refusalbench.generation.semantic import Candidate, answer_uncontested
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic

LEVER = "Mutual Exclusion Claim"
BRIDGE = {
    "source_id": "bridge",
    "query": "when did the harrow bridge open",
    "answers": ["12 June 1931", "1931"],
    "title": "Harrow Bridge",
    "context": "The Harrow Bridge is a steel arch bridge over the river Lune in Lancashire, England. "
    "The bridge opened on 12 June 1931. It carries the A683 road and was listed in 1987.",
}


def _run(**change) -> dict:
    row = dict(BRIDGE, **change)
    return generate_programmatic(row, tx.CONTRADICTION, tx.HIGH, 0, DistractorPool.from_base([row]), lever=LEVER)


def _added(out: dict) -> str:
    return out["perturbed_context"].split("The bridge opened on 12 June 1931. ")[1].split(" It carries")[0]


def test_the_event_is_denied_for_the_whole_of_its_stated_year():
    out = _run()
    added = _added(out)
    assert re.fullmatch(r"The bridge had (?:not yet|still not) opened by the end of 1931\.", added), added
    assert out["perturbed_query"] == BRIDGE["query"]
    assert out["lever_selected"] == LEVER


def test_both_wordings_occur_over_items():
    seen = set()
    for k in range(12):
        added = _added(_run(source_id=f"bridge-{k}"))
        seen.add("not yet" in added)
    assert seen == {True, False}


def test_the_added_statement_contests_the_answer_for_the_detector():
    out = _run()
    cand = Candidate(
        tx.CONTRADICTION,
        tx.HIGH,
        BRIDGE["query"],
        out["perturbed_query"],
        [BRIDGE["context"]],
        [out["perturbed_context"]],
        BRIDGE["answers"],
    )
    assert answer_uncontested(cand) is None  # the answer's year is in the added sentence, but denied there


@pytest.mark.parametrize(
    "sentence, why",
    [
        ("The bridge is scheduled to open on 12 June 1931.", "plan"),
        ("The bridge was a gift of the county, opened on 12 June 1931.", "describes"),
        ("The bridge also opened on 12 June 1931.", "adds"),
        ("After the war, the bridge opened on 12 June 1931.", "preposition"),
    ],
)
def test_a_plan_a_description_an_addition_or_a_dated_relation_is_declined(sentence, why):
    context = BRIDGE["context"].replace("The bridge opened on 12 June 1931.", sentence)
    with pytest.raises(NotApplicable):
        _run(context=context)


def test_an_answer_stated_again_elsewhere_is_declined():
    context = BRIDGE["context"] + " Its opening in 1931 drew a crowd of thousands."
    with pytest.raises(NotApplicable):
        _run(context=context)


def test_an_answer_that_is_not_a_date_is_declined():
    row = dict(BRIDGE, query="what river does the harrow bridge cross", answers=["Lune"])
    with pytest.raises(NotApplicable):
        _run(**row)


def _added_after(out: dict, sentence: str) -> str:
    rest = out["perturbed_context"].split(sentence + " ", 1)[1]
    return rest.split(" It carries")[0]


def test_a_clause_after_the_date_is_left_out_of_the_restatement():
    sentence = "The bridge opened on 12 June 1931, two months behind schedule."
    out = _run(context=BRIDGE["context"].replace("The bridge opened on 12 June 1931.", sentence))
    added = _added_after(out, sentence)
    assert re.fullmatch(r"The bridge had (?:not yet|still not) opened by the end of 1931\.", added), added


def test_a_phrase_of_place_or_agent_is_left_out_of_the_denial():
    # a denial that says less is stronger: not opened at all still contradicts "opened ... by the Duke of Kent"
    sentence = "The bridge was opened on 12 June 1931 by the Duke of Kent."
    out = _run(context=BRIDGE["context"].replace("The bridge opened on 12 June 1931.", sentence))
    added = _added_after(out, sentence)
    assert re.fullmatch(r"The bridge had (?:not yet|still not) been opened by the end of 1931\.", added), added


@pytest.mark.parametrize(
    "sentence",
    [
        "The bridge opened on 12 June 1931 and carried trams from the first day.",  # a second predicate
        "The bridge opened on 12 June 1931, and it was widened in 1964.",  # another year: another event's date
        "The bridge opened on 12 June 1931, in the year the county council was formed in 1931.",  # the year twice
    ],
)
def test_a_sentence_that_goes_on_after_the_date_or_names_another_year_is_declined(sentence):
    with pytest.raises(NotApplicable):
        _run(context=BRIDGE["context"].replace("The bridge opened on 12 June 1931.", sentence))


def test_a_pronoun_subject_is_restated_right_after_its_antecedent():
    sentence = "It opened on 12 June 1931."
    out = _run(context=BRIDGE["context"].replace("The bridge opened on 12 June 1931.", sentence))
    added = _added_after(out, sentence)
    assert re.fullmatch(r"It had (?:not yet|still not) opened by the end of 1931\.", added), added


def _multi(context: str) -> dict:
    noise = ["The Lune is a river in Cumbria and Lancashire.", "Lancaster is a city in Lancashire, England."]
    row = {
        "source_id": "bridge-multi",
        "query": BRIDGE["query"],
        "answers": BRIDGE["answers"],
        "passages": [context, *noise],
        "signal_indices": [0],
        "noise_indices": [1, 2],
        "reference_answer": "12 June 1931",
    }
    return generate_programmatic(row, tx.CONTRADICTION, tx.HIGH, 0, DistractorPool.from_base([row]), lever=LEVER)


def test_multi_passage_the_statement_replaces_one_noise_passage():
    out = _multi(BRIDGE["context"])
    passages = out["perturbed_passages"]
    assert passages[0] == BRIDGE["context"]
    changed = [p for p in passages[1:] if p.startswith("The bridge had")]
    assert len(changed) == 1 and changed[0].endswith("opened by the end of 1931.")


def test_multi_passage_a_pronoun_subject_is_declined():
    with pytest.raises(NotApplicable):
        _multi(BRIDGE["context"].replace("The bridge opened on 12 June 1931.", "It opened on 12 June 1931."))
