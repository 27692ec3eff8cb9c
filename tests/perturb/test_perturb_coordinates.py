"""Granularity MEDIUM, "Metre-precise Coordinates of a Named Place" (HIGH until the eighty-first review), and the
MissingInfo LOW gate from the review that first judged it (the twenty-third): a cut passage's trailing fragment whose
only verb is its last word is not a sentence to delete."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic

LEVER = "Metre-precise Coordinates of a Named Place"
HARBOUR = (
    "The Harbour Accord is a trade agreement between the two coastal republics. It was signed in Porthwen in 1851 "
    "by the envoys of both governments, after four years of talks. The accord opened the river ports to ships of "
    "either flag."
)


def _row(query: str, answers: list[str], context: str = HARBOUR) -> dict:
    return {"source_id": "h", "query": query, "answers": answers, "title": "Harbour Accord", "context": context}


def _generate(row: dict, cls: str = tx.GRANULARITY, intensity: str = tx.MEDIUM, lever: str | None = LEVER) -> dict:
    return generate_programmatic(row, cls, intensity, 0, DistractorPool.from_base([row]), lever=lever)


def test_asks_the_metre_precise_position_of_one_spot_and_keeps_the_passage():
    out = _generate(_row("where was the harbour accord signed", ["Porthwen"]))
    assert out["perturbed_query"] == (
        "At exactly what latitude and longitude, to the nearest metre, was the harbour accord signed?"
    )
    assert out["perturbed_context"] == HARBOUR


@pytest.mark.parametrize(
    "query, answers, context, why",
    [
        # a bare "where is X": the tablets "in the Ark of the Covenant" have no position
        ("where is the harbour accord", ["Porthwen"], HARBOUR, "verb"),
        ("where was the harbour accord filmed", ["Porthwen"], HARBOUR, "verb"),  # shot in many places
        ("where does the harbour accord take place", ["Porthwen"], HARBOUR, "verb"),  # a story's setting
        ("where is the coastal republic located", ["Porthwen"], HARBOUR, "single position"),  # an area
        ("where was the harbour accord signed and by whom", ["Porthwen"], HARBOUR, "second question"),
        ("where was the harbour accord signed", ["Porthwen", "Calder"], HARBOUR, "different places"),
        (
            "where was the harbour accord signed",
            ["Porthwen"],
            HARBOUR.replace("in Porthwen", "in Porthwen (51°28′N 3°10′W)"),
            "position",
        ),
    ],
)
def test_declines_what_has_no_single_position_or_is_already_placed(query, answers, context, why):
    with pytest.raises(NotApplicable, match=why):
        _generate(_row(query, answers, context))


def test_answers_naming_one_place_in_several_forms_are_one_place():
    row = _row(
        "where do the gulls play",
        ["the Porthwen Arena", "Porthwen Arena"],
        HARBOUR + " The Gulls play at the Porthwen Arena.",
    )
    assert "latitude and longitude" in _generate(row)["perturbed_query"]
    rivals = _row(
        "where do the gulls play",
        ["Porthwen Stadium", "Calder Stadium"],
        HARBOUR + " The Gulls play at Porthwen Stadium and at Calder Stadium.",
    )
    with pytest.raises(NotApplicable, match="different places"):  # "Stadium" alone does not make them one
        _generate(rivals)


def test_the_lever_is_a_medium_one():
    """Blind reviews read a named place against a point to the metre as a gap of several levels of the same kind
    (MEDIUM), not as categories that do not line up (HIGH); 24 of its 41 HIGH items over twelve reviews were
    judged valid at HIGH."""
    row = _row("where was the harbour accord signed", ["Porthwen"])
    assert _generate(row)["lever_selected"] == LEVER
    with pytest.raises(NotApplicable, match="no programmatic implementation"):
        _generate(row, intensity=tx.HIGH)


def test_multi_passage_items_are_declined():
    row = _row("where was the harbour accord signed", ["Porthwen"])
    row.update(passages=[HARBOUR, "The river ports trade in wool."], signal_indices=[0], noise_indices=[1])
    del row["context"]
    with pytest.raises(NotApplicable):
        generate_programmatic(row, tx.GRANULARITY, tx.MEDIUM, 0, DistractorPool.from_base([row]), multi_passage=True)


def test_missing_info_low_never_deletes_a_trailing_fragment():
    """The 23rd review: deleting "Global nuclear electricity generation in 2012 was" (a cut passage's edge) left
    the passage as informative as before, so the LOW item had no defect."""
    context = (
        "Nuclear power is used most in the United States, which generates the most nuclear electricity. "
        "France draws the largest share of its electricity from reactors. Global electricity output in 2012 was"
    )
    row = {"source_id": "n", "query": "where is nuclear energy used most", "answers": ["United States"]}
    row["context"] = context
    with pytest.raises(NotApplicable, match="changes no passage"):  # the fragment is the only statistic
        _generate(row, tx.MISSING_INFO, tx.LOW, "Strip Non-queried Statistic")


def test_missing_info_low_still_deletes_a_trailing_fragment_that_says_something():
    """Judged valid in the same review: "He also has blue eyes, ... whether he is" states a fact before it stops."""
    context = (
        "Nuclear power is used most in the United States, which generates the most nuclear electricity. "
        "France draws the largest share of its electricity from reactors. In 2012 output fell by seven percent, "
        "a drop that some analysts said was"
    )
    row = {"source_id": "n", "query": "where is nuclear energy used most", "answers": ["United States"]}
    row["context"] = context
    out = _generate(row, tx.MISSING_INFO, tx.LOW, "Strip Non-queried Statistic")
    assert out["perturbed_context"].endswith("from reactors.")


def test_a_works_setting_is_no_spot_even_when_the_work_is_a_play():
    # the seventy-second review's R039: "where is quiet hours play set" read "play" as the verb of a venue
    row = _row(
        "where is quiet hours play set",
        ["Buenos Aires"],
        "Quiet Hours (Spanish: Horas quietas) is a 1974 play by Argentine dramatist Julio Ardanaz. Written in a "
        "single act, it is set in a boarding house in Buenos Aires, where five lodgers wait through a night of curfew.",
    )
    with pytest.raises(NotApplicable):
        _generate(row, tx.GRANULARITY, tx.MEDIUM, LEVER)


def test_no_single_spot_for_a_field():
    # the seventy-third review's J005: an oil field covers a delta, not a spot
    row = _row(
        "where is the akpara oil field located",
        ["Bayelsa State"],
        "The Akpara oil field is an oil field in the swamp zone of the Niger Delta in Bayelsa State, Nigeria. It was "
        "discovered in 1971.",
    )
    with pytest.raises(NotApplicable):
        _generate(row)
