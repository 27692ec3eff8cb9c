"""The answer-type detector, the value parsers and the seeded distractor pool."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refusalbench.perturb import DistractorPool
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.distractors import format_number, shape_key, with_value


@pytest.mark.parametrize(
    "answer, question, expected",
    [
        ("May 18, 2018", "when is the next deadpool movie being released", at.DATE),
        ("1 October 2006", "when did the order come into effect", at.DATE),
        ("October 2012", "when did the first wireless beats come out", at.DATE),
        ("21 February", "when is the womens ice skating", at.DATE),
        ("1869", "when was the periodic table published", at.YEAR),
        ("in 1982", "when did lord howe island become a world heritage site", at.YEAR),
        ("15", "how many weeks did it chart", at.NUMBER),
        ("two million", "how many copies were sold", at.NUMBER),
        ("12.9", "how long is the bridge in km", at.NUMBER),
        ("228 minutes", "how long is the directors cut", at.NUMBER),
        ("2,579", "how many steps does the cn tower have", at.NUMBER),
        ("Heath Ledger", "who plays joker in the dark knight", at.PERSON),
        ("J. R. R. Tolkien", "who wrote the lord of the rings", at.PERSON),
        ("William the Conqueror", "who built the tower of london", at.PERSON),
        ("Warsaw", "where was marie curie born", at.PLACE),
        ("Tulsa, Oklahoma", "where do the greasers live", at.PLACE),
        ("Labour Party", "which party came into power in 1945", at.ORGANISATION),
        ("New York University", "what college do they go to", at.ORGANISATION),
        ("The Beatles", "who is the best selling artist", at.ORGANISATION),
        ("NASA", "who launched the probe", at.ORGANISATION),
        ("beneath the liver", "where is the gall bladder", at.OTHER),
        ("Nucleotides", "what are the building blocks of dna", at.OTHER),
        ("", "who", at.OTHER),
    ],
)
def test_detect(answer, question, expected):
    assert at.detect(answer, question) == expected


def test_parsers():
    assert at.parse_date("May 18, 2018") == at.DateValue(5, 18, 2018, "MDY")
    assert at.parse_date("1 Sept. 1939").month == 9
    assert at.parse_date("the spring") is None
    assert at.parse_year("In 1922") == 1922 and at.parse_year("922 BC") is None
    num = at.parse_number("about 1,100 mm")
    assert (num.value, num.prefix.strip(), num.unit.strip()) == (1100.0, "about", "mm")
    assert at.parse_number("two million").magnitude == 2e6
    assert at.DateValue(6, 2, 2016, "DMY").format() == "2 June 2016"


@pytest.mark.parametrize(
    "like, value, expected",
    [
        ("15", 150, "150"),
        ("1,100", 11000, "11,000"),
        # a whole rival keeps no ".0" (the seventy-fourth review's R011: "$640.0 million"), a fraction its digits
        ("12.9", 129.0, "129"),
        ("12.25", 3.5, "3.5"),
        ("12.9", 13.4, "13.4"),
        ("three", 4, "four"),
        ("three", 1.5, "two"),
        ("Three", 30, "Thirty"),
        ("3 km", 6, "6"),
    ],
)
def test_format_number_keeps_the_style(like, value, expected):
    assert format_number(value, at.parse_number(like)) == expected


@given(st.integers(min_value=1, max_value=10**7), st.floats(min_value=0.1, max_value=20))
@settings(max_examples=150, deadline=None)
def test_with_value_round_trips(n, factor):
    num = at.parse_number(f"{n:,} km")
    out = with_value(num, n * factor)
    back = at.parse_number(out)
    assert back is not None and back.unit.strip() == "km"
    assert abs(back.value - round(n * factor)) <= 0.5


def test_shape_key():
    assert shape_key("at IBM") == "at|C" and shape_key("at night") == "at|l"
    assert shape_key("Return of the Jedi") == shape_key("Panic! at the Disco") == "|C"
    assert shape_key("the 1979–80 season") == "the|d l"


BASE = [
    {
        "source_id": "a",
        "query": "who plays joker in the dark knight",
        "answers": ["Heath Ledger"],
        "context": "Heath Ledger played the Joker.",
    },
    {
        "source_id": "b",
        "query": "who plays batman in the dark knight",
        "answers": ["Christian Bale"],
        "context": "Christian Bale played Batman.",
    },
    {"source_id": "c", "query": "who sang purple rain", "answers": ["Prince"], "context": "Prince sang it."},
    {
        "source_id": "d",
        "query": "when was the film released",
        "answers": ["July 18, 2008"],
        "context": "It was released on July 18, 2008.",
    },
    {"source_id": "e", "query": "when did the war end", "answers": ["1945"], "context": "The war ended in 1945."},
    {"source_id": "f", "query": "where was it filmed", "answers": ["Chicago"], "context": "It was filmed in Chicago."},
]


def test_pool_from_base_types_every_answer():
    pool = DistractorPool.from_base(BASE)
    assert pool.values[at.PERSON] == ["Christian Bale", "Heath Ledger", "Prince"]
    assert pool.values[at.DATE] == ["July 18, 2008"] and pool.values[at.YEAR] == ["1945"]
    assert len(pool) == 6


def test_pick_prefers_answers_to_like_questions_and_never_an_answer():
    pool = DistractorPool.from_base(BASE)
    for seed in range(20):
        value = pool.pick(
            at.PERSON,
            "Heath Ledger",
            random.Random(seed),
            ["Heath Ledger", "Ledger"],
            ["Heath Ledger played the Joker."],
            query="who plays joker in the dark knight",
        )
        assert value == "Christian Bale"  # the other "who plays" answer


def test_pick_rewrites_numeric_values_in_the_anchor_format():
    pool = DistractorPool.from_base(BASE)
    rng = random.Random(0)
    date = pool.pick(at.DATE, "18 May 2018", rng, ["18 May 2018"])
    assert at.parse_date(date).form == "DMY" and date != "18 May 2018"
    year = pool.pick(at.YEAR, "1950", rng, ["1950"])
    assert year == "1945"  # from the pool: within NEAR_YEARS (10) years
    number = pool.pick(at.NUMBER, "15 weeks", rng, ["15 weeks", "15"])
    assert number.endswith(" weeks") and at.parse_number(number).value != 15


def test_pick_is_seeded():
    pool = DistractorPool.from_base(BASE)
    draws = {pool.pick(at.PERSON, "Someone Else", random.Random(s), ["Someone Else"]) for s in range(30)}
    assert draws == {"Christian Bale", "Heath Ledger"}  # a full name is not swapped for a single one ("Prince")
    assert {pool.pick(at.PERSON, "Someone", random.Random(s), ["Someone"]) for s in range(30)} == {
        "Christian Bale",
        "Heath Ledger",
        "Prince",
    }
    assert pool.pick(at.PERSON, "X Y", random.Random(3), ["X Y"]) == pool.pick(
        at.PERSON, "X Y", random.Random(3), ["X Y"]
    )


def test_pick_returns_none_without_a_usable_value():
    pool = DistractorPool.from_base(BASE[:1])
    assert pool.pick(at.PERSON, "Heath Ledger", random.Random(0), ["Heath Ledger"]) is None
    assert pool.pick(at.OTHER, "altitude", random.Random(0), ["altitude"], query="what is the main factor") is None


def test_bundled_pool_is_available():
    assert len(DistractorPool.bundled()) > 20
