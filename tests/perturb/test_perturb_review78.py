"""Seventy-eighth blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import random

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from refusalbench.perturb.distractors import DistractorPool
from refusalbench.perturb.engine import make_item
from tests.perturb.test_perturb_review14 import _generate, _row


def test_a_short_participle_opener_is_not_put_after_that():
    # R044: "Another source rounds the figure, stating that fed by meltwater from the Bruvald plateau, the falls ..."
    row = _row("how tall is bruvaldsfossen", ["312 metres"], "The falls have a total drop of 312 metres.")
    item = make_item(row, DistractorPool.from_base([row]), False, random.Random(0))
    with pytest.raises(NotApplicable, match="participle"):
        item.embedded("Fed by meltwater from the Bruvald plateau, the falls have a total drop of 310 metres.")


SONG = (
    '"When the Rain Comes" is a 1976 highlife song by the Nigerian musician Femi Adeyemo {act}. Released on the '
    "Afrodisc label, the song became a hit across West Africa."
)


def test_the_band_member_question_declines_an_act_named_for_its_leader():
    # R062: "Which member of the band sang the lead vocal on ...?" of "Femi Adeyemo and his band"
    row = _row("who sang when the rain comes", ["Femi Adeyemo"], SONG.format(act="and his band, the Ikoyi Stars"))
    row["title"] = "When the Rain Comes"
    with pytest.raises(NotApplicable, match="his/her"):
        _generate(row, tx.GRANULARITY, tx.MEDIUM, "Part-of-part Detail")


def test_the_band_member_question_quotes_the_title_as_the_passage_writes_it():
    context = '"When the Rain Comes" is a 1976 highlife song by the Nigerian band Ikoyi Stars.'
    row = _row("who sang when the rain comes", ["Ikoyi Stars"], context)
    row["title"] = "When the Rain Comes"
    query = _generate(row, tx.GRANULARITY, tx.MEDIUM, "Part-of-part Detail")["perturbed_query"]
    assert query.endswith('on "When the Rain Comes"?')


STATION = (
    "Muehlengrund station is a railway station in the south of Leipzig, Germany. Opened in 1913 as a freight and "
    "passenger station, it was rebuilt in 2013. The station has six platforms, two of which are used only by "
    "trains terminating at the station."
)


def test_a_rival_count_that_the_stated_parts_reconcile_is_declined():
    # R060: a rival "four platforms" against "six platforms, two of which are used only by terminating trains"
    row = _row("how many platforms does muehlengrund station have", ["six platforms", "six"], STATION)

    def clash(*rivals):
        pool = [_row(f"q{n}", [f"{n} platforms"], f"It has {n} platforms.", sid=f"p{n}") for n in rivals]
        return _generate(row, tx.CONTRADICTION, tx.MEDIUM, "Equal-standing Value Clash", pool)

    for rival in (4, 8):
        with pytest.raises(NotApplicable, match="part the passage counts"):
            clash(rival)
    assert "the station has eleven platforms." in clash(11)["perturbed_context"]


# -- the eightieth review ---------------------------------------------------------------------------------------


TORNADO = (
    "The Mafra tornado struck the town of Mafra in Santa Catarina, Brazil, on the evening of 25 September 1984. "
    "Travelling some 23 kilometres, it destroyed more than 400 houses."
)
FESTIVAL = (
    "The Saint-Eloi Fiddle Festival is an annual folk music festival in Saint-Eloi, Quebec. It was first held in "
    "1967, when local musicians organised a contest to mark Canada's centennial. It now draws about 8,000 visitors."
)


@pytest.mark.parametrize(
    "query, answers, context, why",
    [
        # R030: "on the evening of the 1980s"
        ("when did the tornado hit mafra", ["25 September 1984"], TORNADO, "time of day"),
        # R099: "to mark Canada's centennial" gives 1967 back
        ("when did the saint eloi fiddle festival start", ["1967"], FESTIVAL, "anniversary"),
    ],
)
def test_coarsening_declines_a_time_of_day_and_an_anniversary(query, answers, context, why):
    with pytest.raises(NotApplicable, match=why):
        _generate(_row(query, answers, context), tx.GRANULARITY, tx.MEDIUM, "Answer Stated One Level Coarser")
    plain = context.replace("the evening of ", "").replace(" to mark Canada's centennial", "")
    out = _generate(_row(query, answers, plain), tx.GRANULARITY, tx.MEDIUM, "Answer Stated One Level Coarser")
    assert answers[0] not in out["perturbed_context"]
    assert "the 1980s" in out["perturbed_context"] or "the 20th century" in out["perturbed_context"]
