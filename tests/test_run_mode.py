"""The one-composition shortcut answers Hydra's mode look-up exactly as Hydra would."""

from __future__ import annotations

import pytest
from hydra import initialize_config_dir
from hydra._internal.hydra import Hydra
from hydra.core.global_hydra import GlobalHydra
from hydra.types import RunMode

from refusalbench.cli import register_configs  # noqa: F401  (the schema Hydra composes against)
from refusalbench.paths import CONF_DIR
from refusalbench.run_mode import compose_once, mode_left_unset, mode_setting_options


def hydra_mode(overrides: list[str]):
    """What Hydra's own look-up (a full composition) answers."""
    GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return GlobalHydra.instance().hydra.get_mode(config_name="config", overrides=list(overrides))


PLAIN = [
    [],
    ["pipeline=evaluate", "model=openai_compatible", "model.name=m", "tracking=off"],
    ["experiment=smoke"],
    ["+experiment=paper_nq", "seed=1,2"],
    ["-m", "seed=1,2"],
]


@pytest.mark.parametrize("argv", PLAIN)
def test_shortcut_matches_hydra_where_it_applies(argv):
    assert mode_left_unset(argv)
    assert hydra_mode([a for a in argv if not a.startswith("-")]) is None


@pytest.mark.parametrize(
    "argv",
    [
        ["experiment=rq3_model_scale"],
        ["+experiment=rq3_thinking_budgets", "pipeline=evaluate"],
        ["hydra.mode=MULTIRUN"],
        ["experiment=smoke,rq3_alignment"],
        ["experiment=glob(rq3_*)"],
        ["--config-dir", "/elsewhere"],
    ],
)
def test_command_lines_that_may_set_a_mode_are_left_to_hydra(argv):
    assert not mode_left_unset(argv)


def test_the_sweep_presets_are_the_only_files_that_set_a_mode():
    assert {group for group, _ in mode_setting_options()} == {"experiment"}
    assert ("experiment", "rq3_model_scale") in mode_setting_options()
    assert hydra_mode(["experiment=rq3_model_scale"]) == RunMode.MULTIRUN


def test_compose_once_restores_hydras_look_up():
    original = Hydra.get_mode
    with compose_once(["pipeline=evaluate"]):
        assert Hydra.get_mode is not original
        assert Hydra.get_mode(None, "config", []) is None
    assert Hydra.get_mode is original
    with compose_once(["experiment=rq3_alignment"]):
        assert Hydra.get_mode is original
