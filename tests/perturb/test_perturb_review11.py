"""Gates added after the eleventh blind review (MissingInfo): a HIGH deletion also removes the answer's head words
and a place's adjective, and declines where years stay for an answer holding years; a LOW deletion keeps the
sentence that first names someone named again later, and a bracket whose term the rest uses. Each declines or
changes a hand-made bad item and accepts a good one."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic


def _generate(row, intensity, lever):
    return generate_programmatic(row, tx.MISSING_INFO, intensity, 0, DistractorPool.from_base([row]), lever=lever)


FILLER = (
    "The island has a warm climate all year and its beaches draw many visitors. Fishing and farming were the main "
    "trades for most of its history, and sugar was grown on the coastal plains."
)


def test_purge_also_removes_a_place_adjective():
    row = {
        "source_id": "pr",
        "query": "which country ruled puerto rico before 1898",
        "answers": ["Spain"],
        "context": (
            "Puerto Rico is a small island with many hills and old towns. The island was ruled by Spain until 1898. "
            f"{FILLER} Spanish colonial rule shaped its towns."
        ),
    }
    out = _generate(row, tx.HIGH, "Answer Token Purge")
    assert "Spanish" not in out["perturbed_context"] and "Spain" not in out["perturbed_context"]


ANSWER = "Holiday Road is a 1983 song by Lindsey Buckingham."


def _low(context: str, lever: str, seeds=range(6)):
    outs = []
    for seed in seeds:
        row = {"source_id": f"l{seed}", "query": "who sang the song holiday road", "answers": ["Lindsey Buckingham"]}
        outs.append(_generate(dict(row, context=context), tx.LOW, lever)["perturbed_context"])
    return outs


def deletion_keeps(kept: str, context: str, goes: str) -> None:
    """Over several seeds the sentence deletion never deletes `kept` and still deletes the sentence `goes` opens."""
    texts = _low(context, "Non-answer Sentence Deletion")
    assert all(kept in text for text in texts)
    assert any(goes not in text for text in texts)


def test_sentence_deletion_keeps_the_sentence_that_first_names_someone():
    introduces = "The film was directed by Harold Ramis in the summer."
    context = (
        f"{ANSWER} {introduces} The cast toured several cities before the premiere. Ramis later directed several "
        "other comedies in Chicago. The single sold well in Canada and in Australia."
    )
    deletion_keeps(introduces, context, goes="The cast toured")


def test_bracket_whose_term_the_rest_uses_stays():
    context = (
        f"{ANSWER} The record used a drum machine (a LinnDrum model) on every track. The LinnDrum was new that year."
    )
    with pytest.raises(NotApplicable):
        _low(context, "Parenthetical Excise", seeds=[0])


@pytest.mark.parametrize("aside", ["(temporary)", "( listen)"])  # after the twelfth review
def test_bracket_of_a_single_word_stays(aside):
    context = f"{ANSWER} Its producer {aside} was named head of the label in the same year as the release."
    with pytest.raises(NotApplicable):
        _low(context, "Parenthetical Excise", seeds=[0])
