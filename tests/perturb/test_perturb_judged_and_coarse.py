"""The evaluative levers decline a passage that already judges its subject, and the coarsening lever declines
a passage that keeps another exact year or date next to the coarsened answer; each accepts the good case."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic

COARSER = "Answer Stated One Level Coarser"


def _gen(row, cls, intensity, lever):
    return generate_programmatic(row, cls, intensity, 0, DistractorPool.from_base([row]), lever=lever)


NOVEL = {
    "source_id": "c22",
    "query": "who wrote catch 22",
    "answers": ["Joseph Heller"],
    "title": "Catch-22",
    "context": "Catch-22 is a satirical novel by American author Joseph Heller. He began writing it in 1953; "
    "the novel was first published in 1961. It uses a non-chronological third-person narration.",
}
JUDGED = " Often cited as one of the most significant novels of the twentieth century, it is widely read."


@pytest.mark.parametrize(
    "intensity, lever", [(tx.MEDIUM, "Quality Ranking without Benchmark"), (tx.HIGH, "Most Beautiful Aspect")]
)
def test_evaluative_levers_decline_a_passage_that_judges_its_subject(intensity, lever):
    assert _gen(NOVEL, tx.EPISTEMIC, intensity, lever)["perturbed_query"]
    judged = dict(NOVEL, context=NOVEL["context"] + JUDGED)
    with pytest.raises(NotApplicable, match="already judges"):
        _gen(judged, tx.EPISTEMIC, intensity, lever)


@pytest.mark.parametrize(
    "row",
    [
        {  # "followed up their 1962 hit ... in the 20th century": the other year keeps the answer close
            "source_id": "bird",
            "query": "when did surfin bird come out",
            "answers": ["1963"],
            "title": "Surfin' Bird",
            "context": "Surfin' Bird is a song by the Trashmen. The band followed up their 1962 hit "
            '"Bird Dance Beat" with "Surfin\' Bird", released in 1963.',
        },
        {  # "ran from September 10, 2009 to the 2010s": a range with one exact end
            "source_id": "vd",
            "query": "when was the last episode of the vampire diaries aired",
            "answers": ["March 10, 2017"],
            "title": "The Vampire Diaries",
            "context": "The Vampire Diaries is an American television series. It ran on The CW from "
            "September 10, 2009 to March 10, 2017, the date its last episode aired.",
        },
    ],
)
def test_coarsening_declines_another_exact_date_near_the_answer(row):
    with pytest.raises(NotApplicable, match="still states another year"):
        _gen(row, tx.GRANULARITY, tx.MEDIUM, COARSER)


def test_coarsening_passes_a_date_stated_alone():
    row = {
        "source_id": "bird2",
        "query": "when did surfin bird come out",
        "answers": ["1963"],
        "title": "Surfin' Bird",
        "context": "Surfin' Bird is a song by the Trashmen, an American surf rock band. It was released in 1963.",
    }
    out = _gen(row, tx.GRANULARITY, tx.MEDIUM, COARSER)
    assert "1963" not in out["perturbed_context"]


@pytest.mark.parametrize(
    "context, why",
    [
        (  # a stated decade narrows the century back towards the year
            "The Ninja Turtles first appeared in a comic book published in 1984. It parodied popular comics of "
            "the early 1980s.",
            "states a decade",
        ),
        ("The Ninja Turtles comic book is scheduled to be published on May 3, 2019.", "scheduled date"),
    ],
)
def test_coarsening_declines_a_stated_decade_or_a_scheduled_date(context, why):
    answer = "May 3, 2019" if "scheduled" in context else "1984"
    row = {
        "source_id": "tmnt",
        "query": "when did the ninja turtles comic come out",
        "answers": [answer],
        "context": context,
    }
    with pytest.raises(NotApplicable, match=why):
        _gen(row, tx.GRANULARITY, tx.MEDIUM, COARSER)
