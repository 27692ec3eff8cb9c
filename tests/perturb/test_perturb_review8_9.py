"""Gates added after the eighth and ninth blind reviews (MissingInfo LOW): an opening clause that scopes a ranking,
limits the statement or holds the antecedent of the pronoun after it stays; a bracket with a parallel partner, a
bare abbreviation or a query word stays; a sentence restating an answer word in another form stays. Each declines
a hand-made bad item and accepts a good one."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic

ANSWER_SENTENCE = "Holiday Road is a 1983 song by Lindsey Buckingham."


def _low(context: str, lever: str, answers=("Lindsey Buckingham",), query="who sang the song holiday road"):
    row = {"source_id": "s8", "query": query, "answers": list(answers), "context": context}
    return generate_programmatic(row, tx.MISSING_INFO, tx.LOW, 0, DistractorPool.from_base([row]), lever=lever)


@pytest.mark.parametrize(
    "sentence",
    [
        "In Canada, the song was the most played single on radio that summer.",  # the clause scopes a superlative
        "After the title track, it was the second single taken from the album.",  # a rank, and a pronoun after
        "During the tour, they played the song at every concert in Europe.",  # the clause may name who "they" are
    ],
)
def test_intro_clause_stays_where_cutting_it_changes_a_ranking_or_loses_an_antecedent(sentence):
    with pytest.raises(NotApplicable):
        _low(f"{ANSWER_SENTENCE} {sentence}", "Intro Clause Removal")


def test_intro_clause_is_cut_from_a_plain_statement():
    out = _low(
        f"{ANSWER_SENTENCE} In 1984, the band played the song at every concert in Europe.", "Intro Clause Removal"
    )
    assert "The band played the song at every concert in Europe." in out["perturbed_context"]


def test_bracket_with_a_parallel_partner_stays():
    context = (
        f"{ANSWER_SENTENCE} The song was played on radio in May (in Ohio), in June (in Texas) and in July across "
        "the rest of the country."
    )
    with pytest.raises(NotApplicable):
        _low(context, "Parenthetical Excise")


def test_lone_bracket_is_cut():
    context = f"{ANSWER_SENTENCE} The song was played on radio in May (mostly at night) across the whole country."
    out = _low(context, "Parenthetical Excise")
    assert "(mostly at night)" not in out["perturbed_context"]


def test_sentence_restating_an_answer_word_in_another_form_is_not_deleted():
    restated = "Critics said the state legislators were often bribed by rich candidates."
    context = (
        "Until 1913, US senators were chosen by the state legislatures. Voters in many states had no direct say in "
        f"the matter. {restated} Reformers campaigned for direct elections for decades."
    )
    outputs = []
    for seed in range(8):
        row = {
            "source_id": f"s8-{seed}",
            "query": "who chose us senators before 1913",
            "answers": ["state legislatures"],
            "context": context,
        }
        pool = DistractorPool.from_base([row])
        outputs.append(
            generate_programmatic(row, tx.MISSING_INFO, tx.LOW, 0, pool, lever="Non-answer Sentence Deletion")
        )
    texts = [out["perturbed_context"] for out in outputs]
    assert all(restated in text for text in texts)
    assert any("Reformers" not in text for text in texts)  # a sentence is still deleted: the other one


# -- after the ninth review --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "aside",
    [
        "(FTC)",  # a bare abbreviation: nothing is lost without it
        "(who perform the theme song)",  # holds the query's words: it ties the answer to the query
    ],
)
def test_bracket_that_adds_nothing_or_ties_the_answer_to_the_query_stays(aside):
    context = (
        f"The Film Theme Company {aside} is a studio in Ohio. Its theme song for the film was performed by "
        "Lindsey Buckingham in 1983."
    )
    with pytest.raises(NotApplicable):
        _low(context, "Parenthetical Excise", query="who sang the theme song for the film")


def test_intro_clause_that_limits_the_statement_stays():
    with pytest.raises(NotApplicable):
        _low(
            f"{ANSWER_SENTENCE} In some cases, the song is played at weddings across the country.",
            "Intro Clause Removal",
        )
