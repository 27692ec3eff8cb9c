"""Fifty-fifth blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_perturb_review14 import _generate as _run

STRIP = {
    "source_id": "strip",
    "query": "what is the name of the dog in harrow's corner",
    "answers": ["Biscuit"],
    "title": "Harrow's Corner",
    "context": "Harrow's Corner is an American newspaper comic strip created by the cartoonist Wendell Oakes. It "
    "follows the retired railway clerk Amos Harrow and his family in a small Ohio town, along with their sardonic "
    "basset hound, Biscuit. At its peak the strip appeared in more than 600 newspapers.",
}


def test_the_purge_cuts_a_closing_along_with_phrase_not_the_whole_sentence():
    # R001: the whole sentence went, and with it the clerk and his family, which the question does not ask about
    out = _run(STRIP, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")["perturbed_context"]
    assert "Biscuit" not in out and "basset" not in out
    assert "It follows the retired railway clerk Amos Harrow and his family in a small Ohio town." in out


UNIVERSITY = {
    "source_id": "university",
    "query": "how many students go to wattle bay university",
    "answers": ["about 11,500", "11,500"],
    "title": "Wattle Bay University",
    "context": "Wattle Bay University is a public university in Queensland, Australia. The university has about "
    "11,500 students, around a third of whom study online. Its chancellor is the former judge Annette Coulthard.",
}


def test_the_rounded_figure_restates_its_own_clause_only():
    # R053: "Another source rounds the figure, stating that the university has about 12,000 students, around a third
    # of whom study online, and ..." repeated the rest of the sentence
    out = _run(UNIVERSITY, tx.CONTRADICTION, tx.LOW, "Minor Numeric Rounding")["perturbed_context"]
    assert "stating that the university has about 12,000 students." in out
    assert out.count("around a third of whom") == 1


SERIES = {
    "source_id": "series",
    "query": "who narrates wild skerries",
    "answers": ["Edmund Ashby-Lowe"],
    "title": "Wild Skerries",
    "context": "Wild Skerries is a British nature documentary series first broadcast in January 2017. Narrated by the "
    "actor Edmund Ashby-Lowe, the six-part series follows wildlife along the Norwegian coast.{more}",
}


@pytest.mark.parametrize("intensity, lever", [(tx.HIGH, "Most Beautiful Aspect"), (tx.MEDIUM, None)])
def test_the_evaluative_questions_decline_a_subject_awarded_for_an_aspect(intensity, lever):
    # R057: "What is the most beautiful aspect of ...?" of a series that "won a BAFTA for its photography"
    row = dict(SERIES, context=SERIES["context"].format(more=" The series won a BAFTA for its photography in 2018."))
    quality = "Quality Ranking without Benchmark"
    with pytest.raises(NotApplicable, match="judges its subject"):
        _run(row, tx.EPISTEMIC, intensity, lever or quality)
    row = dict(SERIES, context=SERIES["context"].format(more=" Filming took 28 months."))
    assert _run(row, tx.EPISTEMIC, intensity, lever or quality)["perturbed_query"] != SERIES["query"]


def test_the_rounded_figure_keeps_a_list_it_opens_whole():
    row = dict(
        UNIVERSITY,
        query="how many beds does wattle bay hospital have",
        answers=["348 beds"],
        title="Wattle Bay Hospital",
        context="Wattle Bay Hospital is a public hospital in Queensland, Australia. The hospital has 348 beds and "
        "provides surgical, maternity and oncology services. It opened in 1962.",
    )
    out = _run(row, tx.CONTRADICTION, tx.LOW, "Minor Numeric Rounding")["perturbed_context"]
    assert "provides surgical." not in out
    # the second predicate goes whole with its list (the sixty-second review's R103: not repeated word for word)
    assert "stating that the hospital has 350 beds." in out


def test_the_rounded_figure_declines_where_another_clause_comes_before_it():
    # the fifty-sixth review's R012: "stating that the island is an important breeding site for herons and storks,
    # and surveys have recorded 110 bird species there" repeated the first clause
    row = dict(
        UNIVERSITY,
        query="how many bird species have been recorded on ilha das garcas",
        answers=["112"],
        title="Ilha das Garças",
        context="Ilha das Garças is a river island in Mato Grosso, Brazil. The island is an important breeding site "
        "for herons and storks, and the survey recorded 112 bird species there. Access is restricted.",
    )
    with pytest.raises(NotApplicable, match="another clause"):
        _run(row, tx.CONTRADICTION, tx.LOW, "Minor Numeric Rounding")
    row["context"] = row["context"].replace(
        "The island is an important breeding site for herons and storks, and the survey", "A survey of the island"
    )
    assert (
        "stating that a survey of the island recorded 110 bird species there."
        in _run(row, tx.CONTRADICTION, tx.LOW, "Minor Numeric Rounding")["perturbed_context"]
    )


def test_a_list_price_is_not_redacted():
    # the fifty-sixth review's R009: "its list price was set at an unspecified amount" (a list price is published)
    row = {
        "source_id": "drug",
        "query": "how much does velmora cost per year",
        "answers": ["£48,000"],
        "title": "Velmora",
        "context": "Velmora is a monoclonal antibody used to treat a rare form of arthritis. It was approved in 2019, "
        "and its {kind} was set at £48,000 per year of treatment.",
    }
    with pytest.raises(NotApplicable, match="published"):
        _run(dict(row, context=row["context"].format(kind="list price")), tx.MISSING_INFO, tx.MEDIUM, "Price Redacted")
    out = _run(dict(row, context=row["context"].format(kind="price")), tx.MISSING_INFO, tx.MEDIUM, "Price Redacted")
    assert "its price was set at an unspecified amount per year" in out["perturbed_context"]
