"""Gate added after the seventeenth blind review (the demo's benchmark): a MissingInfo HIGH deletion of an answer
that names a people by its adjective ("the English") also deletes the sentences naming its country ("for England
in 1498"). It changes a hand-made bad item and leaves a good one as it was."""

from __future__ import annotations

from refusalbench import taxonomy as tx
from refusalbench.perturb.levers_missing import demonym_places
from tests.perturb.test_perturb_review14 import _generate, _row

CONTEXT = (
    "The history of the harbour town begins when sailors explored its coast for England long ago. The first lasting "
    "settlement was made in the next century, when {people} arrived in large numbers. Fishing made the harbour town "
    "rich, and its market drew traders from the whole coast. Narrow streets and small stone houses still line the "
    "quay of its old quarter."
)


def _purged(people: str) -> str:
    row = _row("who first settled the harbour town", [people], CONTEXT.format(people=people))
    return _generate(row, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")["perturbed_context"]


def test_purge_of_a_people_also_removes_its_country():
    text = _purged("the English")
    assert "England" not in text and "English" not in text


def test_only_a_people_named_by_its_adjective_brings_in_a_country():
    import random

    from refusalbench.perturb import DistractorPool
    from refusalbench.perturb.engine import make_item

    def places(answers):
        row = _row("who first settled the harbour town", answers, CONTEXT.format(people=answers[0]))
        return demonym_places(make_item(row, DistractorPool.from_base([row]), False, random.Random(0)))

    assert places(["the English"]) == ["England"] and places(["Dutch settlers"]) == ["Holland", "Netherlands"]
    assert places(["the Basques"]) == [] and places(["John English"]) == []
