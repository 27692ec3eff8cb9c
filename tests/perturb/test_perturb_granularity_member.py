"""Granularity LOW, "Superclass Trait Made Explicit": the author of a series asked of one book the passage names."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic, implemented_levers

LEVER = "Superclass Trait Made Explicit"
SERIES = (
    "The Tidewater Chronicles is a series of fantasy novels by American author Lena Marchetti. The first book, The "
    "Drowned Crown, was published in 2008, and the series concluded with its fifth volume in 2019. The series has "
    "sold more than seven million copies and has been translated into 31 languages."
)
PICTURE_BOOKS = (
    "Little Kip is a series of Australian picture books written by Jenna McCallister and illustrated by Tom "
    "Vanderlee, published by Southern Cross Press from 1994. The books follow a young penguin on Phillip Island. "
    "The third book, Little Kip and the Storm, was named Picture Book of the Year in 1998."
)


def _row(query: str, answers: list[str], context: str = SERIES) -> dict:
    return {"source_id": "s", "query": query, "answers": answers, "title": "Tidewater Chronicles", "context": context}


def _generate(row: dict) -> dict:
    return generate_programmatic(row, tx.GRANULARITY, tx.LOW, 0, DistractorPool.from_base([row]), lever=LEVER)


def test_the_cell_has_the_catalogue_lever():
    assert LEVER in implemented_levers(tx.GRANULARITY, tx.LOW)


@pytest.mark.parametrize(
    "query, answers, context, expected",
    [
        ("who wrote the tidewater chronicles", ["Lena Marchetti"], SERIES, "Who wrote The Drowned Crown?"),
        (
            "who is the author of the tidewater chronicles books",
            ["Lena Marchetti"],
            SERIES,
            "Who wrote The Drowned Crown?",
        ),
        (
            "who illustrated the little kip books",
            ["Tom Vanderlee"],
            PICTURE_BOOKS,
            "Who illustrated Little Kip and the Storm?",
        ),
        (
            "who wrote the orbital trilogy",
            ["Witold Zaremba"],
            "The Orbital Trilogy (Polish: Trylogia orbitalna) is a series of science fiction novels by the Polish "
            "writer Witold Zaremba, comprising Stacja Hel (1974), Pierścień Ceres (1977) and Ostatnie perygeum "
            "(1981).",
            "Who wrote Stacja Hel?",
        ),
        (
            "who is the author of the salt merchants of kutch",
            ["Anjali Rathod"],
            "The Salt Merchants of Kutch is a 2015 collection of short stories by the Indian writer Anjali Rathod. "
            '"The Weighing Stone", the opening story, was adapted into a stage play in 2019.',
            'Who wrote "The Weighing Stone"?',
        ),
    ],
)
def test_asks_the_series_trait_of_a_member_the_passage_names(query, answers, context, expected):
    out = _generate(_row(query, answers, context))
    assert out["perturbed_query"] == expected
    assert out["perturbed_context"] == context  # the passage is the bridge, kept as it is


@pytest.mark.parametrize(
    "query, answers, context, why",
    [
        ("when was the first tidewater chronicles book published", ["2008"], SERIES, "who wrote"),
        # the writer of a picture-book series is not its illustrator
        ("who illustrated the tidewater chronicles", ["Lena Marchetti"], SERIES, "credit"),
        (
            "who wrote the tidewater chronicles",
            ["Lena Marchetti"],
            SERIES.replace("The first book, The ", "The first book, the "),
            "names no single book",
        ),
        # another hand in some part of the work: the trait no longer passes to every book
        (
            "who wrote the tidewater chronicles",
            ["Lena Marchetti"],
            SERIES.replace("in 2019.", "in 2019, co-written with Dana Whitcombe."),
            "another hand",
        ),
        (
            "who wrote the tidewater chronicles",
            ["Lena Marchetti"],
            SERIES + " After her death the series was continued by her son.",
            "another hand",
        ),
        (
            "who wrote the tidewater chronicles",
            ["Lena Marchetti"],
            SERIES.replace("by American", "under the pen name L. M. Hale by American"),
            "another hand",
        ),
        (
            "who wrote the tidewater chronicles",
            ["Lena Marchetti"],
            SERIES.replace("Lena Marchetti.", "Lena Marchetti and Dana Whitcombe."),
            "more than one person",
        ),
        # the named member credited on its own
        (
            "who wrote the tidewater chronicles",
            ["Lena Marchetti"],
            SERIES.replace("Crown, was", "Crown, written by Ada Moss, was"),
            "credits its member",
        ),
        # a passage about one novel, not a series of them
        (
            "who wrote the tidewater chronicles",
            ["Lena Marchetti"],
            SERIES.replace("a series of fantasy novels", "a fantasy novel"),
            "series or collection",
        ),
        ("who wrote the saltmarsh chronicles", ["Lena Marchetti"], SERIES, "not the passage's series"),
    ],
)
def test_declines_where_the_trait_may_not_pass_to_the_member(query, answers, context, why):
    with pytest.raises(NotApplicable, match=why):
        _generate(_row(query, answers, context))


def test_skips_a_member_that_is_the_series_own_name():
    context = (
        "The Ashfall trilogy is a series of young adult novels by the Canadian author Mireille Thibodeau, consisting "
        "of Ashfall (2013), Emberline (2014) and The Cinder Crown (2016)."
    )
    with pytest.raises(NotApplicable, match="names no single book"):
        _generate(_row("who is the author of the ashfall trilogy", ["Mireille Thibodeau"], context))


def test_declines_a_member_whose_own_sentence_names_the_credited_person():
    # the eighty-fourth review's R019: the passage credits the book itself, so no step down is left
    context = PICTURE_BOOKS.replace(
        "The third book, Little Kip and the Storm, was named",
        "Vanderlee's watercolours for the third book, Little Kip and the Storm, were named",
    )
    with pytest.raises(NotApplicable, match="names 'Tom Vanderlee' too"):
        _generate(_row("who illustrated the little kip books", ["Tom Vanderlee"], context))
