"""The lever catalogue: counts, exact names, illustration rule, hashing, extra files, validation errors."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
import yaml

from refusalbench import taxonomy
from refusalbench.levers import Catalogue, CatalogueError, Lever, load_catalogue
from refusalbench.paths import LEVERS_DIR

COUNTS = {
    "P-Ambiguity": (10, 9, 10),
    "P-Contradiction": (8, 10, 10),
    "P-MissingInfo": (9, 11, 10),
    "P-FalsePremise": (10, 10, 10),
    "P-GranularityMismatch": (10, 10, 10),
    "P-EpistemicMismatch": (9, 10, 10),
}
# sha256 of the canonical JSON {class: {intensity: [names]}} of the original code's lever names, so the
# exact-name check runs on a clean clone; where a copy of that list (levers.json, kept beside the
# repository, not in it) is present, the names are also compared one by one.
REFERENCE_NAMES_SHA256 = "d192519d328e31866ed9b8dbc2644d220e9781d2114879ee1e7d3aafa91e44db"
REFERENCE_FILE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "levers.json"


def _names_digest(names: dict[str, dict[str, list[str]]]) -> str:
    text = json.dumps(names, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _catalogue_names(cat: Catalogue) -> dict[str, dict[str, list[str]]]:
    return {c: {i: cat.names(c, i) for i in taxonomy.INTENSITIES} for c in taxonomy.CLASSES}


@pytest.fixture(scope="module")
def cat() -> Catalogue:
    return load_catalogue()


@pytest.fixture
def levers_copy(tmp_path: Path) -> Path:
    """A writable copy of the base catalogue directory."""
    target = tmp_path / "levers"
    target.mkdir()
    for path in LEVERS_DIR.glob("*.yaml"):
        shutil.copy(path, target / path.name)
    return target


def _edit(path: Path, change) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def _raises(directory: Path, *fragments: str, extra=()) -> str:
    with pytest.raises(CatalogueError) as info:
        load_catalogue(extra_files=extra, directory=directory)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in error: {message}"
    return message


def test_counts(cat: Catalogue) -> None:
    assert len(cat) == 176
    for cls, counts in COUNTS.items():
        assert tuple(len(cat.levers(cls, i)) for i in taxonomy.INTENSITIES) == counts, cls
    assert len(cat.files) == 6
    assert all(isinstance(lever, Lever) and not lever.programmatic for lever in cat)


def test_names_match_reference_exactly(cat: Catalogue) -> None:
    names = _catalogue_names(cat)
    if REFERENCE_FILE.is_file():
        reference = json.loads(REFERENCE_FILE.read_text(encoding="utf-8"))
        expected = {c: {i: [x["name"] for x in reference[c][i]] for i in taxonomy.INTENSITIES} for c in reference}
        assert list(reference) == list(taxonomy.CLASSES)
        assert names == expected
    assert _names_digest(names) == REFERENCE_NAMES_SHA256


def test_levers_are_complete_and_follow_ground_truth(cat: Catalogue) -> None:
    for cls, intensity in taxonomy.cells():
        for lever in cat.levers(cls, intensity):
            assert (lever.perturbation_class, lever.intensity) == (cls, intensity)
            assert lever.instruction and set(lever.illustration) == {"query", "context", "answer"}
            assert all(lever.illustration.values())
            answer = lever.illustration["answer"]
            if intensity == taxonomy.LOW:
                assert answer not in taxonomy.GROUND_TRUTH_LABELS + taxonomy.REFUSAL_CODES, lever.name
            else:
                assert answer == taxonomy.ground_truth(cls, intensity), lever.name
            assert cat.get(cls, intensity, lever.name) == lever
            assert lever.illustration_text.startswith('Q: "')
    assert cat.get("P-Ambiguity", "LOW", "No Such Lever") is None


def test_class_guidance(cat: Catalogue) -> None:
    for cls in taxonomy.CLASSES:
        assert cat.code(cls) == taxonomy.CLASS_TO_CODE[cls]
        assert cat.target(cls) == taxonomy.target(cls)
        assert cat.target(cls, multi_passage=True) == taxonomy.target(cls, multi_passage=True)
        assert len(cat.garage_strategy(cls)) > 80
        assert all(cat.intensity_criterion(cls, i) for i in taxonomy.INTENSITIES)
    with pytest.raises(taxonomy.TaxonomyError):
        cat.levers("P-Nonsense", "LOW")


def test_content_hash_stable_and_sensitive(cat: Catalogue, levers_copy: Path) -> None:
    copy = load_catalogue(directory=levers_copy)
    assert copy.content_hash == cat.content_hash  # paths are not part of the hash
    assert len(cat.content_hash) == 64 and int(cat.content_hash, 16) >= 0
    assert load_catalogue() is cat  # cached
    _edit(
        levers_copy / "contradiction.yaml",
        lambda d: d["levers"]["LOW"][0].update(instruction="Reword the figure slightly."),
    )
    changed = load_catalogue(directory=levers_copy)
    assert changed.content_hash != cat.content_hash
    assert changed.levers("P-Contradiction", "LOW")[0].instruction == "Reword the figure slightly."


def test_extra_file_adds_lever(cat: Catalogue, tmp_path: Path) -> None:
    extra = tmp_path / "mine.yaml"
    extra.write_text(
        "class: P-MissingInfo\n"
        "levers:\n"
        "  HIGH:\n"
        "    - name: Number Masking\n"
        "      instruction: Replace every digit of the answer with X.\n"
        "      programmatic: true\n"
        "      illustration: {query: 'When was it built?', context: 'It was built in XXXX.',"
        " answer: REFUSE_INFO_MISSING_IN_CONTEXT}\n",
        encoding="utf-8",
    )
    bigger = load_catalogue(extra_files=[str(extra)])
    assert len(bigger) == 177 and bigger.files[-1] == extra.resolve()
    assert bigger.content_hash != cat.content_hash
    (found,) = bigger.find("Number Masking")
    assert found.programmatic and (found.perturbation_class, found.intensity) == ("P-MissingInfo", "HIGH")
    assert bigger.names("P-MissingInfo", "HIGH")[-1] == "Number Masking"
    assert bigger.garage_strategy("P-MissingInfo") == cat.garage_strategy("P-MissingInfo")


def test_broken_unknown_class(levers_copy: Path) -> None:
    path = levers_copy / "ambiguity.yaml"
    _edit(path, lambda d: d.update({"class": "P-Vagueness"}))
    _raises(levers_copy, str(path), "P-Vagueness")


def test_broken_unknown_intensity(levers_copy: Path) -> None:
    path = levers_copy / "false_premise.yaml"
    _edit(path, lambda d: d["levers"].update({"EXTREME": d["levers"]["HIGH"]}))
    _raises(levers_copy, str(path), "EXTREME")


def test_broken_duplicate_name(levers_copy: Path) -> None:
    path = levers_copy / "granularity_mismatch.yaml"
    _edit(path, lambda d: d["levers"]["MEDIUM"].append(dict(d["levers"]["MEDIUM"][2])))
    _raises(levers_copy, str(path), "Part-of-part Detail", "duplicate")


def test_broken_missing_instruction(levers_copy: Path) -> None:
    path = levers_copy / "epistemic_mismatch.yaml"
    _edit(path, lambda d: d["levers"]["HIGH"][3].pop("instruction"))
    _raises(levers_copy, str(path), "Moral Absolute", "instruction")


def test_broken_missing_cell(levers_copy: Path) -> None:
    path = levers_copy / "missing_info.yaml"
    _edit(path, lambda d: d["levers"].pop("MEDIUM"))
    _raises(levers_copy, str(path), "P-MissingInfo/MEDIUM")


def test_broken_missing_class_file(levers_copy: Path) -> None:
    (levers_copy / "contradiction.yaml").unlink()
    _raises(levers_copy, str(levers_copy), "P-Contradiction")


@pytest.mark.parametrize(
    ("change", "fragments"),
    [
        (lambda d: d.update(code="REFUSE_OTHER"), ["REFUSE_OTHER"]),
        (lambda d: d["levers"]["MEDIUM"][0]["illustration"].update(answer="Oslo"), ["Balanced Polysemy", "Oslo"]),
        (
            lambda d: d["levers"]["LOW"][1]["illustration"].update(answer="REFUSE_AMBIGUOUS_QUERY"),
            ["Salient-antecedent Pronoun", "LOW"],
        ),
        (lambda d: d["levers"]["LOW"][0]["illustration"].pop("context"), ["Dominant-sense Polysemy", "context"]),
        (lambda d: d["levers"]["HIGH"][0].update(programmatic="yes"), ["Reduced Relative Clause Clash"]),
        (lambda d: d["levers"]["HIGH"][1].update(instruction=["a", "b"]), ["Pure Homonymy Clash", "instruction"]),
        (lambda d: d["levers"]["HIGH"][2].update(hint="x"), ["Nested Garden-path Sentence", "hint"]),
        (lambda d: d.pop("garage_strategy"), ["garage_strategy"]),
        (lambda d: d["levers"]["LOW"][4].pop("name"), ["P-Ambiguity/LOW lever #5", "name"]),
    ],
)
def test_broken_other_defects(levers_copy: Path, change, fragments: list[str]) -> None:
    path = levers_copy / "ambiguity.yaml"
    _edit(path, change)
    _raises(levers_copy, str(path), *fragments)


def test_broken_yaml_duplicate_key(levers_copy: Path) -> None:
    path = levers_copy / "contradiction.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "code: REFUSE_CONTRADICTORY_CONTEXT\n", encoding="utf-8")
    _raises(levers_copy, str(path), "duplicate key")


def test_broken_extra_files(tmp_path: Path) -> None:
    dup = tmp_path / "dup.yaml"
    dup.write_text(
        "class: P-FalsePremise\nlevers:\n  LOW:\n    - name: Mis-dated Discovery\n      instruction: Again.\n"
        "      illustration: {query: q, context: c, answer: a}\n",
        encoding="utf-8",
    )
    _raises(LEVERS_DIR, str(dup), "Mis-dated Discovery", "false_premise.yaml", extra=[dup])
    override = tmp_path / "override.yaml"
    override.write_text("class: P-FalsePremise\ngarage_strategy: Something else.\nlevers: {}\n", encoding="utf-8")
    _raises(LEVERS_DIR, str(override), "garage_strategy", extra=[override])
    _raises(LEVERS_DIR, "nowhere.yaml", "levers_extra", extra=[tmp_path / "nowhere.yaml"])
