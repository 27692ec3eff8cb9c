"""The perturbation lever catalogue: load, validate and query `levers/*.yaml`.

The base catalogue is one YAML file per uncertainty class in `levers/`; users may add levers with
extra files of the same format (config key `levers_extra`). The format is described in
`levers/README.md`. Every problem is reported as a `CatalogueError` naming the file and the entry.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

import yaml

from refusalbench import taxonomy
from refusalbench.errors import UserError
from refusalbench.paths import LEVERS_DIR

log = logging.getLogger(__name__)

ILLUSTRATION_KEYS: tuple[str, ...] = ("query", "context", "answer")
LEVER_KEYS: frozenset[str] = frozenset({"name", "instruction", "illustration", "programmatic"})
HEADER_KEYS: tuple[str, ...] = ("code", "targets", "garage_strategy", "intensity_criteria")
FILE_KEYS: frozenset[str] = frozenset({"class", "levers", *HEADER_KEYS})


class CatalogueError(UserError):
    """A lever-catalogue file is missing, unreadable or does not follow the format."""


@dataclass(frozen=True)
class Lever:
    """One perturbation lever of a (class, intensity) cell."""

    name: str
    instruction: str
    illustration: dict[str, str] = field(hash=False)  # keys: query, context, answer
    programmatic: bool = False
    _: KW_ONLY
    perturbation_class: str
    intensity: str

    @property
    def illustration_text(self) -> str:
        """The toy example on one line: `Q: "..." C: "..." A: "..."`."""
        ill = self.illustration
        return f'Q: "{ill["query"]}" C: "{ill["context"]}" A: "{ill["answer"]}"'

    def to_dict(self) -> dict[str, Any]:
        """The lever as it appears in a catalogue file (plus nothing else)."""
        return {
            "name": self.name,
            "instruction": self.instruction,
            "illustration": {k: self.illustration[k] for k in ILLUSTRATION_KEYS},
            "programmatic": self.programmatic,
        }


@dataclass(frozen=True)
class _ClassHeader:
    code: str
    targets: dict[str, str] = field(hash=False)
    garage_strategy: str
    intensity_criteria: dict[str, str] = field(hash=False)
    file: Path


@dataclass
class _ParsedFile:
    path: Path
    cls: str
    header: dict[str, Any]  # only the header keys present in the file
    cells: dict[str, list[Lever]]


class Catalogue:
    """The validated lever catalogue: levers per (class, intensity) cell plus per-class guidance."""

    def __init__(self, headers: dict[str, _ClassHeader], cells: dict[tuple[str, str], list[Lever]], files: list[Path]):
        self._headers = headers
        self._cells = cells
        self.files: list[Path] = list(files)
        self.content_hash: str = hashlib.sha256(_canonical_json(self.to_dict()).encode("utf-8")).hexdigest()

    def levers(self, cls: str, intensity: str) -> list[Lever]:
        """The levers of one cell, in catalogue order (base first, then extra files)."""
        return list(self._cells[_cell(cls, intensity)])

    def names(self, cls: str, intensity: str) -> list[str]:
        return [lever.name for lever in self._cells[_cell(cls, intensity)]]

    def get(self, cls: str, intensity: str, name: str) -> Lever | None:
        """The lever called `name` in this cell, or None."""
        return next((lv for lv in self._cells[_cell(cls, intensity)] if lv.name == name), None)

    def find(self, name: str) -> list[Lever]:
        """Every lever called `name`, in any cell (canonical cell order)."""
        return [lever for lever in self if lever.name == name]

    def intensity_criterion(self, cls: str, intensity: str) -> str:
        return self._headers[taxonomy.check_class(cls)].intensity_criteria[taxonomy.check_intensity(intensity)]

    def garage_strategy(self, cls: str) -> str:
        """How the class is applied to a multi-passage (GaRAGe) item."""
        return self._headers[taxonomy.check_class(cls)].garage_strategy

    def target(self, cls: str, multi_passage: bool = False) -> str:
        """What the class may modify, for single- or multi-passage data."""
        targets = self._headers[taxonomy.check_class(cls)].targets
        return targets["multi_passage" if multi_passage else "single_passage"]

    def code(self, cls: str) -> str:
        return self._headers[taxonomy.check_class(cls)].code

    def __iter__(self) -> Iterator[Lever]:
        for cell in taxonomy.cells():
            yield from self._cells[cell]

    def __len__(self) -> int:
        return sum(len(levers) for levers in self._cells.values())

    def to_dict(self) -> dict[str, Any]:
        """Canonical data of the whole catalogue (what the content hash covers; no file paths)."""
        out: dict[str, Any] = {}
        for cls in taxonomy.CLASSES:
            head = self._headers[cls]
            out[cls] = {
                "code": head.code,
                "targets": dict(head.targets),
                "garage_strategy": head.garage_strategy,
                "intensity_criteria": dict(head.intensity_criteria),
                "levers": {i: [lv.to_dict() for lv in self._cells[(cls, i)]] for i in taxonomy.INTENSITIES},
            }
        return out

    def __repr__(self) -> str:
        return f"Catalogue({len(self)} levers, {len(self.files)} files, hash={self.content_hash[:12]})"


def load_catalogue(extra_files: Sequence[str | Path] = (), directory: Path = LEVERS_DIR) -> Catalogue:
    """Load and validate the base catalogue in `directory` plus user `extra_files` (cached).

    The cache key holds each file's resolved path, size and modification time, so an edited file is
    read again.
    """
    if isinstance(extra_files, (str, Path)):
        extra_files = [extra_files]
    base_dir = Path(directory).expanduser().resolve()
    if not base_dir.is_dir():
        raise CatalogueError(f"Lever catalogue directory {base_dir} does not exist.")
    base = tuple(_stamp(p) for p in sorted(base_dir.glob("*.yaml")))
    extras = []
    for raw in extra_files:
        path = Path(str(raw)).expanduser().resolve()
        if not path.is_file():
            raise CatalogueError(
                f"Extra lever-catalogue file {raw!s} (resolved to {path}) does not exist; check `levers_extra`."
            )
        extras.append(_stamp(path))
    return _load_cached(base_dir, base, tuple(extras))


def _stamp(path: Path) -> tuple[str, int, int]:
    st = path.stat()
    return (str(path), st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=32)
def _load_cached(
    base_dir: Path, base: tuple[tuple[str, int, int], ...], extras: tuple[tuple[str, int, int], ...]
) -> Catalogue:
    if not base:
        raise CatalogueError(f"Lever catalogue directory {base_dir} holds no *.yaml files.")
    headers: dict[str, _ClassHeader] = {}
    cells: dict[tuple[str, str], list[Lever]] = {cell: [] for cell in taxonomy.cells()}
    origin: dict[tuple[str, str, str], Path] = {}  # (class, intensity, name) -> file that defined it
    base_paths = [Path(p) for p, _, _ in base]
    for path in base_paths:
        parsed = _parse_file(path, base=True)
        if parsed.cls in headers:
            raise CatalogueError(
                f"{path}: class {parsed.cls} is already defined by {headers[parsed.cls].file}; the base "
                "catalogue needs exactly one file per class (put additions in an extra file)."
            )
        headers[parsed.cls] = _ClassHeader(file=path, **parsed.header)
        _add_levers(parsed, cells, origin)
    for cls in taxonomy.CLASSES:
        if cls not in headers:
            raise CatalogueError(f"{base_dir}: the base lever catalogue has no file for class {cls}.")
        for intensity in taxonomy.INTENSITIES:
            if not cells[(cls, intensity)]:
                raise CatalogueError(
                    f"{headers[cls].file}: the base catalogue is missing cell {cls}/{intensity} "
                    f"(no levers under levers.{intensity})."
                )
    extra_paths = [Path(p) for p, _, _ in extras]
    for path in extra_paths:
        if path in base_paths:
            raise CatalogueError(
                f"{path}: this file is already part of the base catalogue; remove it from levers_extra."
            )
        parsed = _parse_file(path, base=False)
        head = headers[parsed.cls]
        for key, value in parsed.header.items():
            if value != getattr(head, key):
                raise CatalogueError(
                    f"{path}: {parsed.cls} `{key}` differs from the base catalogue ({head.file}); extra "
                    f"files add levers only, so drop `{key}` or make it identical."
                )
        _add_levers(parsed, cells, origin)
    catalogue = Catalogue(headers, cells, base_paths + extra_paths)
    log.debug("Loaded %r from %s", catalogue, ", ".join(map(str, catalogue.files)))
    return catalogue


def _add_levers(
    parsed: _ParsedFile, cells: dict[tuple[str, str], list[Lever]], origin: dict[tuple[str, str, str], Path]
) -> None:
    for intensity, levers in parsed.cells.items():
        for lever in levers:
            key = (parsed.cls, intensity, lever.name)
            if key in origin:
                raise CatalogueError(
                    f"{parsed.path}: {parsed.cls}/{intensity} lever {lever.name!r} duplicates a lever of the "
                    f"same cell in {origin[key]}; names must be unique within a cell."
                )
            origin[key] = parsed.path
            cells[(parsed.cls, intensity)].append(lever)


class _UniqueKeyLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """A safe YAML loader (libyaml's parser where installed: 10 x faster) that rejects a mapping with the same
    key twice."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def _read_yaml(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CatalogueError(f"{path}: cannot read lever-catalogue file ({exc}).") from exc
    try:
        return yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        raise CatalogueError(f"{path}: invalid YAML: {exc}") from exc


def _parse_file(path: Path, base: bool) -> _ParsedFile:
    data = _read_yaml(path)
    if not isinstance(data, dict):
        raise CatalogueError(f"{path}: a lever-catalogue file must be a YAML mapping with `class` and `levers`.")
    unknown = sorted(set(map(str, data)) - FILE_KEYS)
    if unknown:
        raise CatalogueError(f"{path}: unknown top-level key(s) {unknown}; allowed: {sorted(FILE_KEYS)}.")
    cls = data.get("class")
    if cls not in taxonomy.CLASSES:
        raise CatalogueError(f"{path}: unknown class {cls!r}; expected one of {', '.join(taxonomy.CLASSES)}.")
    header = _parse_header(path, cls, data, base)
    levers = data.get("levers")
    if not isinstance(levers, dict):
        raise CatalogueError(f"{path}: {cls} needs `levers`, a mapping from LOW/MEDIUM/HIGH to lists of levers.")
    cells: dict[str, list[Lever]] = {}
    for intensity, entries in levers.items():
        if intensity not in taxonomy.INTENSITIES:
            raise CatalogueError(
                f"{path}: {cls} levers.{intensity}: unknown intensity {intensity!r}; expected LOW, MEDIUM or HIGH."
            )
        if not isinstance(entries, list):
            raise CatalogueError(f"{path}: {cls} levers.{intensity} must be a list of levers.")
        parsed = [_parse_lever(path, cls, intensity, i, entry) for i, entry in enumerate(entries)]
        seen: set[str] = set()
        for i, lever in enumerate(parsed):
            if lever.name in seen:
                raise CatalogueError(
                    f"{path}: {cls}/{intensity} lever #{i + 1} ({lever.name!r}): duplicate name within the cell."
                )
            seen.add(lever.name)
        cells[intensity] = parsed
    return _ParsedFile(path=path, cls=cls, header=header, cells=cells)


def _parse_header(path: Path, cls: str, data: Mapping[str, Any], base: bool) -> dict[str, Any]:
    if base:
        missing = [key for key in HEADER_KEYS if key not in data]
        if missing:
            raise CatalogueError(f"{path}: {cls} is missing required key(s) {missing} (base catalogue file).")
    header: dict[str, Any] = {}
    if "code" in data:
        if data["code"] != taxonomy.CLASS_TO_CODE[cls]:
            raise CatalogueError(
                f"{path}: {cls} code {data['code']!r} does not match the taxonomy ({taxonomy.CLASS_TO_CODE[cls]})."
            )
        header["code"] = data["code"]
    if "targets" in data:
        targets = data["targets"]
        expected = {"single_passage": taxonomy.target(cls, False), "multi_passage": taxonomy.target(cls, True)}
        if targets != expected:
            raise CatalogueError(f"{path}: {cls} targets {targets!r} do not match the taxonomy ({expected!r}).")
        header["targets"] = dict(targets)
    if "garage_strategy" in data:
        header["garage_strategy"] = _text(path, f"{cls} garage_strategy", data["garage_strategy"])
    if "intensity_criteria" in data:
        crit = data["intensity_criteria"]
        if not isinstance(crit, dict) or set(crit) != set(taxonomy.INTENSITIES):
            keys = list(crit) if isinstance(crit, dict) else crit
            raise CatalogueError(
                f"{path}: {cls} intensity_criteria must map exactly LOW, MEDIUM and HIGH to text (got {keys!r})."
            )
        header["intensity_criteria"] = {
            i: _text(path, f"{cls} intensity_criteria.{i}", crit[i]) for i in taxonomy.INTENSITIES
        }
    return header


def _parse_lever(path: Path, cls: str, intensity: str, index: int, entry: Any) -> Lever:
    where = f"{path}: {cls}/{intensity} lever #{index + 1}"
    if not isinstance(entry, dict):
        raise CatalogueError(f"{where}: a lever must be a mapping with name, instruction and illustration.")
    if "name" not in entry:
        raise CatalogueError(f"{where}: missing required field `name`.")
    name = _text(path, f"{cls}/{intensity} lever #{index + 1} name", entry["name"])
    where = f"{where} ({name!r})"
    unknown = sorted(set(map(str, entry)) - LEVER_KEYS)
    if unknown:
        raise CatalogueError(f"{where}: unknown field(s) {unknown}; allowed: {sorted(LEVER_KEYS)}.")
    for key in ("instruction", "illustration"):
        if key not in entry:
            raise CatalogueError(f"{where}: missing required field `{key}`.")
    instruction = _text(path, f"{cls}/{intensity} lever {name!r} instruction", entry["instruction"])
    ill = entry["illustration"]
    if not isinstance(ill, dict):
        raise CatalogueError(f"{where}: `illustration` must be a mapping with query, context and answer.")
    extra = sorted(set(map(str, ill)) - set(ILLUSTRATION_KEYS))
    if extra:
        raise CatalogueError(f"{where}: unknown illustration field(s) {extra}; allowed: query, context, answer.")
    illustration: dict[str, str] = {}
    for key in ILLUSTRATION_KEYS:
        if key not in ill:
            raise CatalogueError(f"{where}: missing required field `illustration.{key}`.")
        illustration[key] = _text(path, f"{cls}/{intensity} lever {name!r} illustration.{key}", ill[key])
    expected = taxonomy.ground_truth(cls, intensity)
    answer = illustration["answer"]
    if intensity == taxonomy.LOW and answer in taxonomy.REFUSAL_CODES + taxonomy.GROUND_TRUTH_LABELS:
        raise CatalogueError(f"{where}: a LOW illustration must end in the short answer, not the label {answer!r}.")
    if intensity != taxonomy.LOW and answer != expected:
        raise CatalogueError(f"{where}: a {intensity} illustration's answer must be {expected}, not {answer!r}.")
    programmatic = entry.get("programmatic", False)
    if not isinstance(programmatic, bool):
        raise CatalogueError(f"{where}: `programmatic` must be true or false, not {programmatic!r}.")
    return Lever(name, instruction, illustration, programmatic, perturbation_class=cls, intensity=intensity)


def _text(path: Path, what: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise CatalogueError(f"{path}: {what} must be a non-empty string (got {value!r}).")
    return value.strip()


def _canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _cell(cls: str, intensity: str) -> tuple[str, str]:
    return (taxonomy.check_class(cls), taxonomy.check_intensity(intensity))
