"""Restatement and coarsening gates: a rival copies only a short core of the answer sentence and dates the same
thing; a decade or century stands alone, with nothing left that dates it more exactly; no capital after "U.S."."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.generation import semantic as sm
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic

DATES, FRINGE, COARSER = "Dual-authoritative Dates", "Fringe vs. Official Source", "Answer Stated One Level Coarser"


def row(query, answers, context):
    return {"source_id": "r", "query": query, "answers": answers, "context": context}


def gen(r, cls, intensity, lever):
    return generate_programmatic(r, cls, intensity, 0, DistractorPool.from_base([r]), lever=lever)


SHORT = row("when did the album come out", ["May 3, 2005"], "The album was released on May 3, 2005.")


@pytest.mark.parametrize("lever, intensity", [(DATES, tx.MEDIUM), (FRINGE, tx.LOW)])
def test_short_core_is_restated(lever, intensity):
    out = gen(SHORT, tx.CONTRADICTION, intensity, lever)
    assert "that the album was released on May 3, 200" in out["perturbed_context"]


@pytest.mark.parametrize(
    "r",
    [
        # a clause after the value copied word for word
        row(
            "when did the album come out",
            ["May 3, 2005"],
            "The album was released on May 3, 2005, through Island Records as the band's major label debut.",
        ),
        # an appositive copied word for word
        row(
            "when does the eighth season of blue bloods start",
            ["September 29, 2017"],
            "The eighth season of Blue Bloods, a police drama, premiered on September 29, 2017.",
        ),
        # more than 18 words
        row(
            "when was the first season released",
            ["March 31, 2017"],
            "The first season and the special documentary about the making of the show were released worldwide "
            "on the service on March 31, 2017.",
        ),
        # the year names another period, not the date of the event ("2017 season")
        row(
            "when was the last time the eagles were at the super bowl",
            ["2017"],
            "The Eagles last reached the Super Bowl in their 2017 season.",
        ),
        # a time frame: "revenue for 2008"
        row("when did the company post its record revenue", ["2008"], "The company posted record revenue for 2008."),
    ],
)
@pytest.mark.parametrize("lever, intensity", [(DATES, tx.MEDIUM), (FRINGE, tx.LOW)])
def test_long_copy_or_another_time_frame_is_declined(r, lever, intensity):
    with pytest.raises(NotApplicable, match="restated sentence would copy|year qualifies|time frame"):
        gen(r, tx.CONTRADICTION, intensity, lever)


def test_no_capital_after_an_abbreviation():
    r = row("when did they stop making the xterra", ["2015"], "The Xterra was discontinued in the U.S. after 2015.")
    out = gen(r, tx.CONTRADICTION, tx.LOW, FRINGE)
    assert "U.S. After" not in out["perturbed_context"] and "in the U.S. after 201" in out["perturbed_context"]


def test_detector_flags_a_capital_after_an_abbreviation():
    original = "The Xterra was discontinued in the U.S. after the 2015 model year."
    bad = original + " A forum post claims that the Xterra was discontinued in the U.S. After the 2014 model year."
    good = original + " A forum post claims that the Xterra was discontinued in the U.S. after the 2014 model year."
    q, a = "when did they stop making the xterra", ["2015"]

    def cand(context):
        return sm.Candidate(tx.CONTRADICTION, tx.LOW, q, q, [original], [context], a)

    assert "broken_capitalisation" in [n for n, _ in sm.detect(cand(bad))]
    assert "broken_capitalisation" not in [n for n, _ in sm.detect(cand(good))]
    # a passage replaced whole keeps its source's own sentence break after "D.C."
    replaced = "The museum opened in Washington, D.C. It was designed by a team of architects from the city."
    assert "broken_capitalisation" not in [n for n, _ in sm.detect(cand(replaced))]


def test_coarsening_keeps_a_lone_date():
    r = row("when was the prize first awarded", ["1901"], "The prize was first awarded in 1901 to a French poet.")
    out = gen(r, tx.GRANULARITY, tx.MEDIUM, COARSER)
    assert "in the 20th century" in out["perturbed_context"]


@pytest.mark.parametrize(
    "query, answer, context, why",
    [
        # another year stays for a reader to latch on
        (
            "when did the trashmen release the bird song",
            "1963",
            "The Trashmen followed up their 1962 hit with the similar bird song in 1963.",
            "another year",
        ),
        # one end of a range stays exact
        (
            "when was the last episode of the series aired",
            "March 10, 2017",
            "The series aired its first episode on September 10, 2009 and its last episode on March 10, 2017.",
            "another",
        ),
        # the sentence refers back to the exact value
        (
            "when did russia join the political forum",
            "1997",
            "Russia was added to the political forum in 1997, which the following year became known as the G8.",
            "refers back",
        ),
        # a span of years gives the answer back with another date
        (
            "when did the hockey team win gold",
            "2018",
            "The hockey team won gold in 2018, ending their 20-year drought.",
            "span of years",
        ),
    ],
)
def test_coarsening_declines_what_still_dates_the_answer(query, answer, context, why):
    with pytest.raises(NotApplicable, match=why):
        gen(row(query, [answer], context), tx.GRANULARITY, tx.MEDIUM, COARSER)


def test_coarsened_year_keeps_the_preposition_a_stated_answer_carries():
    # the gold answers "1931" and "In 1931": the longer one matched "in 1931" whole and lost its "in"
    context = (
        "The state legislature legalized gambling at the local level in 1931. The town was poised to grow. "
        "The county issued the first gambling license in 1931 to the Northern Club."
    )
    row = {"source_id": "lv", "query": "when did las vegas become a gambling town", "answers": ["1931", "In 1931"]}
    row["context"] = context
    out = generate_programmatic(
        row, tx.GRANULARITY, tx.MEDIUM, 0, DistractorPool.from_base([row]), lever="Answer Stated One Level Coarser"
    )
    assert "at the local level in the 20th century." in out["perturbed_context"]
    assert "license in the 20th century to" in out["perturbed_context"]
