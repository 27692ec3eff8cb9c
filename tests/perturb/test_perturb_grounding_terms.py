"""The source-item gate's stated-terms rule: a number, model code, order word, superlative or organisation name
of the query that the passage never states declines the question; the same question with a passage stating
the term passes."""

from __future__ import annotations

import random

import pytest

from refusalbench.perturb import DistractorPool
from refusalbench.perturb.engine import make_item
from refusalbench.perturb.grounding import weak_grounding


def _weak(query: str, answer: str, context: str, title: str | None = None) -> str | None:
    row = {"source_id": "t", "query": query, "answers": [answer], "context": context}
    if title:
        row["title"] = title
    return weak_grounding(make_item(row, DistractorPool.from_base([row]), False, random.Random(0)))


@pytest.mark.parametrize(
    "query, answer, bad, good, term",
    [
        (  # a model code: the passage dates an F-series redesign, not the F-150
            "when did ford change the f150 body style",
            "1957",
            "Introduced in 1957, the third generation F-series was a significant redesign of the body.",
            "Introduced in 1957, the third generation Ford F-150 was a significant redesign of the body style.",
            "f150",
        ),
        (  # an order word the passage never states
            "when was the first book made into a movie",
            "1924",
            "In 1924, Erich von Stroheim attempted a literal adaptation of a novel with his film Greed.",
            "In 1924, Erich von Stroheim made the first film of a book, a literal adaptation of a novel.",
            "first",
        ),
        (  # a numbered season where the passage says the sixth was the final one
            "when is season 7 race to the edge coming out",
            "February 16, 2018",
            "The sixth and final season of Race to the Edge was released on February 16, 2018.",
            "The seventh season of Race to the Edge was released on February 16, 2018.",
            "7",
        ),
        (  # an organisation the passage never names
            "when did russia join the world economic forum",
            "1997",
            "Russia was added to the political forum from 1997, which the following year became known as the G8.",
            "Russia joined the World Economic Forum in 1997, the year it also joined the political forum.",
            "world economic forum",
        ),
        (  # a superlative the passage never states
            "who was the greatest pool player of all time",
            "Efren Reyes",
            "Efren Reyes (born August 26, 1954) is a Filipino professional pool player.",
            "Efren Reyes (born August 26, 1954) is a Filipino pool player, regarded as the greatest of all time.",
            "greatest",
        ),
        (  # "the last time": the passage dates an eruption but never says it was the latest
            "when was the last time mount ruapehu erupted",
            "25 September 2007",
            "At about 8:20 p.m. on 25 September 2007, a hydrothermal eruption of Mount Ruapehu occurred.",
            "The most recent eruption of Mount Ruapehu occurred on 25 September 2007.",
            "last",
        ),
    ],
)
def test_unstated_term_declines_and_stated_term_passes(query, answer, bad, good, term):
    why = _weak(query, answer, bad)
    assert why and repr(term) in why
    assert _weak(query, answer, good) is None


@pytest.mark.parametrize(
    "query, answer, context, title",
    [
        # case, hyphen and diacritic-insensitive codes; "ps4" stated as "PS-4"
        ("when did the ps4 come out in europe", "2013", "The PS-4 came out in Europe in 2013.", None),
        # number word for a figure, ordinal variant for "7th"
        ("who won the 7th season of survivor", "Sandra", "Sandra won the seventh season of Survivor.", None),
        # "first name" / "last name" are no order words
        ("what is billy last name in the book", "Colman", "In the book, Billy Colman takes the stray home.", None),
        # an adverb: the passage dates the airing itself
        ("when did the waltons first air on cbs", "1972", "The Waltons aired on CBS from 1972.", "The Waltons"),
        # "first" before the passage's title: the first film of a series the passage is about
        ("when was the first mad max movie released", "1979", "Mad Max is a 1979 Australian film.", "Mad Max"),
        # "best" stated as "highest"
        (
            "who has the best batting average in test cricket",
            "Don Bradman",
            "The highest Test batting average belongs to Don Bradman.",
            None,
        ),
        # a number stated only by the title, as a figure or a Roman numeral
        (
            "when is season 2 of jessica jones released",
            "March 8, 2018",
            "It was released on March 8, 2018.",
            "Jessica Jones (season 2)",
        ),
        (
            "who performed at super bowl 51",
            "Lady Gaga",
            "Lady Gaga performed at the halftime show.",
            "Super Bowl LI halftime show",
        ),
        # an abbreviation with its figure written out
        (
            "who led the luftwaffe in ww2",
            "Hermann Göring",
            "Hermann Göring led the Luftwaffe in the Second World War.",
            None,
        ),
        # a count describing the subject, not a numbered thing
        (
            "the rule of the three rightly guided caliphs was called",
            "Rashidun",
            "The Rashidun Caliphs ruled after Muhammad.",
            None,
        ),
        # "last" stated by a range's end
        (
            "when was the last time tug of war was in the olympics",
            "1920",
            "Tug of war was in the Olympics from 1900 to 1920.",
            None,
        ),
    ],
)
def test_stated_term_in_another_form_passes(query, answer, context, title):
    assert _weak(query, answer, context, title) is None
