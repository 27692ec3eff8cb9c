"""Command-line overrides checked before Hydra composes them, with "did you mean" suggestions.

Hydra reports an unknown group or key as several lines of text ending in a hint to prepend ``+``
(which leads to a second error here, since the schema has no such key) and exits 1. This module
checks every override against the config groups in `conf/` and the schema in
`refusalbench.config`, and raises one `UserError` naming every problem at once.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import typing
from pathlib import Path
from typing import Any, Optional

from refusalbench import termination
from refusalbench.config import RefusalBenchConfig
from refusalbench.errors import UserError
from refusalbench.paths import CONF_DIR


def _suggest(word: str, candidates: list[str]) -> str:
    close = difflib.get_close_matches(word, candidates, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def config_groups(conf_dir: Path = CONF_DIR) -> dict[str, list[str]]:
    """Top-level config group -> its option names (hydra/* groups excluded)."""
    return {
        d.name: sorted(p.stem for p in d.glob("*.yaml"))
        for d in sorted(conf_dir.iterdir())
        if d.is_dir() and d.name != "hydra"
    }


def _dataclass_of(tp: Any) -> Optional[type]:
    args = [a for a in typing.get_args(tp) if a is not type(None)]
    if typing.get_origin(tp) is typing.Union and len(args) == 1:
        tp = args[0]
    return tp if dataclasses.is_dataclass(tp) else None


def key_problem(key: str, schema: type = RefusalBenchConfig) -> Optional[str]:
    """Why the dotted `key` is not in the schema (None if it is)."""
    return _walk_key(key, schema)[0]


def leaf_type(key: str, schema: type = RefusalBenchConfig) -> Any:
    """The schema's type annotation for the dotted `key` (None if unknown or free-form)."""
    return _walk_key(key, schema)[1]


def _walk_key(key: str, schema: type) -> tuple[Optional[str], Any]:
    parts = key.split(".")
    node: Optional[type] = schema
    walked: list[str] = []
    i = 0
    tp: Any = None
    while i < len(parts):
        if node is None:
            return None, None  # below a free-form mapping (e.g. extra_params): anything goes
        hints = typing.get_type_hints(node)
        part = parts[i]
        if part not in hints:
            where = f"under '{'.'.join(walked)}'" if walked else "at the top level"
            return f"unknown key '{key}' ('{part}' is not an option {where}{_suggest(part, sorted(hints))})", None
        walked.append(part)
        tp = hints[part]
        if _dataclass_of(tp):
            node = _dataclass_of(tp)
        elif typing.get_origin(tp) is dict and _dataclass_of(typing.get_args(tp)[1]):
            if i + 1 < len(parts):  # a name of the caller's choosing (e.g. generators.models.<name>)
                walked.append(parts[i + 1])
                i += 1
            node = _dataclass_of(typing.get_args(tp)[1])
        else:
            node = None
        i += 1
    return None, (tp if node is None or _dataclass_of(tp) is None else None)


def value_problem(key: str, value: Any, tp: Any) -> Optional[str]:
    """Why `value` (as Hydra parsed it) cannot be stored in a field of type `tp` (None if it can)."""
    args = typing.get_args(tp)
    optional = typing.get_origin(tp) is typing.Union and type(None) in args
    base = next((a for a in args if a is not type(None)), tp) if optional else tp
    if value is None:
        return None if optional else f"'{key}' cannot be null"
    if isinstance(value, str) and "${" in value:
        return None  # an interpolation, resolved later
    if isinstance(base, type) and issubclass(base, enum.Enum):
        choices = [str(m.value) for m in base]
        if str(value) in choices:
            return None
        return f"'{key}' must be one of {', '.join(choices)}, got {value!r}{_suggest(str(value), choices)}"
    expected = {int: "an integer", float: "a number", bool: "true or false"}.get(base)
    if expected is None:
        return None
    ok = (
        isinstance(value, bool)
        if base is bool
        else isinstance(value, int) and not isinstance(value, bool)
        if base is int
        else isinstance(value, (int, float)) and not isinstance(value, bool)
    )
    return None if ok else f"'{key}' must be {expected}, got {value!r}"


def _values(override: Any) -> list[str]:
    from hydra.core.override_parser.types import ChoiceSweep, Glob

    value = override.value()
    if isinstance(value, Glob) or value is None:
        return []
    if isinstance(value, ChoiceSweep) or override.is_sweep_override():
        return [str(v) for v in override.sweep_string_iterator()]
    return [str(value)]


def override_problems(overrides: list[str], conf_dir: Path = CONF_DIR) -> list[str]:
    """Every unknown group, option or key among `overrides` (Hydra syntax), each with a suggestion."""
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import OverrideParseException

    groups = config_groups(conf_dir)
    fields = sorted(f.name for f in dataclasses.fields(RefusalBenchConfig))
    problems = []
    parser = OverridesParser.create()
    for text in overrides:
        try:
            (override,) = parser.parse_overrides([text])
        except OverrideParseException as exc:
            problems.append(f"cannot read the override {text!r}: {str(exc).splitlines()[0]}")
            continue
        key = override.key_or_group
        if key.startswith("hydra") or override.is_delete():
            continue
        if "/" in key:
            continue  # a nested group such as hydra/launcher
        if "." not in key:
            if key in groups:
                known = groups[key]
                for value in _values(override):
                    if value not in known and value != "null":
                        elsewhere = [g for g, options in groups.items() if value in options]
                        where = ""
                        if elsewhere:
                            where = (
                                f"; it is an option of another group: {', '.join(f'{g}={value}' for g in elsewhere)}"
                            )
                        problems.append(
                            f"unknown option '{value}' for config group '{key}'{_suggest(value, known)} "
                            f"(options: {', '.join(known)}){where}"
                        )
                continue
            if key not in fields:
                suggestion = _suggest(key, sorted(set(groups) | set(fields)))
                problems.append(f"unknown config group or key '{key}'{suggestion}")
                continue
        problem, tp = _walk_key(key, RefusalBenchConfig)
        if problem:
            problems.append(problem)
        elif tp is not None and not override.is_sweep_override():
            wrong = value_problem(key, override.value(), tp)
            if wrong:
                problems.append(wrong)
    return problems


def command_line_overrides(argv: list[str]) -> Optional[list[str]]:
    """The overrides among Hydra's command-line arguments (None if Hydra's own parser rejects them)."""
    from hydra._internal.utils import get_args_parser

    try:
        args, _ = get_args_parser().parse_known_args(argv)
    except termination.Terminated:
        raise
    except SystemExit:
        return None
    return list(args.overrides or [])


def check_command_line(argv: list[str]) -> None:
    """Raise one UserError listing every unknown group, option or key on the command line."""
    overrides = command_line_overrides(argv)
    problems = override_problems(overrides) if overrides else []
    if problems:
        listing = " ".join(f"({i}) {p}" for i, p in enumerate(problems, start=1))
        end = "" if listing.endswith(("?", ".")) else "."
        raise UserError(
            f"The command line has {len(problems)} problem(s): {listing}{end} Options and keys are "
            "listed by `refusalbench --help`; no '+' is needed (and none can add a key the schema lacks)."
        )
