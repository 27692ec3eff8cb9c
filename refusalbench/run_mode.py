"""Compose the configuration once: skip Hydra's look-up of `hydra.mode` when the command line cannot set it.

Before running the app, `@hydra.main` composes the whole configuration a first time only to read
`hydra.mode`, then composes it again to run (each composition costs about a third of a second). Only
a few files of this package's configuration set `hydra.mode` (sweep presets in conf/experiment/).
When the command line selects none of them, does not set `hydra.mode` and adds no config
directory, that first composition can only answer None (the `--multirun` flag then decides), so the
answer is given without composing.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Iterator, Sequence

from hydra._internal.hydra import Hydra

from refusalbench.paths import CONF_DIR

_SETS_MODE = re.compile(r"^\s*mode:\s*(?:RUN|MULTIRUN)\b", re.MULTILINE)
#: Hydra flags that change which configuration files are read
_CONFIG_FLAGS = ("--config-dir", "-cd", "--config-path", "-cp", "--config-name", "-cn", "--experimental-rerun")


@functools.cache
def mode_setting_options() -> frozenset[tuple[str, str]]:
    """(group, option) of the config files that set `hydra.mode`, or name a file that does.

    The group of a file at the top of conf/ is "". Naming is judged by the text, so a file that only
    mentions such an option in a comment counts too: a false alarm costs one composition, nothing else.
    """
    files = {path: path.read_text(encoding="utf-8") for path in CONF_DIR.rglob("*.yaml")}
    found = {path for path, text in files.items() if _SETS_MODE.search(text)}
    while True:
        names = "|".join(re.escape(p.stem) for p in found)
        more = {p for p, text in files.items() if p not in found and re.search(rf"\b(?:{names})\b", text)}
        if not names or not more:
            break
        found |= more
    return frozenset(("" if p.parent == CONF_DIR else p.parent.relative_to(CONF_DIR).as_posix(), p.stem) for p in found)


def mode_left_unset(argv: Sequence[str]) -> bool:
    """True when composing the configuration for `argv` cannot give `hydra.mode` a value."""
    options = mode_setting_options()
    if any(group == "" for group, _ in options):
        return False
    groups = {group for group, _ in options}
    for arg in argv:
        if arg.startswith("-"):
            if arg.split("=", 1)[0] in _CONFIG_FLAGS:
                return False
            continue
        key, _, value = arg.partition("=")
        key = key.lstrip("+~")
        group = key.split("@", 1)[0]
        if key == "hydra.mode":
            return False
        if group in groups and ("(" in value or any((group, v.strip()) in options for v in value.split(","))):
            return False
    return True


@contextlib.contextmanager
def compose_once(argv: Sequence[str]) -> Iterator[None]:
    """Within the block, Hydra's mode look-up answers None without composing when `argv` cannot set a mode."""
    if not mode_left_unset(argv) or not hasattr(Hydra, "get_mode"):
        yield
        return
    original = Hydra.get_mode
    Hydra.get_mode = lambda self, config_name, overrides: None
    try:
        yield
    finally:
        Hydra.get_mode = original
