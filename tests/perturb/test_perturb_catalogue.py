"""The programmatic levers exist in the catalogue and cover all 18 cells."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.levers import load_catalogue
from refusalbench.perturb import PROGRAMMATIC_LEVERS_FILES, implemented_levers


@pytest.fixture(scope="module")
def catalogue():
    return load_catalogue(extra_files=PROGRAMMATIC_LEVERS_FILES)


def test_our_files_load_beside_the_base_catalogue(catalogue):
    base = load_catalogue()
    assert 1 <= len(PROGRAMMATIC_LEVERS_FILES) <= 6
    ours = [lv for lv in catalogue if lv.programmatic]
    assert ours and len(catalogue) == len(base) + len(ours)
    assert not any(base.get(lv.perturbation_class, lv.intensity, lv.name) for lv in ours)


# cells no rule makes valid items for (README, "Programmatic generator"): the epistemic levers and the Granularity
# LOW and HIGH questions edit the query, which the multi-passage targets of those classes (the context) exclude (the
# Ambiguity levers are registered for both shapes, as the target allows, and decline multi-passage items)
DECLINED = {(tx.GRANULARITY, i, True) for i in (tx.LOW, tx.HIGH)} | {(tx.EPISTEMIC, i, True) for i in tx.INTENSITIES}


@pytest.mark.parametrize("cls, intensity", tx.cells())
def test_every_cell_but_the_declined_ones_has_implemented_catalogue_levers(cls, intensity, catalogue):
    for multi in (False, True):
        names = implemented_levers(cls, intensity, multi)
        assert bool(names) == ((cls, intensity, multi) not in DECLINED), f"{cls}/{intensity} multi={multi}"
        assert set(names) <= set(catalogue.names(cls, intensity))


# Granularity LOW has only our own "Year Asked of a Dated Event" (the base LOW levers ask at the very precision the
# context states: the one tried, Inline Unit Conversion, was judged to have no mismatch at all, 0 of 18 valid in the
# forty-eighth review). HIGH has the base "Global Average from Street Data" (the world's average of one instance's
# count, since the seventieth review); MEDIUM the base "Part-of-part Detail" beside our own "Answer Stated One Level
# Coarser" and "Metre-precise Coordinates of a Named Place" (HIGH until the eighty-first review).
OWN_LEVERS_ONLY = {(tx.GRANULARITY, tx.LOW)}


@pytest.mark.parametrize("cls, intensity", tx.cells())
def test_every_implemented_cell_has_a_lever_of_the_base_catalogue(cls, intensity):
    names = set(implemented_levers(cls, intensity))
    if names and (cls, intensity) not in OWN_LEVERS_ONLY:
        assert set(load_catalogue().names(cls, intensity)) & names, f"{cls}/{intensity}"


@pytest.mark.parametrize(
    "name",
    [
        "Category Swap",
        "Fact Recast as Unsupported Opinion",
        "Fact Recast as Personal Taste",
        "Mild Evaluative Aside",
        "Placeholder Citation",
        "Equal-standing Denial",
        "Long-range Trend Extrapolation",
        "Dual-eligible Pronoun",
        "Factive Verb Contradiction",
        "Same-source Self-contradiction",
        "Answer Stated at a Far Coarser Scale",
        "Rougher Question, Exact Passage",
        "Answer Clause Excised",
        "Peripheral Attribute Clash",
        "Placeholder Entity Substitution",
        "Answer and Subject Sentences Deleted",
        "Inline Unit Conversion",
        "Molecular vs. Organism",
        "Burial for a Living Person",
    ],
)
def test_levers_that_made_invalid_items_are_out_of_rotation(name):
    assert not any(name in implemented_levers(c, i, m) for c, i in tx.cells() for m in (False, True))


def test_every_programmatic_entry_is_implemented(catalogue):
    for lever in catalogue:
        if lever.programmatic:
            assert lever.name in implemented_levers(lever.perturbation_class, lever.intensity), lever.name
