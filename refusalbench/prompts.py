"""Prompt templates: a sandboxed Jinja2 environment over `prompts/`, with versions and content hashes.

Each template file `prompts/<name>.j2` starts with a header comment
``{# name: <name>; version: <int>; variables: a, b, c #}``. The header's variable list must match
what the template actually uses (checked when the template is loaded), and `render` demands exactly
those variables. Variable values are inserted as plain text: data containing ``{{ ... }}`` or
``{% ... %}`` stays literal, because only the template file is ever compiled, never a rendered string.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import StrictUndefined, meta
from jinja2.sandbox import SandboxedEnvironment

from refusalbench import taxonomy
from refusalbench.errors import UserError
from refusalbench.paths import PROMPTS_DIR

SUFFIX = ".j2"
_HEADER = re.compile(
    r"\A\{#\s*name:\s*(?P<name>[\w-]+)\s*;\s*version:\s*(?P<version>\d+)\s*;"
    r"\s*variables:\s*(?P<variables>[\w\s,]*?)\s*#\}"
)


class PromptError(UserError):
    """An unknown template, a missing or unexpected variable, or a template that cannot render."""


# ---------------------------------------------------------------- filters and globals


def _as_list(value: Any) -> list[Any]:
    """A list from a list, tuple, numpy array or a bare string (one element); None gives []."""
    if value is None:
        return []
    if isinstance(value, (str, bytes)):
        return [value]
    if isinstance(value, Mapping):
        raise PromptError(f"Expected a list in a prompt variable, got a mapping with keys {sorted(value)}.")
    if hasattr(value, "tolist"):
        value = value.tolist()
        return value if isinstance(value, list) else [value]
    if isinstance(value, Iterable):
        return list(value)
    return [value]


def _nonempty(values: Iterable[Any]) -> list[Any]:
    """Drop None and blank strings (used for answer lists, never for passages)."""
    return [v for v in values if v is not None and str(v).strip()]


def _quote_join(values: Iterable[Any], sep: str = " OR ") -> str:
    """`"a" OR "b"`: each value in double quotes, joined by `sep`."""
    return sep.join(f'"{v}"' for v in values)


def _json_default(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "item"):
        return value.item()
    return str(value)


def _to_json(value: Any) -> str:
    """Pretty JSON without HTML escaping (Jinja's own `tojson` escapes <, > and &)."""
    return json.dumps(value, indent=2, ensure_ascii=False, default=_json_default)


def _pick(mapping: Any, *keys: str) -> dict[str, Any]:
    """The given keys of `mapping`, in that order; a missing key is an error naming it."""
    if not isinstance(mapping, Mapping):
        raise PromptError(f"Expected a mapping with keys {list(keys)}, got {type(mapping).__name__}.")
    missing = [k for k in keys if k not in mapping]
    if missing:
        raise PromptError(f"The mapping passed to a prompt lacks the key(s) {missing}; it has {sorted(mapping)}.")
    return {k: mapping[k] for k in keys}


def _fail(message: str) -> str:
    """Let a template reject its input with a clear error."""
    raise PromptError(message)


def _make_environment() -> SandboxedEnvironment:
    env = SandboxedEnvironment(
        undefined=StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(as_list=_as_list, nonempty=_nonempty, quote_join=_quote_join, to_json=_to_json, pick=_pick)
    env.globals.update(
        fail=_fail,
        REFUSAL_CODES=taxonomy.REFUSAL_CODES,
        ANSWER_ATTEMPT=taxonomy.ANSWER_ATTEMPT,
        ANSWER_CORRECTLY=taxonomy.ANSWER_CORRECTLY,
    )
    return env


_ENV = _make_environment()


# ---------------------------------------------------------------- templates


@dataclass(frozen=True)
class PromptTemplate:
    """One loaded template: its header fields, source, content hash and compiled form."""

    name: str
    version: int
    variables: tuple[str, ...]
    source: str
    path: Path
    compiled: jinja2.Template

    @property
    def sha256(self) -> str:
        """Full sha256 hex digest of the template source."""
        return hashlib.sha256(self.source.encode("utf-8")).hexdigest()

    @property
    def version_id(self) -> str:
        """`name@version:hash8`, recorded with everything the template produces."""
        return f"{self.name}@{self.version}:{self.sha256[:8]}"

    def render(self, **variables: Any) -> str:
        """Render with exactly the documented variables (None values are refused)."""
        missing = [v for v in self.variables if v not in variables]
        if missing:
            raise PromptError(
                f"Prompt template {self.name!r} needs the variable(s) {', '.join(missing)}, which were not given "
                f"(it takes: {', '.join(self.variables)})."
            )
        unexpected = sorted(set(variables) - set(self.variables))
        if unexpected:
            raise PromptError(
                f"Prompt template {self.name!r} does not take the variable(s) {', '.join(unexpected)} "
                f"(it takes: {', '.join(self.variables)})."
            )
        nones = [k for k in self.variables if variables[k] is None]
        if nones:
            raise PromptError(f"Prompt template {self.name!r}: variable(s) {', '.join(nones)} are None.")
        _check_taxonomy(self.name, variables)
        try:
            return self.compiled.render(**variables)
        except PromptError as exc:
            raise PromptError(f"Prompt template {self.name!r}: {exc}") from None
        except jinja2.TemplateError as exc:
            raise PromptError(f"Prompt template {self.name!r} failed to render: {exc}") from None


def _check_taxonomy(name: str, variables: Mapping[str, Any]) -> None:
    """Class, intensity and ground truth must be valid and consistent (the templates branch on them)."""
    try:
        if "perturbation_class" in variables:
            taxonomy.check_class(variables["perturbation_class"])
        if "intensity" in variables:
            taxonomy.check_intensity(variables["intensity"])
        if {"perturbation_class", "intensity", "ground_truth"} <= set(variables):
            rule = taxonomy.ground_truth(variables["perturbation_class"], variables["intensity"])
            if variables["ground_truth"] != rule:
                raise PromptError(
                    f"ground_truth {variables['ground_truth']!r} disagrees with the rule for "
                    f"({variables['perturbation_class']}, {variables['intensity']}), which gives {rule!r}."
                )
    except UserError as exc:
        raise PromptError(f"Prompt template {name!r}: {exc}") from None


def template_names() -> list[str]:
    """Names of all templates in the prompts directory, sorted."""
    return sorted(p.name[: -len(SUFFIX)] for p in PROMPTS_DIR.glob(f"*{SUFFIX}") if p.is_file())


@cache
def get_template(name: str) -> PromptTemplate:
    """Load, validate and compile template `name` (cached)."""
    names = template_names()
    if name not in names:
        raise PromptError(f"Unknown prompt template {name!r}; known templates: {', '.join(names)}.")
    path = PROMPTS_DIR / f"{name}{SUFFIX}"
    source = path.read_text(encoding="utf-8")
    header = _HEADER.match(source)
    if header is None:
        raise PromptError(
            f"Prompt template file {path} must start with '{{# name: <name>; version: <int>; variables: a, b, c #}}'."
        )
    if header["name"] != name:
        raise PromptError(f"Prompt template file {path} declares name {header['name']!r}; expected {name!r}.")
    variables = tuple(v.strip() for v in header["variables"].split(",") if v.strip())
    try:
        ast = _ENV.parse(source)
        compiled = _ENV.from_string(source)
    except jinja2.TemplateSyntaxError as exc:
        raise PromptError(
            f"Prompt template file {path} has a syntax error at line {exc.lineno}: {exc.message}"
        ) from None
    used = meta.find_undeclared_variables(ast) - set(_ENV.globals)
    if used != set(variables):
        raise PromptError(
            f"Prompt template file {path}: the header documents {sorted(variables)} but the template uses "
            f"{sorted(used)}."
        )
    return PromptTemplate(name, int(header["version"]), variables, source, path, compiled)


def render(name: str, **variables: Any) -> str:
    """Render template `name` with exactly its documented variables."""
    return get_template(name).render(**variables)


def template_version(name: str) -> str:
    """`name@<version>:<first 8 hex of the source sha256>`."""
    return get_template(name).version_id


def declared_version(name: str) -> str:
    """`template_version(name)` from the file's header and bytes alone, without compiling the template.

    What run provenance records for every template; a file whose header does not declare `name` is
    loaded in full, so that its error is the one `get_template` gives.
    """
    if name not in template_names():
        return template_version(name)
    source = (PROMPTS_DIR / f"{name}{SUFFIX}").read_text(encoding="utf-8")
    header = _HEADER.match(source)
    if header is None or header["name"] != name:
        return template_version(name)
    return f"{name}@{int(header['version'])}:{hashlib.sha256(source.encode('utf-8')).hexdigest()[:8]}"


def template_hash(name: str) -> str:
    """Full sha256 hex digest of the template source."""
    return get_template(name).sha256


def documented_variables(name: str) -> list[str]:
    """The variables the template's header documents, in header order."""
    return list(get_template(name).variables)
