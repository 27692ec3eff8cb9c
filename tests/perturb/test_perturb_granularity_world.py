"""Granularity HIGH "Global Average from Street Data": the world's average asked of one instance's count."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_perturb_review14 import _generate, _row

LEVER = "Global Average from Street Data"


def _world(query, answers, context, title=None):
    row = _row(query, answers, context)
    if title:
        row["title"] = title
    return _generate(row, tx.GRANULARITY, tx.HIGH, LEVER)


HOSPITAL = (
    "Ridgemont General Hospital is a public teaching hospital in Hamilton, Ontario, Canada. Opened in 1921, "
    "Ridgemont General has 612 beds and is affiliated with the city's medical school."
)


@pytest.mark.parametrize(
    "query, answers, context, title, asked",
    [
        (
            "how many beds does ridgemont general hospital have",
            ["612 beds"],
            HOSPITAL,
            None,
            "How many beds does the average hospital in the world have?",
        ),
        (
            "how many islands in vaskijarvi lake",
            ["1,412"],
            "Vaskijärvi is a lake in the Southern Savonia region of Finland. The lake contains 1,412 islands and was "
            "dammed in 1961.",
            None,
            "How many islands does the average lake in the world have?",
        ),
        (
            "how many passengers can the aurelia nord carry",
            ["1,850 passengers"],
            "MS Aurelia Nord is a cruiseferry operated by Aurelia Line between Helsinki and Tallinn. Built in 2009, "
            "she can carry 1,850 passengers.",
            None,
            "How many passengers can the average cruiseferry in the world carry?",
        ),
        (
            "how many seats does the teatro castellane have",
            ["1,140 seats"],
            "The Teatro Castellane is an opera house in Trieste, Italy. It opened in 1884 and has 1,140 seats.",
            None,
            "How many seats does the average opera house in the world have?",
        ),
        # the kind is the castle, not the village it stands above
        (
            "how many towers does burg falkenrode have",
            ["13 towers"],
            "Burg Falkenrode is a ruined hilltop castle above the village of Hainbach. Burg Falkenrode has 13 towers.",
            None,
            "How many towers does the average castle in the world have?",
        ),
        # no kind in the opening: the title's, where the passage calls its subject by it
        (
            "how many levels are there on the hallam tower",
            ["three"],
            "Designed by Ada Vesk, it was finished in 1911. The tower has three levels for visitors, with a cafe on "
            "the first.",
            "Hallam Tower",
            "How many levels does the average tower in the world have?",
        ),
    ],
)
def test_asks_the_worlds_average_of_one_instances_count(query, answers, context, title, asked):
    assert _world(query, answers, context, title)["perturbed_query"] == asked


@pytest.mark.parametrize(
    "query, answers, context, title",
    [
        # an average, a world comparison or a second figure of the counted thing is in the passage
        (
            "how many beds does ridgemont general hospital have",
            ["612 beds"],
            HOSPITAL + " The average hospital in the province has 240 beds.",
            None,
        ),
        (
            "how many beds does ridgemont general hospital have",
            ["612 beds"],
            HOSPITAL + " It is one of the largest hospitals in the world.",
            None,
        ),
        (
            "how many beds does ridgemont general hospital have",
            ["612 beds"],
            HOSPITAL + " Its children's wing adds 80 beds.",
            None,
        ),
        # a past count of an event, a streak, not a standing count
        (
            "how many titles in a row did drina zvornik win",
            ["12"],
            "FK Drina Zvornik is a football club based in Zvornik. The club won 12 titles in a row.",
            None,
        ),
        # the title's last word is no kind of the subject: an album named after a harbour
        (
            "how many songs are on nocturnes for an empty harbour",
            ["14 songs"],
            "Nocturnes for an Empty Harbour is the debut album by Hekla Ragnarsdottir. It has 14 songs.",
            "Nocturnes for an Empty Harbour",
        ),
        # the kind word is the first of two ("a ferry and fast-craft operator")
        (
            "how many ships does nordlys ferjeselskap have",
            ["22 ships"],
            "Nordlys Ferjeselskap AS is a Norwegian ferry and fast-craft operator based in Bodo. It has 22 ships.",
            None,
        ),
        # the answer is no count
        (
            "how many doses of the orvexa vaccine do you need",
            ["a single dose"],
            "Orvexa is a live vaccine against Rift Valley fever. It is given as a single dose.",
            None,
        ),
    ],
)
def test_declines_where_the_passage_or_question_does_not_fit(query, answers, context, title):
    with pytest.raises(NotApplicable):
        _world(query, answers, context, title)
