"""MissingInfo LOW levers that trim a detail inside a sentence: the month and day of a date, a city's name."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic
from refusalbench.perturb.levers_missing_trim import _ORDER_QUESTION, _PLACE_QUESTION, _TIME_QUESTION

TRIM = "Trim Month but Keep Year"
CITY = "Remove City Phrase"

SONG = {
    "source_id": "trim",
    "query": "who sang the song holiday road",
    "answers": ["Lindsey Buckingham"],
    "context": "Holiday Road is a song by Lindsey Buckingham. It was released as a single on 3 May 1983 by "
    "Warner Bros. Records. The song was written for the film National Lampoon's Vacation.",
}
QUOTED = (
    'Holiday Road is a song by Lindsey Buckingham. He said: "It came out as a single on 3 May 1983, and I was '
    "glad.\" The song was written for the film National Lampoon's Vacation."
)
BAND = {
    "source_id": "city",
    "query": "who is the lead singer of the band the pale lanterns",
    "answers": ["Mara Quill"],
    "context": "The Pale Lanterns are a rock band formed in Lyon, France. Their lead singer is Mara Quill. "
    "The band has toured widely with its records.",
}


def _run(row: dict, lever: str) -> str:
    out = generate_programmatic(row, tx.MISSING_INFO, tx.LOW, 0, DistractorPool.from_base([row]), lever=lever)
    return out["perturbed_context"]


def test_a_date_keeps_its_year_and_the_answer():
    text = _run(SONG, TRIM)
    assert "released as a single in 1983 by Warner Bros. Records." in text
    assert "May" not in text and "Lindsey Buckingham" in text


@pytest.mark.parametrize(
    "date, trimmed",
    [
        ("on May 3, 1983, by Warner Bros. Records", "in 1983 by Warner Bros. Records"),  # the date's own comma goes
        ("in May 1983 by Warner Bros. Records", "in 1983 by Warner Bros. Records"),
    ],
)
def test_every_date_form_reads_as_a_year(date, trimmed):
    row = dict(SONG, context=SONG["context"].replace("on 3 May 1983 by Warner Bros. Records", date))
    assert trimmed in _run(row, TRIM)


def test_a_sentence_that_opens_on_the_date_keeps_its_comma():
    row = dict(SONG, context=SONG["context"] + " On June 2, 1984, the band played it live in Chicago.")
    row["context"] = row["context"].replace(" It was released as a single on 3 May 1983 by Warner Bros. Records.", "")
    assert "In 1984, the band played it live" in _run(row, TRIM)


@pytest.mark.parametrize(
    "change",
    [
        {"answers": ["Lindsey Buckingham", "May 1983"]},  # an answer holds the month
        {"context": SONG["context"] + " Two days later it entered the charts."},  # counts days from the date
        {"context": SONG["context"] + " The film opened in 1983."},  # the year dates another event
        {"context": SONG["context"].replace("as a single", "as the band's only single")},  # the date scopes "only"
        {"context": QUOTED},  # inside a quotation
    ],
)
def test_the_date_trim_declines(change):
    with pytest.raises(NotApplicable):
        _run(dict(SONG, **change), TRIM)


def test_a_city_gives_way_to_its_country():
    text = _run(BAND, CITY)
    assert "a rock band formed in France." in text and "Lyon" not in text


@pytest.mark.parametrize(
    "change",
    [
        {"query": "who was the singer of the pale lanterns from the start"},  # a place question ("from")
        {"context": BAND["context"].replace("a rock band", "the largest rock band")},  # scopes a ranking
        {"context": BAND["context"] + " Lyon named a street after them."},  # named again
        {"context": BAND["context"] + " The city named a street after them."},  # pointed at again
        {"context": BAND["context"].replace("formed in Lyon, France", "popular in Spain, France and Italy")},
        # the country stays named beside it: "a French band formed in France" (thirty-sixth review, R051)
        {"context": BAND["context"].replace("a rock band", "a French rock band")},
        {"context": BAND["context"].replace("a rock band", "a rock band touring France,")},
        {
            "context": BAND["context"]
            .replace("a rock band formed", "a band of the Conservatoire in")
            .replace("in in", "in")
        },  # part of a name
    ],
)
def test_the_city_trim_declines(change):
    with pytest.raises(NotApplicable):
        _run(dict(BAND, **change), CITY)


@pytest.mark.parametrize(
    "query, time, place",
    [
        ("when was the song holiday road released", True, False),
        ("what year did the band form", True, False),
        ("who sang holiday road in july", True, False),
        ("who was the first singer of the band", True, False),  # an order in time
        ("where was the band formed", False, True),
        ("who is the singer from the band", False, True),
        ("who sang the song holiday road", False, False),
    ],
)
def test_questions_about_the_trimmed_detail_are_told_apart(query, time, place):
    assert bool(_TIME_QUESTION.search(query) or _ORDER_QUESTION.search(query)) is time
    assert bool(_PLACE_QUESTION.search(query)) is place


@pytest.mark.parametrize(
    "phrase, trimmed",
    [
        ("formed in Lyon, France, that", "formed in France that"),  # the comma only closed "Lyon, France,"
        ("formed in Lyon, France, where", "formed in France, where"),  # it sets off a clause
        ("formed in Lyon, France, playing", "formed in France, playing"),  # or a phrase
        ("formed in Lyon, France, the previous autumn", "formed in France the previous autumn"),  # thirty-sixth R038
    ],
)
def test_the_comma_after_a_city_goes_only_with_its_pair(phrase, trimmed):
    context = BAND["context"].replace("formed in Lyon, France.", phrase + " the critics liked.")
    assert trimmed in _run(dict(BAND, context=context), CITY)
