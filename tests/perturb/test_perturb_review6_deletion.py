"""Gates of the LOW non-answer sentence deletion added after the sixth blind review: each declines a hand-made
bad item and accepts a good one."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic
from refusalbench.perturb.missing_gates import definite_from_cut, holds_reference_word, shares_query_word

LEVER = "Non-answer Sentence Deletion"


def _delete(query: str, answer: str, context: str) -> str:
    row = {"source_id": "d6", "query": query, "answers": [answer], "context": context}
    out = generate_programmatic(row, tx.MISSING_INFO, tx.LOW, 0, DistractorPool.from_base([row]), lever=LEVER)
    return out["perturbed_context"]


BUTTER = "what is clarified butter called in the middle east"


def test_deletion_declines_when_the_next_sentence_points_back_with_a_pronoun():
    # deleting the olive-oil sentence would make "it" refer to the butter
    context = "Clarified butter is called samna in the Middle East. Olive oil is common in many homes. " + (
        "Christians use it in butter dishes during Lent."
    )
    with pytest.raises(NotApplicable):
        _delete(BUTTER, "samna", context)


def test_deletion_declines_when_such_loses_its_antecedent():
    context = "Clarified butter is called samna in the Middle East. Cocoa went to Spain by boat in 1544. " + (
        "The first such voyage carried butter."
    )
    with pytest.raises(NotApplicable):
        _delete(BUTTER, "samna", context)


def test_deletion_keeps_a_passage_that_reads_right_without_the_sentence():
    context = "Clarified butter is called samna in the Middle East. Olive oil is common in many homes. " + (
        "Bread is baked daily."
    )
    out = _delete(BUTTER, "samna", context)
    assert "samna" in out and out.count(".") == 2


def test_deletion_declines_a_sentence_sharing_a_query_word():
    # "recruitment order can be determined" helps answer "what features ... can be determined"
    query = "what features of muscle contraction can be determined from an emg"
    context = (
        "An EMG shows abnormal muscle activation that is determined by a doctor. "
        "Recruitment order can be determined as well. Muscle contraction is studied with an EMG."
    )
    with pytest.raises(NotApplicable):
        _delete(query, "abnormal muscle activation", context)


def test_deletion_declines_a_sentence_between_the_answer_and_its_support():
    # "The states kept sovereignty. Congress met rarely. Powers ..." : the middle one links answer and support
    query = "who had the most governmental power under the articles"
    context = "The articles left sovereignty with the states. Congress met rarely in those years. " + (
        "Central power was weak under the articles."
    )
    with pytest.raises(NotApplicable):
        _delete(query, "the states", context)


@pytest.mark.parametrize(
    "sentence, ok",
    [
        ("Christians use it during Lent.", True),
        ("The first such voyage took months.", True),
        ("Nothing changed after that.", True),
        ("Bread is baked daily in the town.", False),
        ("The band said that the tour ended.", False),
    ],
)
def test_reference_words(sentence, ok):
    assert holds_reference_word(sentence) is ok


def test_definite_named_only_by_the_cut():
    assert definite_from_cut("Cocoa went by boat; the voyage was long.", "Cocoa is old.", "The voyage ended.")
    assert not definite_from_cut("Cocoa went by boat; the voyage was long.", "A voyage began.", "The voyage ended.")
    assert not definite_from_cut("Cocoa went by boat.", "Cocoa is old.", "The town grew.")


def test_query_words_match_up_to_their_ending():
    assert shares_query_word("The federal government got limited powers.", {"governmental", "power"})
    assert not shares_query_word("Bread is baked daily.", {"governmental", "power"})
