"""Ambiguity MEDIUM/HIGH after the twenty-fourth blind review (texts of another run seed):

- no other work's lead whose release date runs into what the work was ("released in March 1994 the fifth and final
  single", the "as" lost in the source);
- each candidate work has its own seeded rank, so a work a gate takes out of the index changes only the items that
  had drawn it.
"""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic
from refusalbench.perturb.levers_ambiguity_pair import PARAGRAPH
from tests.perturb.test_perturb_ambiguity_pair import LANTERN, TIDES, song


def test_a_lead_with_a_release_date_run_into_the_next_phrase_is_no_companion():
    slip = song("s1", "Copper Sky", "Ilse Brandt", "1991", tail=" It was released in March 1991 the fifth single.")
    with pytest.raises(NotApplicable, match="fewer than 1"):
        generate_programmatic(LANTERN, tx.AMBIGUITY, tx.MEDIUM, 0, DistractorPool.from_base([LANTERN, slip]))
    fine = song("s2", "Copper Sky", "Ilse Brandt", "1991", tail=" It was released in March 1991 as the fifth single.")
    out = generate_programmatic(LANTERN, tx.AMBIGUITY, tx.MEDIUM, 0, DistractorPool.from_base([LANTERN, fine]))
    assert len(out["perturbed_context"].split(PARAGRAPH)) == 2


def _companion(rows: list[dict], seed: int) -> str:
    out = generate_programmatic(LANTERN, tx.AMBIGUITY, tx.MEDIUM, seed, DistractorPool.from_base(rows))
    return next(p for p in out["perturbed_context"].split(PARAGRAPH) if p != LANTERN["context"])


def test_taking_one_work_out_of_the_index_changes_only_the_items_that_drew_it():
    others = [song(f"o{i}", f"Harbour Song {i}", f"Singer Number{i}", str(1960 + i)) for i in range(8)]
    full = {seed: _companion([LANTERN, TIDES, *others], seed) for seed in range(12)}
    without_tides = {seed: _companion([LANTERN, *others], seed) for seed in range(12)}
    drew_tides = {seed for seed, text in full.items() if text == TIDES["context"]}
    assert drew_tides and len(drew_tides) < 12
    assert all(full[seed] == without_tides[seed] for seed in range(12) if seed not in drew_tides)
