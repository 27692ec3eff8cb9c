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


@pytest.mark.parametrize("cls, intensity", tx.cells())
def test_every_cell_has_implemented_catalogue_levers(cls, intensity, catalogue):
    for multi in (False, True):
        names = implemented_levers(cls, intensity, multi)
        assert names, f"{cls}/{intensity} multi={multi}"
        assert set(names) <= set(catalogue.names(cls, intensity))


@pytest.mark.parametrize("cls, intensity", tx.cells())
def test_every_cell_implements_a_lever_of_the_base_catalogue(cls, intensity):
    base = set(load_catalogue().names(cls, intensity))
    assert base & set(implemented_levers(cls, intensity)), f"{cls}/{intensity}"


def test_every_programmatic_entry_is_implemented(catalogue):
    for lever in catalogue:
        if lever.programmatic:
            assert lever.name in implemented_levers(lever.perturbation_class, lever.intensity), lever.name
