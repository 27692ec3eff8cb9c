"""MissingInfo MEDIUM: the phrase that dates a "when" question's answer removed, the event kept."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic

LEVER = "Missing Temporal Adjunct"
SONG = {
    "source_id": "adjunct",
    "query": "when was the song holiday road released",
    "answers": ["3 May 1983"],
    "context": "Holiday Road is a song by Lindsey Buckingham. It was released as a single on 3 May 1983 by "
    "Warner Bros. Records. The song was written for the film National Lampoon's Vacation.",
}


def _run(**change) -> str:
    row = dict(SONG, **change)
    out = generate_programmatic(row, tx.MISSING_INFO, tx.MEDIUM, 0, DistractorPool.from_base([row]), lever=LEVER)
    return out["perturbed_context"]


def _with(sentence: str) -> str:
    return SONG["context"].replace("It was released as a single on 3 May 1983 by Warner Bros. Records.", sentence)


def test_the_dating_phrase_goes_and_the_event_stays():
    text = _run()
    assert "It was released as a single by Warner Bros. Records." in text
    assert "1983" not in text and "Lindsey Buckingham" in text


@pytest.mark.parametrize(
    "sentence, left",
    [
        ("On 3 May 1983, Warner Bros. Records released it.", "Warner Bros. Records released it."),
        ("It was released on May 3, 1983, by Warner Bros. Records.", "It was released by Warner Bros. Records."),
        ("It was released, on 3 May 1983, as a single.", "It was released as a single."),
        ("Warner Bros. Records released it in May 1983, reaching many stores.", "released it, reaching many"),
    ],
)
def test_commas_are_mended_with_the_cut(sentence, left):
    answers = ["May 3, 1983"] if "May 3" in sentence else ["May 1983"] if "in May" in sentence else ["3 May 1983"]
    assert left in _run(context=_with(sentence), answers=answers)


@pytest.mark.parametrize(
    "change",
    [
        {"query": "holiday road single release date"},  # not a "when" question
        {"context": SONG["context"] + " It was reissued in 1999."},  # another year would date it again
        {"context": SONG["context"] + " It charted that June."},  # a month
        {"context": SONG["context"] + " It was a hit during the Cold War."},  # a named era
        {"context": SONG["context"] + " It was one of the finest records of the 1980s."},  # a decade (R012)
        {"context": SONG["context"] + " It was heard on radio in the 80s."},
        {"context": SONG["context"] + " It was written during the Gold Rush revival."},  # a named era (R027)
        {"context": _with("It was released on 3 May 1983.")},  # "It was released." says almost nothing
        {"context": _with("It was released on 3 May 1983 and written by him.")},  # "released and written"
        {"context": _with('He said: "It came out on 3 May 1983 on a Tuesday, and I was glad."')},  # a quotation
    ],
)
def test_the_cut_declines(change):
    with pytest.raises(NotApplicable):
        _run(**change)
