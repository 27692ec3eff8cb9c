"""FalsePremise MEDIUM: why a living person never became what the lead of their article says they are."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic
from refusalbench.perturb.levers_premise_living import role_noun

LEVER = "Stopped vs. Never Started"
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
    "Why did Tessa Marlowe-Hinds never become an actress?",
    "What kept Tessa Marlowe-Hinds from ever becoming an actress?",
}


def test_a_living_person_is_asked_why_they_never_became_what_they_are():
    out = _run()
    assert out["perturbed_query"] in ASKED
    assert out["perturbed_context"] == ACTRESS["context"]


def test_the_wording_varies_from_person_to_person_and_stays_for_one():
    forms = set()
    for first in ("Tessa", "Maria", "Joan", "Lena", "Ruth", "Alma", "Vera", "Nora"):
        row = {k: v.replace("Tessa", first) if isinstance(v, str) else v for k, v in ACTRESS.items()}
        row["answers"] = [a.replace("Tessa", first) for a in ACTRESS["answers"]]
        forms.add(_run(**row)["perturbed_query"].replace(first, "Tessa"))
    assert forms == ASKED
    other = _run(source_id="living-2")["perturbed_query"]
    assert other == _run()["perturbed_query"]  # another source question about her: the same text, one item


@pytest.mark.parametrize(
    "role, noun",
    [
        ("English actress", "actress"),
        ("Spanish former professional tennis player who later became captain", "tennis player"),
        ("Colombian professional road racing cyclist who rides for the team", "road racing cyclist"),
        ("English film, television, theatre and voice actor", "voice actor"),
        ("American singer-songwriter and record producer", "singer-songwriter"),
        ("American retired professional basketball player", "basketball player"),
        ("Irish former child actor", "actor"),
        ("American band from Ohio", None),
    ],
)
def test_the_role_is_the_noun_the_lead_gives_without_its_qualifiers(role, noun):
    assert role_noun(role) == noun


def test_the_article_follows_the_role():
    row = dict(ACTRESS, context=ACTRESS["context"].replace("an English actress", "an English playwright"))
    assert _run(**row)["perturbed_query"].endswith(("never become a playwright?", "ever becoming a playwright?"))


def test_the_title_s_disambiguator_is_left_out():
    assert _run(title="Tessa Marlowe-Hinds (actress)")["perturbed_query"] in ASKED


@pytest.mark.parametrize(
    "change",
    [
        {"context": ACTRESS["context"].replace("(born 9 May 1957) is", "(9 May 1957 – 2 June 2016) was")},
        {"context": ACTRESS["context"].replace("(born 9 May 1957)", "(born 9 May 1957; died 2016)")},
        {"context": ACTRESS["context"] + " She played the late Lady Hale in a later series."},
        {"context": ACTRESS["context"].replace("(born 9 May 1957) is", "(born 9 May 1957) was")},  # past tense
        {"context": ACTRESS["context"].replace("an English actress", "an English folk band")},  # no person's role
        {"context": ACTRESS["context"].replace("an English actress", "a fictional character")},
        # a premise the passage would make partly true
        {"context": ACTRESS["context"] + " She had hoped to become a dancer."},
        {"context": ACTRESS["context"].replace("an English actress", "an English aspiring actress")},
        {"title": "The Harbour Street Saga"},  # the lead is not about the title's person
        {"title": "Richard Marlowe-Hinds"},  # nor where the title's first name is missing (fortieth review, R018)
        {"title": "Tess Marlowe-Hinds"},  # nor a short form of it (fifty-fifth review, R020 of the NQ sheet)
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
