"""Fifty-ninth blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import re

import pytest

from refusalbench import taxonomy as tx
from refusalbench.generation import semantic as sm
from refusalbench.perturb import NotApplicable
from tests.perturb.test_contradiction_gates import added
from tests.perturb.test_perturb_review14 import _generate as _run
from tests.perturb.test_perturb_review14 import _row

RIVALS = [_row(f"how many cantons are in region {n}", [str(n)], f"Region {n} has {n} cantons.", f"p{n}") for n in (47,)]


def test_an_equal_standing_clash_restates_the_count_and_its_noun_only():
    # R016: the added source repeated "fewer than C++ or Rust, relying on its standard library ..." word for word
    row = _row(
        "how many keywords does the ferro programming language have",
        ["31"],
        "Ferro is a systems programming language first released in 2014. The language deliberately keeps a small core "
        "of 31 reserved keywords, fewer than C++ or Rust, relying on its standard library for most higher-level "
        "features. Version 2.0 introduced an ownership-based memory model.",
    )
    statement = added(row, _run(row, tx.CONTRADICTION, tx.MEDIUM, "Equal-standing Value Clash", RIVALS))
    assert re.search(r"a small core of 47 reserved keywords\.$", statement)
    assert "fewer than" not in statement


def test_a_rival_figure_takes_thousands_separators_where_the_passage_has_no_bare_figure():
    # R084: "the hotel has 1024 rooms and suites"
    rivals = [_row("how many rooms in the other hotel", ["1024"], "The other hotel has 1024 rooms.", "p1")]
    row = _row(
        "how many rooms does the hotel marquesa have",
        ["640"],
        "The Hotel Marquesa is a hotel in Lima, Peru, opened in 1928. The hotel has 640 rooms. It was refurbished "
        "after the 1985 earthquake.",
    )
    assert "has 1,024 rooms." in added(
        row, _run(row, tx.CONTRADICTION, tx.MEDIUM, "Equal-standing Value Clash", rivals)
    )


def test_a_short_restatement_of_a_rival_count_contests_the_answer():
    # "it is made up of 31 seats." shares few words with the answer sentence but disputes its count
    original = "The council is made up of 47 seats, with councillors elected every four years from single divisions."
    contested = sm.Candidate(
        tx.CONTRADICTION,
        tx.MEDIUM,
        "how many seats are on the council",
        "how many seats are on the council",
        [original],
        [original + " However, an equally authoritative source states that it is made up of 31 seats."],
        ["47 seats"],
    )
    assert "answer_uncontested" not in [n for n, _ in sm.detect(contested)]
    other_noun = sm.Candidate(
        tx.CONTRADICTION,
        tx.MEDIUM,
        "how many seats are on the council",
        "how many seats are on the council",
        [original],
        [original + " However, a source states that it has 31 committees."],
        ["47 seats"],
    )
    assert "answer_uncontested" in [n for n, _ in sm.detect(other_noun)]


FILM = _row(
    "when was ashes of august released",
    ["April 14, 1997"],
    "Ashes of August is a song by the American singer Kellan Voss. It was released on April 14, 1997{tail}",
)


def test_coarsening_declines_a_date_dated_within_its_year():
    # R040: "during the summer of 1997" became "during the summer of the 1990s"
    row = dict(FILM, answers=["April 14, 1997", "1997"])
    row["context"] = FILM["context"].format(tail=". Its video was shown on MTV during the summer of 1997.")
    with pytest.raises(NotApplicable, match="within the year"):
        _run(row, tx.GRANULARITY, tx.MEDIUM, "Answer Stated One Level Coarser")


def test_coarsening_takes_the_comma_that_closed_a_written_out_date():
    # R024: "released in the 1990s, by Keystone Pictures"
    row = dict(FILM, context=FILM["context"].format(tail=", by Crestline Records. It reached number 12 on the chart."))
    out = _run(row, tx.GRANULARITY, tx.MEDIUM, "Answer Stated One Level Coarser")["perturbed_context"]
    assert "released in the 1990s by Crestline Records." in out


GAME = _row(
    "when was hollow orchard released",
    ["November 4, 2014"],
    "Hollow Orchard is an adventure game by the Estonian studio Kuusk Games. It was released for Microsoft Windows "
    "on November 4, 2014{tail}",
)


def test_the_temporal_cut_declines_where_its_sentence_counts_from_the_date():
    # R026: "for Windows and OS X and for PlayStation 4 in the following year"
    row = dict(GAME, context=GAME["context"].format(tail=", and for PlayStation 4 in the following year."))
    with pytest.raises(NotApplicable, match="counts from the removed date"):
        _run(row, tx.MISSING_INFO, tx.MEDIUM, "Missing Temporal Adjunct")
    # in a later sentence "the following year" was judged valid four times: the cut stays
    later = dict(GAME, context=GAME["context"].format(tail=". It won a national award the following year."))
    out = _run(later, tx.MISSING_INFO, tx.MEDIUM, "Missing Temporal Adjunct")["perturbed_context"]
    assert "released for Microsoft Windows. It won" in out


SONG = _row(
    "when did borrowed thunder come out",
    ["1974"],
    '"Borrowed Thunder" is a song by the American hard rock band Greywater Union. {sentence} Leon Baptiste, the '
    "band's guitarist, wrote its riff in a single afternoon, and the band played it at every concert for a decade.",
)


def test_a_date_purge_declines_where_the_dated_event_has_other_facts():
    # R034: the first single, the third album and the record label went with the year
    row = dict(
        SONG,
        context=SONG["context"].format(
            sentence="It was released in 1974 as the first single from their third album, Ohio River Sessions, on "
            "Crestline Records."
        ),
    )
    with pytest.raises(NotApplicable, match="other facts of the dated event"):
        _run(row, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")
    bare = dict(SONG, context=SONG["context"].format(sentence="It was first released in 1974."))
    out = _run(bare, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")["perturbed_context"]
    assert "1974" not in out and "Greywater Union. Leon Baptiste" in out


def test_coarsening_keeps_the_comma_that_closes_an_opening_phrase():
    # the sixtieth review's R043: "First published in the 1980s it is aimed ..." lost the comma it needs
    row = _row(
        "when did pusula magazine first come out",
        ["March 1, 1981"],
        "Pusula is a Turkish monthly science magazine for young readers with a circulation of about 45,000 copies. "
        "First published on March 1, 1981, the Pusula magazine is aimed mainly at high school students.",
    )
    out = _run(row, tx.GRANULARITY, tx.MEDIUM, "Answer Stated One Level Coarser")["perturbed_context"]
    assert "First published in the 1980s, the Pusula magazine is aimed" in out


def test_a_count_clash_still_reads_the_whole_answer_sentence():
    # the sixtieth review's R009: "served from 2010 to 2018" settles a rival "five years" that the short restatement
    # no longer showed beside it
    rivals = [_row("how long was the other minister in office", ["five years"], "He served five years.", "p5")]
    row = _row(
        "how long was helena vasko minister of transport",
        ["eight years"],
        "Helena Vasko is a Slovak politician. She served as Minister of Transport for eight years, from 2010 to "
        "2018, and oversaw the motorway towards the Ukrainian border. She now teaches at a university in Győr.",
    )
    with pytest.raises(NotApplicable):
        _run(row, tx.CONTRADICTION, tx.MEDIUM, "Equal-standing Value Clash", rivals)
