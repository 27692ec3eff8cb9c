"""Gates added after the twenty-second blind review (texts no review had shown, after the seed change):

- MissingInfo HIGH: no purge for a "when" question while a century or decade still dates the answer ("the
  Arian controversy of the fourth century" for 336);
- MissingInfo LOW: an opening clause is cut only where it dates the statement ("In 1990,"), not where it sets its
  scope ("In the film version of the song,"); a cross-reference bracket ("(see ...)") is not cut;
- Epistemic (and every lever reading a work's kind): "a children's book series" is not television;
- Contradiction MEDIUM: an equal-standing rival count stays within twice the stated one (from the nineteenth
  review's recheck: "57 episodes" for a season from October to May beside a stated 23).
"""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic
from refusalbench.perturb.subject import work_subject
from tests.perturb.test_perturb_review14 import purge_declines_or_removes


def _generate(row: dict, cls: str, intensity: str, lever: str) -> dict:
    return generate_programmatic(row, cls, intensity, 0, DistractorPool.from_base([row]), lever=lever)


FEAST = (
    "The harvest feast is held every autumn in the river towns, with music, food and long tables beside the water. "
    "Bakers and brewers come from the whole valley to sell bread and beer to the crowds. The first recorded harvest "
    "feast was held in 336 in the old market square."
)


@pytest.mark.parametrize(
    "declines, extra", [(True, "The feast spread along the river in the fourth century."), (False, "")]
)
def test_purge_declines_while_a_century_dates_a_when_answer(declines, extra):
    row = {
        "source_id": "f",
        "query": "when was the first harvest feast held",
        "answers": ["336"],
        "context": f"{FEAST} {extra}".strip(),
    }
    purge_declines_or_removes(row, declines, gone="336", match="value of the answer's kind")


SONG = (
    "The song was written by Ada Lind for her second album. {clause} the singer recorded it with a small choir, "
    "which made the chorus sound fuller than on the album. It reached number four on the national chart."
)


@pytest.mark.parametrize(
    "clause, cut", [("In the film version of the song,", False), ("In 1988,", True), ("After the tour,", True)]
)
def test_intro_clause_is_cut_only_where_it_dates_the_statement(clause, cut):
    row = {
        "source_id": "i",
        "query": "who wrote the ballad for the second album",
        "answers": ["Ada Lind"],
        "context": SONG.format(clause=clause),
    }
    if cut:
        out = _generate(row, tx.MISSING_INFO, tx.LOW, "Intro Clause Removal")
        assert clause not in out["perturbed_context"] and "The singer recorded it" in out["perturbed_context"]
    else:
        with pytest.raises(NotApplicable):
            _generate(row, tx.MISSING_INFO, tx.LOW, "Intro Clause Removal")


def test_a_cross_reference_bracket_is_not_cut():
    context = (
        "Some lizards reproduce without males (see Parthenogenesis). The young hatch from eggs laid in warm sand. "
        "Most species live in dry regions."
    )
    row = {"source_id": "c", "query": "how do some lizards reproduce without males", "answers": ["eggs"]}
    with pytest.raises(NotApplicable):
        _generate(dict(row, context=context), tx.MISSING_INFO, tx.LOW, "Parenthetical Excise")
    aside = context.replace("(see Parthenogenesis)", "(mostly whiptails)")
    out = _generate(dict(row, context=aside), tx.MISSING_INFO, tx.LOW, "Parenthetical Excise")
    assert "whiptails" not in out["perturbed_context"]


def test_a_series_in_another_medium_is_not_television():
    assert work_subject("Pip and Moss is a children's book series by Ada Lind.", "Pip and Moss") is None
    tv = work_subject("Pip and Moss is a British television series by Ada Lind.", "Pip and Moss")
    assert tv is not None and tv.field == "television"


@pytest.mark.parametrize("rival, too_far", [("57", True), ("36", False)])
def test_equal_standing_rival_count_stays_within_twice_the_stated_one(rival, too_far):
    # a blind review: "57 episodes" beside a stated 23 for a season from October to May is easy to dismiss
    row = {
        "source_id": "e",
        "query": "how many episodes are in the first season of the harbour show",
        "answers": ["23"],
        "context": "The first season of the harbour show ran from October to May. The season contained 23 episodes.",
    }
    other = {"source_id": "o", "query": "how many towers does the old castle have", "answers": [rival], "context": ""}
    other["context"] = f"The old castle has {rival} towers."
    pool = DistractorPool.from_base([row, other])
    lever = "Equal-standing Value Clash"
    outs = []
    for seed in range(8):
        try:
            outs.append(generate_programmatic(row, tx.CONTRADICTION, tx.MEDIUM, seed, pool, lever=lever))
        except NotApplicable:
            pass
    rivals = [o["perturbed_context"].split("contained")[-1] for o in outs]
    assert not any(" 57 " in r or " 69 " in r or " 46 " in r for r in rivals)  # nothing over twice 23
    if not too_far:  # a rival within twice the stated count is still used
        assert any(" 36 " in r for r in rivals)
