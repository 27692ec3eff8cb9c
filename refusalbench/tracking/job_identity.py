"""Which sweep job is which: a job's identity comes from the overrides that change its results.

Endpoints, ports, keys, concurrency, timeouts, the cache and the tracking store say *where* and *how
fast* a job runs, not *what* it computes, so they are left out: a rerun of a sweep against a server
restarted on another port finds the finished jobs (their directories and DONE markers) and skips them.
"""

from __future__ import annotations

import fnmatch
import hashlib
import re
from typing import Iterable, Optional

#: override keys (fnmatch patterns) that do not change what a job computes
OPERATIONAL_KEYS = (
    "name",
    "hydra",
    "hydra.*",
    "hydra/*",
    "tracking",
    "tracking.*",
    "cache",
    "cache.*",
    "*api_base",
    "*api_key*",
    "*.timeout",
    "*.max_concurrency",
    "*.rpm",
    "*.max_retries",
    "*.transport",
    "*.startup_timeout",
    "*.threads",
)
#: keys shown first in a job's directory name and label
LEADING_KEYS = ("model", "reasoning")
#: keys whose value the label already shows as `model [budget N]`
LABELLED_KEYS = {"model", "model.name", "model.id", "reasoning", "reasoning.budget_tokens"}
READABLE_LIMIT = 80


def override_key(override: str) -> str:
    """The key of a Hydra override string (`+a.b=1` -> `a.b`, `~a` -> `a`)."""
    key = override.split("=", 1)[0]
    return key.lstrip("+~")


def is_operational(key: str) -> bool:
    return any(fnmatch.fnmatchcase(key, pattern) for pattern in OPERATIONAL_KEYS)


def _leading_first(override: str) -> tuple[int, str]:
    key = override_key(override)
    lead = any(key == k or key.startswith(k + ".") for k in LEADING_KEYS)
    return (0 if lead else 1, override)


def identity_overrides(overrides: Iterable[str]) -> list[str]:
    """The overrides that change what a job computes, model and reasoning first."""
    return sorted((str(o) for o in overrides if not is_operational(override_key(str(o)))), key=_leading_first)


def job_key(overrides: Iterable[str]) -> str:
    """A job's directory name: its readable semantic overrides plus a hash of all of them.

    `model.name@model-a+reasoning@budget_1024+…-1a2b3c4d`: stable across reruns whatever the endpoints;
    path-valued overrides enter the hash only. The name needs no quoting in `hydra.run.dir=…`.
    """
    semantic = identity_overrides(overrides)
    if not semantic:
        return "default"
    digest = hashlib.sha256("\n".join(sorted(semantic)).encode()).hexdigest()[:8]
    readable = ""
    for override in semantic:
        if "/" in override.split("=", 1)[-1]:
            continue
        pair = re.sub(r"[^A-Za-z0-9@+._-]+", "_", override.replace("=", "@", 1))
        if len(readable) + len(pair) + 1 > READABLE_LIMIT:
            break  # whole settings only; the hash covers the rest
        readable += ("+" if readable else "") + pair
    return f"{readable}-{digest}" if readable else digest


def swept_keys(sweep_overrides: Iterable[str], sweeper_params: Optional[dict] = None) -> list[str]:
    """Keys that a multirun varies: command-line sweeps (`a=1,2`, `range(…)`) and `hydra.sweeper.params`."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    keys = set()
    parser = OverridesParser.create()
    for override in parser.parse_overrides(list(sweep_overrides)):
        if override.is_sweep_override():
            keys.add(override.get_key_element())
    for key, value in (sweeper_params or {}).items():
        parsed = parser.parse_override(f"{key}={value}")
        if parsed.is_sweep_override():
            keys.add(parsed.get_key_element())
    return sorted(k.lstrip("+~") for k in keys)


def job_label(model: Optional[str], budget: object, overrides: Iterable[str] = (), swept: Iterable[str] = ()) -> str:
    """A job's display name: `model [budget N]`, then the other swept semantic settings (`seed=3`)."""
    label = str(model or "run")
    if budget is not None and str(budget) not in ("", "None", "default"):
        label += f" [budget {budget}]"
    swept = set(swept)
    extra = [
        o for o in identity_overrides(overrides) if override_key(o) in swept and override_key(o) not in LABELLED_KEYS
    ]
    return label + (", " + ", ".join(extra) if extra else "")
