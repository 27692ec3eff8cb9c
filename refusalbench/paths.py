"""Where the project's data directories live, in a wheel and in a source checkout alike.

The wheel carries `conf/`, `levers/` and `prompts/` inside the package; a source checkout (and
an editable install) keeps them at the repository root beside the package.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def resource_dir(name: str) -> Path:
    """The directory `name` (conf, levers or prompts) of this installation."""
    for candidate in (PACKAGE_DIR / name, PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"RefusalBench resource directory {name!r} is missing from this installation ({PACKAGE_DIR})."
    )


CONF_DIR = resource_dir("conf")
LEVERS_DIR = resource_dir("levers")
PROMPTS_DIR = resource_dir("prompts")
PACKAGE_DATA_DIR = PACKAGE_DIR / "data" / "files"
