"""Granularity LOW: the year asked of an event the passage dates to the month or day."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic

BRIDGE = {
    "source_id": "g1",
    "query": "when did the harbour bridge open",
    "answers": ["3 May 1932", "1932"],
    "context": "The harbour bridge opened on 3 May 1932 after six years of work. It carries eight lanes of traffic.",
}


def low(row: dict) -> dict:
    return generate_programmatic(row, tx.GRANULARITY, tx.LOW, 0, DistractorPool.from_base([row]))


def test_asks_the_year_of_an_event_dated_to_the_day():
    out = low(BRIDGE)
    assert out["lever_selected"] == "Year Asked of a Dated Event"
    assert out["perturbed_query"] == "In what year did the harbour bridge open?"
    assert out["perturbed_context"] == BRIDGE["context"]


def test_a_month_and_year_is_one_level_finer_too():
    row = dict(BRIDGE, answers=["May 1932", "1932"], context=BRIDGE["context"].replace("on 3 May", "in May"))
    assert low(row)["perturbed_query"] == "In what year did the harbour bridge open?"


def test_declined_without_a_bare_year_among_the_answers():
    # a reply of "1932" against only "3 May 1932" may be scored wrong (blind review)
    with pytest.raises(NotApplicable, match="bare year"):
        low(dict(BRIDGE, answers=["3 May 1932"]))


def test_declined_where_the_passage_states_the_year_on_its_own():
    row = dict(BRIDGE, context=BRIDGE["context"] + " By the end of 1932 it carried trams.")
    with pytest.raises(NotApplicable, match="on its own"):  # question and passage at the same level
        low(row)


def test_declined_for_a_question_without_when_and_its_auxiliary():
    with pytest.raises(NotApplicable, match="does not ask"):
        low(dict(BRIDGE, query="harbour bridge opening date"))


@pytest.mark.parametrize(
    "query, event, declined",
    [
        ("when did the united kingdom entered the war", "The United Kingdom entered the war", True),  # a typo kept
        ("when did the movie coming home released", "The movie Coming Home was released", True),
        ("when did the firm become a publicly traded company", "The firm became a publicly traded company", False),
        ("when did the united states enter the war", "The United States entered the war", False),
    ],
)
def test_a_past_form_after_did_is_declined(query, event, declined):
    row = dict(BRIDGE, query=query, context=f"{event} on 3 May 1932. It was a Tuesday.")
    if declined:
        with pytest.raises(NotApplicable, match="past form"):
            low(row)
    else:
        assert low(row)["perturbed_query"].startswith("In what year did ")
