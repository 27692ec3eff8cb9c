"""Changes after the thirty-third and thirty-fourth blind reviews: the answer-token purge keeps a sentence's closing
clause that has a subject of its own, or a second predicate of the same subject, when only the first names the answer;
a question about a building whose name holds its kind names it once ("Will Takanosu Castle ...", not 'the castle
"Takanosu Castle"'); and, for the thirty-first's two wording borderlines, a count after a collective noun goes alone
("a group of windmills")."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_perturb_review14 import _generate, _row

PURGE = "Answer Token Purge"
MINERAL = (
    "Långhultite is a rare manganese-bearing silicate mineral first described from the Långhult iron mines in "
    "Värmland, Sweden. It was discovered by the Swedish chemist Anders Gustaf Rosendahl during an analysis of slag "
    "samples sent to Uppsala. Rosendahl published his description in a Swedish journal, and the mineral's "
    "crystal structure was determined in 1967. It forms pink to brownish-red prismatic crystals with a Mohs "
    "hardness of about 6."
)
ANSWERS = ["Anders Gustaf Rosendahl", "Rosendahl"]


def test_purge_keeps_a_closing_clause_with_its_own_subject():
    row = _row("who discovered langhultite", ANSWERS, MINERAL)
    new = _generate(row, tx.MISSING_INFO, tx.HIGH, PURGE)["perturbed_context"]
    assert "Sweden. The mineral's crystal structure was determined in 1967. It forms" in new
    assert "Rosendahl" not in new


@pytest.mark.parametrize(
    "closing",
    [
        "and his pupil renamed it soon after",
        "and was reprinted in Stockholm",
        "and his pupil renamed it in 1967",
        "and was reprinted in 1967",
    ],
)
def test_purge_declines_where_the_closing_clause_needs_the_first(closing):
    # the closing clause cannot stand without the first; since the forty-fourth review the whole sentence no longer
    # goes either, as it would take the closing clause's fact with the answer
    context = MINERAL.replace("and the mineral's crystal structure was determined in 1967", closing)
    row = _row("who discovered langhultite", ANSWERS, context)
    with pytest.raises(NotApplicable, match="another figure or clause"):
        _generate(row, tx.MISSING_INFO, tx.HIGH, PURGE)


CASTLE = (
    "Takanosu Castle was a Japanese mountain castle in Dewa Province, in present-day Akita Prefecture. During the "
    "siege of 1600 the castle was commanded by Tomura Sadakiyo. The castle was abandoned in 1615."
)


def test_a_building_whose_name_holds_its_kind_is_named_once():
    row = _row("who commanded takanosu castle during the siege", ["Tomura Sadakiyo"], CASTLE)
    row["title"] = "Takanosu Castle"
    query = _generate(row, tx.EPISTEMIC, tx.MEDIUM, "Forecast without Model")["perturbed_query"]
    assert query.count("Takanosu Castle") == 1 and 'castle "' not in query.lower()
    assert "fifty years from now" in query.lower() or "a century from now" in query


WINDMILLS = (
    "The Weerd Windmills are a group of 19 windmills standing along the dykes of the Weerdpolder in South Holland. "
    "Built between 1738 and 1741 to drain the polder, they replaced horse-driven pumps. Most of the mills are still "
    "occupied by resident millers."
)


@pytest.mark.parametrize(
    "group, left",
    [("a group of 19", "a group of windmills"), ("a small group of about 19", "a small group of windmills")],
)
def test_a_count_after_a_collective_noun_goes_alone(group, left):
    # thirty-first review: "a group of an unspecified number of windmills" read awkwardly (B for both annotators)
    row = _row("how many windmills are in the weerd windmills", ["19"], WINDMILLS.replace("a group of 19", group))
    new = _generate(row, tx.MISSING_INFO, tx.MEDIUM, "Count Redacted")["perturbed_context"]
    assert new.startswith(f"The Weerd Windmills are {left} standing along")
    assert "unspecified" not in new and "19" not in new


SERIES = (
    "The Last Summer in Tarifa is a Spanish romantic drama television series created by Lucia Berenguer. It "
    "premiered on Telemar on 2 October 2020 and consists of eight episodes. Set in the windsurfing town of Tarifa, it "
    "stars Alvaro Quintana and Irene Solis as former lovers who meet again during a family wedding."
)


def test_purge_keeps_a_second_predicate_of_the_same_subject():
    # twenty-eighth review R040: the whole sentence went, "consists of eight episodes" with it (B for both)
    row = _row("when did the last summer in tarifa premiere", ["2 October 2020"], SERIES)
    new = _generate(row, tx.MISSING_INFO, tx.HIGH, PURGE)["perturbed_context"]
    assert "Berenguer. It consists of eight episodes. Set in" in new


@pytest.mark.parametrize(
    "sentence",
    [
        # the second predicate shares the first one's "was": the cut would take it
        "It was first shown on Telemar on 2 October 2020 and praised for its eight episodes.",
        # a comma in the first predicate: a list may hide another "and"
        "It premiered on Telemar, a regional channel, on 2 October 2020 and consists of eight episodes.",
    ],
)
def test_purge_declines_where_the_second_predicate_cannot_stand(sentence):
    # since the forty-fourth review the whole sentence no longer goes: it would take "eight episodes" with the date
    context = SERIES.replace("It premiered on Telemar on 2 October 2020 and consists of eight episodes.", sentence)
    row = _row("when did the last summer in tarifa premiere", ["2 October 2020"], context)
    with pytest.raises(NotApplicable, match="another figure or clause"):
        _generate(row, tx.MISSING_INFO, tx.HIGH, PURGE)
