"""Contradiction gates (issue #10): a well-formed rival, no answer left uncontested, no clash the passage settles."""

from __future__ import annotations

import re

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic

HIGH, MEDIUM, LOW = tx.HIGH, tx.MEDIUM, tx.LOW
DATES, PERIPHERAL = (
    "Dual-authoritative Dates",
    "Peripheral Attribute Clash",
)


def row(query, answers, context, sid="x"):
    return {"source_id": sid, "query": query, "answers": answers, "context": context}


def gen(r, intensity, lever):
    return generate_programmatic(r, tx.CONTRADICTION, intensity, 0, DistractorPool.from_base([r]), lever=lever)


def added(r, out):
    old = set(re.split(r"(?<=\.)\s+", r["context"]))
    return " ".join(s for s in re.split(r"(?<=\.)\s+", out["perturbed_context"]) if s not in old)


def test_contradiction_high_has_no_rule_based_lever():
    # the tenfold count clash left the rotation (thirty-first review: 6 of 15 valid); a count that gave it items
    r = row(
        "how many breweries are there in the harrow valley",
        ["forty"],
        "The Harrow Valley is a wine and beer region in the north of the country. There are forty registered breweries "
        "in the valley.",
    )
    with pytest.raises(NotApplicable, match="no programmatic"):
        gen(r, HIGH, None)


def test_date_clash_keeps_the_passage_chronology():
    r = row(
        "when did the new season start",
        ["September 19, 2017"],
        "The network renewed the show in 2016. The new season premiered on September 19, 2017.",
    )
    # 2014-2016 would meet or pass the renewal, 2019-2020 lie in the future: only 2018 is left
    assert "premiered on September 19, 2018" in added(r, gen(r, MEDIUM, DATES))


@pytest.mark.parametrize(
    "r",
    [
        # another sentence still states the answer, uncontested
        row(
            "when did the game come out",
            ["8 September 2010"],
            "The game was planned for an 8 September 2010 release. It was released on 8 September 2010.",
        ),
        # the date is tied to another event
        row(
            "when did korea separate",
            ["1945"],
            "The division of Korea occurred after World War II, ending Japan's rule over Korea in 1945.",
        ),
        # "also won": a 1993 win would not exclude the 1996 one; and the year opens a name
        row("when did brent barry win the dunk contest", ["1996"], "He also won the 1996 NBA Slam Dunk Contest."),
        # a periodic event: a World Cup moved by a year never was
        row("when did scotland last qualify", ["1998"], "Scotland qualified for the World Cup in 1998."),
        # two months in one date ("in March April 2018")
        row(
            "when did south sudan join the community",
            ["April 2016", "2016"],
            "South Sudan was approved for membership in March 2016 and signed a treaty in April 2016.",
        ),
    ],
)
def test_date_clash_declines_an_uncontested_or_settled_answer(r):
    with pytest.raises(NotApplicable):
        gen(r, MEDIUM, DATES)


def test_peripheral_clash_is_out_of_rotation():
    # two blind reviews found 1 of 7 and 0 of 6 of its items valid
    r = row(
        "who plays alec ramsay in the black stallion",
        ["Kelly Reno"],
        "Kelly Reno played Alec Ramsay in The Black Stallion. The pilot aired on December 19, 1971.",
    )
    with pytest.raises(NotApplicable, match="no programmatic implementation"):
        gen(r, LOW, PERIPHERAL)


def test_date_clash_declines_a_year_inside_a_name():
    r = row("when did it last snow on christmas day", ["2009"], "Christmas 2009 was a white Christmas in Britain.")
    for intensity, lever in ((MEDIUM, DATES), (LOW, "Fringe vs. Official Source")):
        with pytest.raises(NotApplicable):  # "Christmas 2011 was a white Christmas" would not contradict it
            gen(r, intensity, lever)


def test_clash_needs_an_answer_sentence_about_the_question():
    r = row("how many nuclear power plants in washington state", ["3"], "The following 3 pages are in this category.")
    for intensity, lever in ((LOW, "Fringe vs. Official Source"), (MEDIUM, "Equal-standing Value Clash")):
        with pytest.raises(NotApplicable):
            gen(r, intensity, lever)


STATION = (
    "Kelmore Cross is a railway station in the north of the city. The station has six platforms, four of them "
    "through platforms and two bay platforms used by terminating services. It opened in 1868."
)


def test_a_rival_count_declines_where_the_answer_sentence_counts_its_parts():
    # "four of them through platforms and two bay platforms" add up to the stated six against any rival
    r = row("how many platforms are at kelmore cross station", ["six platforms", "six"], STATION)
    with pytest.raises(NotApplicable, match="parts of the same"):
        gen(r, MEDIUM, "Equal-standing Value Clash")


def test_a_measure_beside_another_measure_in_the_same_unit_is_no_part_of_it():
    context = (
        "The Tamar Brook is a stream of the northern lowlands. It is twelve kilometres long and drains an area of "
        "forty square kilometres of marsh."
    )
    r = row("how long is the tamar brook", ["twelve kilometres"], context)
    assert "kilometres long" in added(r, gen(r, MEDIUM, "Equal-standing Value Clash"))
