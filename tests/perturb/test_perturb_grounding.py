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
    # MissingInfo HIGH needs enough text left after the answer sentence goes (25 words, two sentences)
    longer = GROUNDED["context"].replace(
        " The fleet",
        " The ships carried convicts, marines and their families, and the voyage took more than eight months across"
        " two oceans. The fleet",
    )
    assert _gen(dict(GROUNDED, context=longer), tx.MISSING_INFO, tx.HIGH)
    it = dict(
        GROUNDED, context="The First Fleet was a group of eleven ships. It reached Botany Bay on 18 January 1788."
    )
    assert _weak(it) is None  # "It reached ..." goes on about the fleet the sentence before names


def test_answer_clause_excised_is_out_of_rotation():
    row = {
        "source_id": "b",
        "query": "who was the longest serving chief minister in india",
        "answers": ["Jyoti Basu"],
        "context": "The longest serving chief minister in India was Jyoti Basu of West Bengal. "
        "He served as chief minister until 2000.",
    }
    with pytest.raises(NotApplicable, match="no programmatic implementation"):
        _gen(row, tx.MISSING_INFO, tx.MEDIUM, "Answer Clause Excised")


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


DENTON = {
    "source_id": "d",
    "query": "who plays lindsay denton in line of duty",
    "answers": ["Keeley Hawes"],
    "title": "Line of Duty",
    "context": "Line of Duty is a British police drama. In the second series, the officer Lindsay Denton is played by "
    "Keeley Hawes, and the show was filmed in Belfast for Line of Duty's later series.",
}


def test_inanimate_agent_writes_names_as_the_passage_does():
    out = _gen(DENTON, tx.FALSE_PREMISE, tx.HIGH, "Inanimate Agent Verb")
    assert out["perturbed_query"].endswith(" plays Lindsay Denton in Line of Duty?")


@pytest.mark.parametrize(
    "query, answer, context, reason",
    [
        (  # a name the question gives only in part
            "who performed the halftime show at the stadium",
            "Lady Gaga",
            "The Super Bowl LI Halftime Show was performed by Lady Gaga at the stadium in Houston, Texas.",
            "does not give whole",
        ),
        (  # a capitalised form no name pattern covers
            "who designed the iphone case",
            "Jony Ive",
            "The first iPhone case was designed by Jony Ive in a studio.",
            "lower case",
        ),
    ],
)
def test_inanimate_agent_declines_a_name_it_cannot_write_as_the_passage_does(query, answer, context, reason):
    row = dict(DENTON, query=query, answers=[answer], context=context)
    with pytest.raises(NotApplicable, match=reason):
        _gen(row, tx.FALSE_PREMISE, tx.HIGH, "Inanimate Agent Verb")


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


@pytest.mark.parametrize(
    "query, answers, context, why",
    [
        (
            "how many pennsylvania house of representatives are there",
            ["203", "203 members"],
            "The Pennsylvania House is the lower house. There are 203 members, elected for two years.",
            # a figure is no longer coarsened at all (sixth blind review: a range kept implying the gold bound);
            # before that the range was declined for dropping the unit ("There are between 200 and 300, elected")
            "count or amount",
        ),
        (
            "when was the last time mount ruapehu erupted",
            ["25 September 2007"],
            "At about 8:20 p.m. on 25 September 2007, the latest eruption of Mount Ruapehu occurred without warning.",
            "time of day",
        ),
    ],
)
def test_coarsening_keeps_the_unit_and_the_sentence(query, answers, context, why):
    row = {"source_id": "u", "query": query, "answers": answers, "context": context, "title": "Pennsylvania House"}
    with pytest.raises(NotApplicable, match=why):  # "There are between 200 and 300, elected", "p.m. In the 2000s"
        _gen(row, tx.GRANULARITY, tx.MEDIUM, "Answer Stated One Level Coarser")


def test_pronoun_declines_a_name_written_in_lower_case():
    row = {
        "source_id": "dogs",
        "query": "when does isle of dogs come out in us",
        "answers": ["March 23, 2018"],
        "title": "Isle of Dogs (film)",
        "context": "Isle of Dogs is a 2018 stop-motion film. It came out in the US on March 23, 2018.",
    }
    with pytest.raises(NotApplicable, match="lower case"):  # "When does it come out in us?"
        _gen(row, tx.AMBIGUITY, tx.LOW, "Salient-antecedent Pronoun")
    fine = dict(
        row, query="when does isle of dogs come out in the cinema", context=row["context"] + " A cinema run followed."
    )
    assert _gen(fine, tx.AMBIGUITY, tx.LOW, "Salient-antecedent Pronoun")["perturbed_query"] == (
        "When does it come out in the cinema?"
    )


def test_temporal_adjunct_takes_the_date_s_closing_comma_with_it():
    row = {
        "source_id": "f",
        "query": "when will the flash season 4 be released",
        "answers": ["October 10, 2017"],
        "title": "The Flash (season 4)",
        # (not "The fourth season": an ordinal edition would date it again, and the cut declines)
        "context": "The new season of The Flash was ordered by the network. "
        "The new season began airing on October 10, 2017, on The CW.",
    }
    out = _gen(row, tx.MISSING_INFO, tx.MEDIUM, "Missing Temporal Adjunct")
    assert out["perturbed_context"].endswith("The new season began airing on The CW.")
