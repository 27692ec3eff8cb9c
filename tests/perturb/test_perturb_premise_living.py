"""FalsePremise MEDIUM: where a living person is buried, asked of the lead of a living person's article."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic

LEVER = "Burial for a Living Person"
ACTRESS = {
    "source_id": "living",
    "query": "who played raquel in the harbour street saga",
    "answers": ["Tessa Marlowe-Hinds"],
    "title": "Tessa Marlowe-Hinds",
    "context": "Tessa Marlowe-Hinds (born 9 May 1957) is an English actress. She is known for her role as Raquel in "
    "the BBC sitcom The Harbour Street Saga, which she played from 1988 to 1996.",
}


def _run(**change) -> dict:
    row = dict(ACTRESS, **change)
    return generate_programmatic(row, tx.FALSE_PREMISE, tx.MEDIUM, 0, DistractorPool.from_base([row]), lever=LEVER)


ASKED = {
    "Where is Tessa Marlowe-Hinds buried?",
    "In which cemetery is Tessa Marlowe-Hinds buried?",
    "Where was Tessa Marlowe-Hinds laid to rest?",
    "Where is the grave of Tessa Marlowe-Hinds?",
}


def test_a_living_person_is_asked_where_they_are_buried():
    out = _run()
    assert out["perturbed_query"] in ASKED
    assert out["perturbed_context"] == ACTRESS["context"]


def test_the_wording_varies_from_person_to_person_and_stays_for_one():
    forms = set()
    for first in ("Tessa", "Maria", "Joan", "Lena", "Ruth", "Alma", "Vera", "Nora", "Ida", "Edith", "Greta", "Hilda"):
        row = {k: v.replace("Tessa", first) if isinstance(v, str) else v for k, v in ACTRESS.items()}
        row["answers"] = [a.replace("Tessa", first) for a in ACTRESS["answers"]]
        forms.add(_run(**row)["perturbed_query"].replace(first, "Tessa"))
    assert forms == ASKED
    other = _run(source_id="living-2")["perturbed_query"]
    assert other == _run()["perturbed_query"]  # another source question about her: the same text, one item


def test_a_short_form_of_the_first_name_is_the_same_person():
    row = dict(ACTRESS, title="Tess Marlowe-Hinds")
    assert _run(**row)["perturbed_query"].endswith(
        ("Tess Marlowe-Hinds buried?", "Tess Marlowe-Hinds laid to rest?", "Tess Marlowe-Hinds?")
    )


def test_the_title_s_disambiguator_is_left_out():
    assert _run(title="Tessa Marlowe-Hinds (actress)")["perturbed_query"] in ASKED


@pytest.mark.parametrize(
    "change",
    [
        {"context": ACTRESS["context"].replace("(born 9 May 1957) is", "(9 May 1957 – 2 June 2016) was")},
        {"context": ACTRESS["context"].replace("(born 9 May 1957)", "(born 9 May 1957; died 2016)")},
        {"context": ACTRESS["context"] + " A memorial bench in Leeds bears her name."},  # partly true
        {"context": ACTRESS["context"] + " She played the late Lady Hale in a later series."},
        {"context": ACTRESS["context"].replace("(born 9 May 1957) is", "(born 9 May 1957) was")},  # past tense
        {"context": ACTRESS["context"].replace("an English actress", "an English folk band")},  # no person's role
        {"context": ACTRESS["context"].replace("an English actress", "a fictional character")},
        {"title": "The Harbour Street Saga"},  # the lead is not about the title's person
        {"title": "Richard Marlowe-Hinds"},  # nor where the title's first name is missing (fortieth review, R018)
        {"title": None},
    ],
)
def test_the_question_declines(change):
    with pytest.raises(NotApplicable):
        _run(**change)


@pytest.mark.parametrize(
    "more", [" She rose to fame in the late 1980s.", " She remains active in real estate and theatre."]
)
def test_words_that_only_look_like_a_death_do_not_decline(more):
    assert _run(context=ACTRESS["context"] + more)["perturbed_query"] in ASKED
