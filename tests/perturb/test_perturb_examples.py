"""Exact outputs of the levers on small hand-made items, and seed-robustness of the invariants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refusalbench import taxonomy as tx
from refusalbench.generation.checks import check_candidate
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic

DEADPOOL = {
    "source_id": "a",
    "query": "when is the next deadpool movie being released",
    "answers": ["May 18, 2018"],
    "context": (
        "Deadpool 2 is scheduled to be released in the United States on May 18, 2018.  "
        "A sequel, Deadpool 3, is in development."
    ),
    "title": "Deadpool 2",
}
HOBBIT = {
    "source_id": "c",
    "query": "who wrote the hobbit",
    "answers": ["J. R. R. Tolkien"],
    "context": "The Hobbit was written by J. R. R. Tolkien. It appeared in 1937.",
}
BASE = [
    DEADPOOL,
    HOBBIT,
    {
        "source_id": "b",
        "query": "when was the film released",
        "answers": ["July 18, 2008"],
        "context": "It was released on July 18, 2008.",
    },
    {
        "source_id": "d",
        "query": "who wrote dracula",
        "answers": ["Bram Stoker"],
        "context": "Dracula is an 1897 novel by Bram Stoker.",
    },
]
POOL = DistractorPool.from_base(BASE)
TAIL = " A sequel, Deadpool 3, is in development."
SALARY = {
    "source_id": "s",
    "query": "what is the salary of the mayor of the town",
    "answers": ["$205,700"],
    "context": "The mayor of the town is elected every four years. The mayor earns $205,700 a year.",
}
RELEASED = dict(
    DEADPOOL,
    query="when was the deadpool sequel released",
    context="Deadpool 2 was released in the United States on May 18, 2018.  A sequel, Deadpool 3, is in development.",
)


@pytest.mark.parametrize(
    "row, cls, intensity, lever, query, context",
    [
        (  # the time-phrase cut is out of the rotation: the amount a query asks for is what MEDIUM masks
            SALARY,
            tx.MISSING_INFO,
            tx.MEDIUM,
            "Price Redacted",
            None,
            "The mayor of the town is elected every four years. The mayor earns an unspecified amount a year.",
        ),
        (  # a released date: a scheduled one ("is scheduled to be released in the 2010s") is declined
            RELEASED,
            tx.GRANULARITY,
            tx.MEDIUM,
            "Answer Stated One Level Coarser",
            "On exactly what date was the deadpool sequel released?",
            "Deadpool 2 was released in the United States in the 2010s." + TAIL,
        ),
        (
            DEADPOOL,
            tx.CONTRADICTION,
            tx.MEDIUM,
            "Dual-authoritative Dates",
            None,
            "Deadpool 2 is scheduled to be released in the United States on May 18, 2018. "
            "However, an equally authoritative source states that Deadpool 2 is scheduled to be released "
            "in the United States on May 18, 2015." + TAIL,
        ),
        (
            dict(HOBBIT, title="The Hobbit"),
            tx.FALSE_PREMISE,
            tx.HIGH,
            "Inanimate Agent Verb",
            'Which grain of sand wrote "The Hobbit"?',  # the title quoted, in the passage's capitals
            None,
        ),
    ],
)
def test_exact_outputs(row, cls, intensity, lever, query, context):
    out = generate_programmatic(row, cls, intensity, 0, POOL, lever=lever)
    assert out["lever_selected"] == lever and out["programmatic"] is True and out["implementation_reasoning"]
    assert out["perturbed_query"] == (query or row["query"])
    assert out["perturbed_context"] == (context or row["context"])  # byte-identical when untouched


SONGS = [
    {
        "source_id": "s1",
        "query": "who sang the song yakety yak",
        "answers": ["The Coasters"],
        "title": "Yakety Yak",
        "context": '"Yakety Yak" is a song recorded by The Coasters. It topped the charts in 1958.',
    },
    {
        "source_id": "s2",
        "query": "who sang mack the knife",
        "answers": ["Bobby Darin"],
        "title": "Mack the Knife",
        "context": '"Mack the Knife" is a song made famous by Bobby Darin. It was a hit in 1959.',
    },
    {
        "source_id": "s3",
        "query": "who sang the last name roberts",
        "answers": ["Ann Lee"],
        "title": "Roberts",
        "context": "Roberts is a surname of Norman origin. A song about it was sung by Ann Lee.",
    },
]
SONG_POOL = DistractorPool.from_base(SONGS)


def test_pronoun_lever_makes_the_subject_a_pronoun_and_medium_high_need_whole_leads():
    row = dict(SONGS[0], query="who sang the song yakety yak first")
    low = generate_programmatic(row, tx.AMBIGUITY, tx.LOW, 0, SONG_POOL, lever="Salient-antecedent Pronoun")
    assert low["perturbed_query"] == "Who sang it first?" and low["perturbed_context"] == SONGS[0]["context"]
    with pytest.raises(NotApplicable, match="too little"):  # "Who sang it?" asks nearly nothing
        generate_programmatic(SONGS[0], tx.AMBIGUITY, tx.LOW, 0, SONG_POOL, lever="Salient-antecedent Pronoun")
    for intensity in (tx.MEDIUM, tx.HIGH):  # no pronoun beside one sentence of an unrelated passage (too weak)
        with pytest.raises(NotApplicable, match="fewer than"):  # only other songs' whole leads (too short here)
            generate_programmatic(SONGS[0], tx.AMBIGUITY, intensity, 0, SONG_POOL)


def test_pronoun_lever_declines_a_subject_that_heads_an_of_phrase():
    row = {
        "source_id": "k",
        "query": "what is the inner core of the earth made from",
        "title": "Inner core",
        "answers": ["an iron-nickel alloy"],
        "context": "The inner core is the innermost part of the Earth. It is made of an iron-nickel alloy.",
    }
    with pytest.raises(NotApplicable):  # "What is it of the earth made from?"
        generate_programmatic(
            row, tx.AMBIGUITY, tx.LOW, 0, DistractorPool.from_base([row]), lever="Salient-antecedent Pronoun"
        )


def test_pronoun_levers_decline_a_name_inside_a_noun_phrase():
    with pytest.raises(NotApplicable):  # "the last name it"
        generate_programmatic(SONGS[2], tx.AMBIGUITY, tx.LOW, 0, SONG_POOL, lever="Salient-antecedent Pronoun")


def test_value_clash_takes_numbers_only():
    rows = [
        {
            "source_id": "e",
            "query": "how many episodes are in season 4",
            "answers": ["23"],
            "context": "The fourth season consists of 23 episodes. It aired in 2015.",
        },
        {
            "source_id": "f",
            "query": "how many episodes are in season 2",
            "answers": ["40"],
            "context": "The second season consists of 40 episodes.",
        },
    ]
    pool = DistractorPool.from_base(rows + BASE)
    out = generate_programmatic(rows[0], tx.CONTRADICTION, tx.MEDIUM, 0, pool, lever="Equal-standing Value Clash")
    assert "that the fourth season consists of 40 episodes." in out["perturbed_context"]
    assert out["perturbed_context"].startswith("The fourth season consists of 23 episodes.")
    with pytest.raises(NotApplicable):  # "Bram Stoker" for Tolkien: a person drawn from other questions
        generate_programmatic(HOBBIT, tx.CONTRADICTION, tx.MEDIUM, 0, POOL, lever="Equal-standing Value Clash")


def test_multi_passage_contradiction_replaces_one_noise_passage():
    row = {
        "source_id": "m",
        "query": DEADPOOL["query"],
        "answers": DEADPOOL["answers"],
        "passages": ["Dracula is an 1897 novel.", DEADPOOL["context"], "The Hobbit appeared in 1937."],
        "signal_indices": [1],
        "noise_indices": [0, 2],
        "reference_answer": "May 18, 2018",
    }
    out = generate_programmatic(
        row, tx.CONTRADICTION, tx.MEDIUM, 0, POOL, multi_passage=True, lever="Dual-authoritative Dates"
    )
    changed = [i for i, (a, b) in enumerate(zip(row["passages"], out["perturbed_passages"])) if a != b]
    assert len(changed) == 1 and changed[0] in row["noise_indices"]
    assert (
        out["perturbed_passages"][changed[0]]
        == "Deadpool 2 is scheduled to be released in the United States on May 18, 2016."
    )


def test_granularity_query_levers_are_single_passage_only():
    row = {
        "source_id": "m",
        "query": RELEASED["query"],
        "answers": RELEASED["answers"],
        "passages": [RELEASED["context"], "Unrelated text here."],
        "signal_indices": [0],
        "noise_indices": [1],
    }
    with pytest.raises(NotApplicable, match="no programmatic implementation"):
        generate_programmatic(
            row, tx.GRANULARITY, tx.LOW, 0, POOL, multi_passage=True, lever="Rougher Question, Exact Passage"
        )
    out = generate_programmatic(row, tx.GRANULARITY, tx.MEDIUM, 0, POOL, multi_passage=True)
    assert out["perturbed_query"] == row["query"] and out["perturbed_passages"][1] == row["passages"][1]


def test_unknown_class_is_a_clear_error():
    with pytest.raises(tx.TaxonomyError):
        generate_programmatic(HOBBIT, "P-Nonsense", tx.LOW, 0, POOL)


@given(seed=st.integers(0, 2**31 - 1), cell=st.sampled_from(tx.cells()), which=st.integers(0, 59))
@settings(max_examples=150, deadline=None)
def test_any_seed_passes_the_check_stage(single_rows, pool, seed, cell, which):
    row = single_rows[which % len(single_rows)]
    cls, intensity = cell
    try:
        out = generate_programmatic(row, cls, intensity, seed, pool)
    except NotApplicable:
        return
    cand = {
        "generation_ok": True,
        "perturbation_class": cls,
        "intensity": intensity,
        "original_query": row["query"],
        "original_context": row["context"],
        "original_answers": row["answers"],
        "lever_selected": out["lever_selected"],
        "perturbed_query": out["perturbed_query"],
        "perturbed_context": out["perturbed_context"],
    }
    assert check_candidate(cand) == (True, None)
    if intensity == tx.LOW:
        assert any(a.lower() in " ".join(out["perturbed_context"].split()).lower() for a in row["answers"])


def _declines(row: dict, cls: str, intensity: str, lever: str, *others: dict) -> None:
    with pytest.raises(NotApplicable):
        generate_programmatic(row, cls, intensity, 0, DistractorPool.from_base([row, *others, *BASE]), lever=lever)


def test_contradictions_decline_questions_with_several_figures():
    row = {
        "source_id": "o",
        "query": "how many pieces in a chocolate orange",
        "answers": ["six", "20"],
        "context": "The chocolate orange is divided into 20 segments. Older ones had six.",
    }
    other = {
        "source_id": "p",
        "query": "how many pieces in a kit kat",
        "answers": ["4"],
        "context": "A Kit Kat has 4 fingers.",
    }
    for cls, intensity, lever in [
        (tx.CONTRADICTION, tx.MEDIUM, "Equal-standing Value Clash"),
    ]:
        _declines(row, cls, intensity, lever, other)


def test_contradictions_decline_hedged_or_near_figures():
    row = {
        "source_id": "h",
        "query": "how many languages has harry potter been translated into",
        "answers": ["over 74"],
        "context": "The first book has been translated into over 74 languages. It sold well.",
    }
    other = {
        "source_id": "i",
        "query": "how many languages is the bible translated into",
        "answers": ["70"],
        "context": "The Bible has been translated into 70 languages.",
    }
    for cls, intensity, lever in [
        (tx.CONTRADICTION, tx.MEDIUM, "Equal-standing Value Clash"),
    ]:
        _declines(row, cls, intensity, lever, other)


COARSER = "Answer Stated One Level Coarser"


def test_coarser_statement_takes_dates_in_running_text_only():
    hollywood = {
        "source_id": "y",
        "query": "when did hollywood become the centre of the film industry",
        "answers": ["1912", "By 1912"],
        "context": "By 1912, major motion-picture companies had set up production in Los Angeles. It grew.",
    }
    _declines(hollywood, tx.GRANULARITY, tx.MEDIUM, COARSER)  # was "The 20th century, major"
    for text in ("On 1 September 1939, Germany invaded Poland.", "They won in 1948, 1949 and 1960."):
        row = {
            "source_id": "v",
            "query": "when did it happen",
            "answers": ["1939" if "1939" in text else "1948"],
            "context": text + " It was noted.",
        }
        _declines(row, tx.GRANULARITY, tx.MEDIUM, COARSER)
    wars = {
        "source_id": "w",
        "query": "how many wars held between india and pakistan",
        "answers": ["four"],
        "context": "India and Pakistan have fought four wars since 1947. Both hold nuclear weapons.",
    }
    _declines(wars, tx.GRANULARITY, tx.MEDIUM, COARSER)  # a range of ten around 'four' is too weak for MEDIUM


def test_parenthetical_excise_leaves_quoted_titles_whole():
    row = {
        "source_id": "q",
        "query": "who wrote i wanna dance with somebody",
        "answers": ["George Merrill"],
        "context": '"I Wanna Dance with Somebody (Who Loves Me)" was written by George Merrill. It was a hit.',
    }
    _declines(row, tx.MISSING_INFO, tx.LOW, "Parenthetical Excise")


def test_purge_declines_a_dangling_opener():
    row = {
        "source_id": "g",
        "query": "when was the last time ny rangers won stanley cup",
        "answers": ["1993-94"],
        "context": "The Rangers are a hockey team based in New York. The Rangers most recently won the cup in 1993-94. "
        "The club is also one of the oldest in the league.",
    }
    _declines(row, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")
