"""Gates added after the fourteenth blind review (unseen items over 13 cells). Each declines a hand-made bad item
and still edits a good one:

- MissingInfo HIGH: no sentence left opening on "In both venues" once the sentence naming them went, and no
  purge where the query names the answer among its options;
- MissingInfo LOW: a bracket giving the figure before it in other units stays;
- Contradiction: no restated sentence that points into its own page ("in the sections below"), no rival to
  an answer that is a bound ("by 1926");
- Granularity MEDIUM: no "In exactly which year ...?" of a keyword query, and no coarsened year that sets the
  scope of a superlative ("the most watched premiere of the network in 2005").
"""

from __future__ import annotations

import re

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic


def _generate(row, cls, intensity, lever, pool_rows=()):
    pool = DistractorPool.from_base([row, *pool_rows])
    return generate_programmatic(row, cls, intensity, 0, pool, lever=lever)


def _row(query, answers, context, sid="r15"):
    return {"source_id": sid, "query": query, "answers": answers, "context": context}


def purge_declines_or_removes(row: dict, declines: bool, gone: str, match: str | None = None) -> None:
    """The answer-token purge declines `row` (with a reason matching `match`), or removes every `gone` from it."""
    if declines:
        with pytest.raises(NotApplicable, match=match):
            _generate(row, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")
    else:
        assert gone not in _generate(row, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")["perturbed_context"]


# -- MissingInfo HIGH ----------------------------------------------------------------------------------

FILLER = (
    "Spring training draws large crowds of visitors from the northern states every year. Tickets are cheap and "
    "the weather is warm, and many fans plan a whole holiday around the games."
)


@pytest.mark.parametrize(
    "follow, declines",
    [("In both venues, the clubs share the main field and the practice grounds.", True), (FILLER, False)],
)
def test_purge_declines_when_a_kept_sentence_points_back_with_both(follow, declines):
    row = _row(
        "where do the harbour herons hold their spring camp",
        ["Pelican Park"],
        f"Pelican Park is one of the grounds on the coast where clubs train each spring. {follow} {FILLER}",
    )
    purge_declines_or_removes(row, declines, gone="Pelican")


COCOA = (
    "Cocoa was first grown by the peoples of Mesoamerica, in the Americas, thousands of years ago. Cocoa beans are "
    "roasted and ground into a bitter drink that is often flavoured with chilli. Sweetened with sugar, cocoa drinks "
    "became popular with the rich, who served them at feasts and weddings."
)
ANSWERS = ["Mesoamerica", "the Americas"]


def test_purge_declines_when_the_query_names_the_answer_among_options():
    row = _row("where was cocoa first grown the americas spain or asia", ANSWERS, COCOA)
    with pytest.raises(NotApplicable, match="names an answer among its options"):
        _generate(row, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")


def test_purge_still_applies_when_the_query_names_no_answer():
    row = _row("where was cocoa first grown", ANSWERS, COCOA)
    assert "Americas" not in _generate(row, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")["perturbed_context"]


# -- MissingInfo LOW -----------------------------------------------------------------------------------

CANAL = "The Holiday Road canal links the two seas."


def _brackets_left(context: str) -> list[str]:
    row = _row("who sang the song holiday road", ["Lindsey Buckingham"], "")
    outs = []
    for seed in range(6):
        item = dict(row, source_id=f"cv{seed}", context=context)
        outs.append(_generate(item, tx.MISSING_INFO, tx.LOW, "Parenthetical Excise")["perturbed_context"])
    return outs


def test_bracket_converting_the_figure_before_it_stays():
    context = (
        "Holiday Road is a 1983 song by Lindsey Buckingham. It was recorded on a ranch about 7,000 kilometres "
        "(4,300 mi) from the studio where the band usually worked. The single sold well in Canada."
    )
    with pytest.raises(NotApplicable):
        _brackets_left(context)


def test_bracket_with_a_detail_beside_a_conversion_still_goes():
    context = (
        "Holiday Road is a 1983 song by Lindsey Buckingham. It was recorded on a ranch (then owned by a film "
        "director) about 7,000 kilometres (4,300 mi) from the studio. The single sold well in Canada."
    )
    texts = _brackets_left(context)
    assert all("(4,300 mi)" in t for t in texts) and all("(then owned" not in t for t in texts)


# -- Contradiction -------------------------------------------------------------------------------------

TOWNS = "There are 412 towns in the sections below."
TOWNS_PLAIN = "The province has 412 towns."


@pytest.mark.parametrize(
    "intensity, lever", [(tx.LOW, "Minor Numeric Rounding"), (tx.MEDIUM, "Equal-standing Value Clash")]
)
def test_restatement_declines_a_sentence_that_points_into_its_own_page(intensity, lever):
    opening = "The northern province is a region of the republic with a long coast."
    row = _row("what is the number of towns in the northern province", ["412"], f"{opening} {TOWNS}")
    other = _row("how many lakes are in the park", ["57"], "The park has 57 lakes.", sid="other")
    with pytest.raises(NotApplicable):
        _generate(row, tx.CONTRADICTION, intensity, lever, [other])
    plain = dict(row, context=f"{opening} {TOWNS_PLAIN}")
    out = _generate(plain, tx.CONTRADICTION, intensity, lever, [other])
    assert len(re.findall(r"\btowns\b", out["perturbed_context"])) == 2


WOLVES = "The last wolves of the valley were killed by hunters in 1926."


def test_rival_date_declines_when_an_answer_is_a_bound():
    row = _row("when were the last wolves of the valley killed", ["1926", "by 1926"], WOLVES)
    with pytest.raises(NotApplicable):
        _generate(row, tx.CONTRADICTION, tx.MEDIUM, "Dual-authoritative Dates")
    plain = dict(row, answers=["1926"])
    assert "1926" in _generate(plain, tx.CONTRADICTION, tx.MEDIUM, "Dual-authoritative Dates")["perturbed_context"]


# -- Granularity MEDIUM --------------------------------------------------------------------------------

SONG = '"Falling Leaves" is a song released by the duo Night Harbour in 1991. It was a worldwide hit for the duo.'


def test_keyword_query_is_not_sharpened():
    row = _row("when night harbour falling leaves", ["1991"], SONG)
    with pytest.raises(NotApplicable):
        _generate(row, tx.GRANULARITY, tx.MEDIUM, "Answer Stated One Level Coarser")
    asked = dict(row, query="when did night harbour release falling leaves")
    out = _generate(asked, tx.GRANULARITY, tx.MEDIUM, "Answer Stated One Level Coarser")
    assert out["perturbed_query"].startswith("In exactly which year did") and "1991" not in out["perturbed_context"]


def test_coarsened_year_may_not_scope_a_superlative():
    premiere = "The series was first broadcast on the network on March 18, 2005, with four million viewers"
    row = _row(
        "when did the series harbour days first air",
        ["March 18, 2005", "2005"],
        f"{premiere}, making it the most watched premiere of the network in 2005. It ran for three seasons.",
    )
    with pytest.raises(NotApplicable, match="superlative"):
        _generate(row, tx.GRANULARITY, tx.MEDIUM, "Answer Stated One Level Coarser")
    plain = dict(row, context=f"{premiere}. It ran for three seasons.")
    assert (
        "in the 2000s"
        in _generate(plain, tx.GRANULARITY, tx.MEDIUM, "Answer Stated One Level Coarser")["perturbed_context"]
    )
