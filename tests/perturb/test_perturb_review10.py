"""Gates added after the tenth blind review (MissingInfo): a HIGH deletion declines where a kept sentence's pronoun
for people would take a new antecedent, or where the next names of a ranking stay; a LOW cut declines a comma that
does not end an opening clause and a sentence inside a longer quotation. Each declines a hand-made bad item and
accepts a good one."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic

DRIVERS = (
    "Formula One has crowned many champions since 1950. Alain Prost drove for McLaren and Ferrari in the "
    "1980s and 1990s, and retired in 1993. {gone} {kept} The sport's rules have changed often "
    "since then, and the cars now use hybrid engines with energy recovery systems."
)


def _generate(row, intensity, lever):
    return generate_programmatic(row, tx.MISSING_INFO, intensity, 0, DistractorPool.from_base([row]), lever=lever)


def _purge(kept: str, query="who has the most formula one world titles"):
    row = {
        "source_id": "f1",
        "query": query,
        "answers": ["Michael Schumacher"],
        "context": DRIVERS.format(gone="Michael Schumacher holds the record for the most world titles.", kept=kept),
    }
    return _generate(row, tx.HIGH, "Answer Token Purge")


def test_purge_declines_where_a_pronoun_would_take_another_person():
    with pytest.raises(NotApplicable):  # "He" would now be Alain Prost
        _purge("He won his first Grand Prix in 1992 and his last in 2006.")


def test_purge_declines_where_the_next_rows_of_a_ranking_stay():
    with pytest.raises(NotApplicable):  # reads as the answer once the record holder went
        _purge("Lewis Hamilton and Juan Manuel Fangio follow with five world titles each.")


def test_purge_keeps_a_plain_sentence_after_the_cut():
    out = _purge("Ferrari remains the oldest team still racing in the championship.")
    assert "Schumacher" not in out["perturbed_context"] and "Ferrari remains" in out["perturbed_context"]


ANSWER = "Holiday Road is a 1983 song by Lindsey Buckingham."


def _low(context: str, lever: str):
    row = {"source_id": "s10", "query": "who sang the song holiday road", "answers": ["Lindsey Buckingham"]}
    return _generate(dict(row, context=context), tx.LOW, lever)


@pytest.mark.parametrize(
    "sentence",
    [
        "Under this contract the label, on 3 June 1983, released the song as a single in Europe.",  # a preposition
        "In the United Kingdom, Ireland and Australia the song was released as a single in June.",  # a list
    ],
)
def test_intro_clause_cut_declines_a_comma_that_does_not_end_the_clause(sentence):
    with pytest.raises(NotApplicable):
        _low(f"{ANSWER} {sentence}", "Intro Clause Removal")


def test_sentence_deletion_declines_a_sentence_inside_a_longer_quotation():
    context = (
        f'{ANSWER} The producer said: "We recorded it in one night at a small studio in Los Angeles. Everyone '
        'was tired but happy with the take. It was the best session of the whole year." The single reached the '
        "charts in several countries."
    )
    texts = []
    for seed in range(8):
        row = {"source_id": f"q{seed}", "query": "who sang the song holiday road", "answers": ["Lindsey Buckingham"]}
        texts.append(_generate(dict(row, context=context), tx.LOW, "Non-answer Sentence Deletion")["perturbed_context"])
    assert all("Everyone was tired but happy with the take." in text for text in texts)
    assert any("reached the charts" not in text for text in texts)  # the sentence after the quotation can go
