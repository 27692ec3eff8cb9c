"""Seventy-first blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from refusalbench.perturb.subject import work_subject
from tests.perturb.test_perturb_review14 import _generate, _row

GRAPHIC_NOVEL = (
    "The Lighthouse Keeper's Daughter (French: La Fille du gardien de phare) is a 2011 graphic novel written by "
    "Anne-Sophie Rigaud and drawn by the Belgian artist Luc Vandenbroucke. Set on an island off the Breton coast, it "
    "follows a girl who keeps the light burning after her father's death."
)


def test_a_graphic_novel_is_not_asked_about_as_a_novel():
    # R055: "Does the novel ... rank above the other novels of 2011?" of a graphic novel
    assert work_subject(GRAPHIC_NOVEL, "The Lighthouse Keeper's Daughter (graphic novel)") is None
    row = _row("who drew the lighthouse keeper's daughter graphic novel", ["Luc Vandenbroucke"], GRAPHIC_NOVEL)
    row["title"] = "The Lighthouse Keeper's Daughter (graphic novel)"
    with pytest.raises(NotApplicable):
        _generate(row, tx.EPISTEMIC, tx.MEDIUM, "Quality Ranking without Benchmark")


def test_a_novel_is_still_a_novel():
    subject = work_subject(GRAPHIC_NOVEL.replace("graphic novel", "novel"), "The Lighthouse Keeper's Daughter")
    assert subject is not None and subject.kind == "novel"
