"""The source-item gate and the gates tightened after the third blind review: each declines the bad case and
accepts the good one."""

from __future__ import annotations

import random

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic
from refusalbench.perturb.engine import make_item
from refusalbench.perturb.grounding import weak_grounding


def _weak(row: dict) -> str | None:
    return weak_grounding(make_item(row, DistractorPool.from_base([row]), False, random.Random(0)))


def _gen(row, cls, intensity, lever=None):
    return generate_programmatic(row, cls, intensity, 0, DistractorPool.from_base([row]), lever=lever)


GROUNDED = {
    "source_id": "g",
    "query": "when did the first fleet arrive in australia",
    "answers": ["18 January 1788"],
    "context": "The First Fleet was a group of eleven ships. The fleet arrived at Botany Bay on 18 January 1788.",
}


@pytest.mark.parametrize(
    "row, why",
    [
        (  # the gold answer answers "where", not "when"
            dict(
                GROUNDED,
                query="when did the soviet union start and end",
                answers=["in Eurasia"],
                context="The Soviet Union was a socialist state in Eurasia. It was a union of republics.",
            ),
            "not a time",
        ),
        (  # the query names part of the answer
            dict(
                GROUNDED,
                query="jawaharlal nehru centre for advanced scientific research jakkur campus",
                answers=["Jakkur, Bangalore, India"],
                context="The Jawaharlal Nehru Centre is a research institute located at Jakkur, Bangalore, India.",
            ),
            "already names",
        ),
        (  # the answer sentence is about something else than the query asks
            dict(
                GROUNDED,
                query="who has the oldest team in the nba",
                answers=["New York Knickerbockers"],
                context="The Basketball Association of America was founded in 1946. "
                "The first game was played by the New York Knickerbockers and the Toronto Huskies.",
            ),
            "shares none",
        ),
        (dict(GROUNDED, answers=["1790"]), "no answer string"),
    ],
)
def test_a_weakly_grounded_question_is_declined_for_every_lever(row, why):
    assert why in (_weak(row) or "")
    for cls, intensity in tx.cells():
        with pytest.raises(NotApplicable):
            _gen(row, cls, intensity)


def test_a_grounded_question_passes_the_source_gate():
    assert _weak(GROUNDED) is None
    assert _gen(GROUNDED, tx.MISSING_INFO, tx.HIGH)
    it = dict(
        GROUNDED, context="The First Fleet was a group of eleven ships. It reached Botany Bay on 18 January 1788."
    )
    assert _weak(it) is None  # "It reached ..." goes on about the fleet the sentence before names


EXCISED = "Answer Clause Excised"


def test_answer_clause_excised_needs_a_wh_question_of_the_answers_kind():
    row = {
        "source_id": "o",
        "query": "what happens when an air mass is pushed up over a mountain range",
        "answers": ["Orographic lift"],
        "context": "Orographic lift occurs when an air mass is pushed up over rising terrain. "
        "As the air mass gains altitude it cools and forms clouds over the mountain range.",
    }
    with pytest.raises(NotApplicable, match="not who/when/where/how many"):
        _gen(row, tx.MISSING_INFO, tx.MEDIUM, EXCISED)


def test_answer_clause_excised_declines_a_surname_left_behind():
    row = {
        "source_id": "b",
        "query": "who was the longest serving chief minister in india",
        "answers": ["Jyoti Basu"],
        "context": "The longest serving chief minister in India was Jyoti Basu of West Bengal. "
        "Basu was a member of the Politburo and served as chief minister until 2000.",
    }
    with pytest.raises(NotApplicable, match="answer_name_word_survives"):
        _gen(row, tx.MISSING_INFO, tx.MEDIUM, EXCISED)


def test_answer_clause_excised_declines_a_dangling_opening_and_keeps_a_clean_cut():
    dangling = {
        "source_id": "d",
        "query": "where is the jawaharlal nehru research centre located",
        "answers": ["Jakkur"],
        "context": "The Jawaharlal Nehru research centre is located at Jakkur. "
        "It was established by the government of India in 1989 as a research centre.",
    }
    with pytest.raises(NotApplicable, match="dangling_opening_pronoun"):
        _gen(dangling, tx.MISSING_INFO, tx.MEDIUM, EXCISED)
    clean = dict(
        dangling,
        context="The Jawaharlal Nehru research centre was established in 1989. "
        "The research centre is located at Jakkur. The centre has six units.",
    )
    out = _gen(clean, tx.MISSING_INFO, tx.MEDIUM, EXCISED)
    assert (
        out["perturbed_context"]
        == "The Jawaharlal Nehru research centre was established in 1989. The centre has six units."
    )
    gone = dict(clean, context="The research centre is located at Jakkur. Work began in 1989.")
    with pytest.raises(NotApplicable, match="HIGH change"):  # nothing about the centre is left
        _gen(gone, tx.MISSING_INFO, tx.MEDIUM, EXCISED)


POEM = {
    "source_id": "p",
    "query": "when was the poem for whom the bell tolls published",
    "answers": ["1940"],
    "title": "For Whom the Bell Tolls",
    "context": "For Whom the Bell Tolls is a novel by Ernest Hemingway published in 1940. It is set in Spain.",
}


def test_pronoun_only_for_the_passage_s_own_kind_and_one_referent():
    with pytest.raises(NotApplicable, match="another kind"):  # the query's "poem" is the passage's novel
        _gen(POEM, tx.AMBIGUITY, tx.LOW, "Salient-antecedent Pronoun")
    novel = dict(POEM, query="when was the novel for whom the bell tolls published")
    assert (
        _gen(novel, tx.AMBIGUITY, tx.LOW, "Salient-antecedent Pronoun")["perturbed_query"] == "When was it published?"
    )
    titled = dict(novel, context=novel["context"] + " Its title is taken from a poem by John Donne.")
    with pytest.raises(NotApplicable, match="second work"):
        _gen(titled, tx.AMBIGUITY, tx.LOW, "Salient-antecedent Pronoun")
    plural = dict(
        novel,
        query="when did the red guards start and end",
        answers=["1966"],
        title="Red Guards",
        context="Red Guards (Chinese: hong) were a student movement mobilized in 1966. They were disbanded.",
    )
    with pytest.raises(NotApplicable, match="plural"):
        _gen(plural, tx.AMBIGUITY, tx.LOW, "Salient-antecedent Pronoun")


COWBOY = {
    "source_id": "c",
    "query": "who sang should've been a cowboy",
    "answers": ["Toby Keith"],
    "title": "Should've Been a Cowboy",
    "context": '"Should\'ve Been a Cowboy" is a song by Toby Keith. It was his debut single.',
}


def test_inanimate_agent_quotes_the_title_and_needs_a_person_s_act():
    out = _gen(COWBOY, tx.FALSE_PREMISE, tx.HIGH, "Inanimate Agent Verb")
    assert out["perturbed_query"].endswith(' sang "Should\'ve Been a Cowboy"?')
    garbled = dict(
        COWBOY,
        query="who sang the cowboy song in texas",
        context=COWBOY["context"] + " It was made in Texas.",
    )
    with pytest.raises(NotApplicable, match="lower case"):  # "Cowboy", "Texas" written in lower case
        _gen(garbled, tx.FALSE_PREMISE, tx.HIGH, "Inanimate Agent Verb")
    owner = dict(COWBOY, query="who owns the song should've been a cowboy")
    with pytest.raises(NotApplicable, match="needs a person"):  # a company can own a song
        _gen(owner, tx.FALSE_PREMISE, tx.HIGH, "Inanimate Agent Verb")


def test_no_century_for_a_bracketed_year_after_a_title():
    row = {
        "source_id": "hp",
        "query": "when did the first harry potter movie come out",
        "answers": ["2001"],
        "context": "The first Harry Potter movie was Harry Potter and the Philosopher's Stone (2001). "
        "The series ended with the Deathly Hallows.",
    }
    with pytest.raises(NotApplicable, match="bracketed year"):
        _gen(row, tx.GRANULARITY, tx.MEDIUM, "Answer Stated One Level Coarser")
