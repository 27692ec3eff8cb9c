"""Gates added after the nineteenth blind review (Contradiction items whose texts no review had shown):

- a restated sentence may not open on a pronoun subject: after "a comment on a social media site insists that"
  the copied "it was adapted by ..." reads as the comment;
- the plainly unreliable source of Contradiction LOW is topic-neutral ("an online fan forum" read oddly as the
  source of a date in history or nature).
"""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic

OPENING = "The northern ferry is a passenger service across the bay."


def _row(answer_sentence: str) -> dict:
    return {
        "source_id": "f19",
        "query": "when did the northern ferry start running",
        "answers": ["1926"],
        "context": f"{OPENING} {answer_sentence} The crossing takes forty minutes.",
    }


def _generate(row: dict, intensity: str, lever: str) -> dict:
    other = {"source_id": "o", "query": "when did the bridge open", "answers": ["1931"], "context": "Opened in 1931."}
    pool = DistractorPool.from_base([row, other])
    return generate_programmatic(row, tx.CONTRADICTION, intensity, 0, pool, lever=lever)


@pytest.mark.parametrize(
    "intensity, lever", [(tx.LOW, "Fringe vs. Official Source"), (tx.MEDIUM, "Dual-authoritative Dates")]
)
def test_restatement_declines_a_sentence_opening_on_a_pronoun(intensity, lever):
    with pytest.raises(NotApplicable, match="pronoun"):
        _generate(_row("It started running in 1926."), intensity, lever)
    out = _generate(_row("The ferry started running in 1926."), intensity, lever)
    assert out["perturbed_context"].count("started running in") == 2


def test_the_unreliable_source_names_no_topic():
    out = _generate(_row("The ferry started running in 1926."), tx.LOW, "Fringe vs. Official Source")
    added = out["perturbed_context"].split("1926.")[1]
    assert "fan" not in added and ("blog post" in added or "social media" in added)
