"""Which NQ questions a validity review may use: the pool minus every question the project itself uses.

A review must judge items made from questions that no test, fixture or example has shown to the people
who wrote the generator. Excluded, by normalised question text:

- the bundled sample (``refusalbench/data/files/nq_sample.jsonl``, the offline default's questions);
- every pool question quoted literally in the checkout's tests, docs, README or config files;
- the questions the programmatic-generator tests draw from the pool (the seeded draws of
  ``tests/perturb/conftest.py``, computed by running its fixture functions), when the checkout has them.

Once every held-out question has been reviewed, a weaker hold-out remains: *unseen items*. A question that
only the sheets of earlier reviews (``docs/reviews``) quote may still be used for a class and intensity in
which no review showed it (`reviewed_cells`), since no one has seen its item there.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import logging
import re
import sys
from pathlib import Path
from typing import Iterable, Optional

from refusalbench.errors import UserError
from refusalbench.paths import PACKAGE_DATA_DIR

log = logging.getLogger(__name__)

REPO_ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("tests", "docs", "conf", "README.md", "refusalbench/data/files")
SCANNED_SUFFIXES = {".py", ".md", ".json", ".jsonl", ".yaml", ".yml", ".csv", ".txt"}
TEST_DRAW_FIXTURES = ("single_rows", "multi_rows")  # tests/perturb/conftest.py fixtures that draw pool rows
# Files that hold many pool questions without quoting any one of them to the generator's authors: the copy of the
# whole pool kept for the tests (the questions the tests actually draw from it are excluded through
# TEST_DRAW_FIXTURES) and the source verdicts (a judgement of every source passage, no generated item).
UNSCANNED_FILES = ("tests/perturb/fixtures/nq_open_oracle_pool.jsonl", "refusalbench/data/files/nq_source_verdicts.csv")
REVIEW_RECORDS = "docs/reviews"  # the sheets and keys of earlier blind reviews, one folder per review


def normalise(question: str) -> str:
    """Lower-case, punctuation-free, single-spaced question text (what "the same question" means here)."""
    return " ".join(re.sub(r"[^\w\s]", " ", str(question).casefold()).split())


def read_pool(path: str | Path) -> list[dict]:
    """NQ-open oracle records (``question``, ``answers``, ``ctxs``) of a JSONL file, in file order."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"NQ pool file {path} does not exist.")
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            rec["question"]  # noqa: B018 - a record without a question is malformed
        except (ValueError, KeyError, TypeError) as exc:
            raise UserError(f"{path}, line {number}: not an NQ-open oracle record ({exc}).") from None
        rows.append(rec)
    return rows


def bundled_sample_questions() -> set[str]:
    return {normalise(r["question"]) for r in read_pool(PACKAGE_DATA_DIR / "nq_sample.jsonl")}


def _scanned_files(root: Path, skip_reviews: bool = False) -> Iterable[Path]:
    unscanned = {root / name for name in UNSCANNED_FILES}
    reviews = root / REVIEW_RECORDS
    for name in SCANNED:
        target = root / name
        if target.is_file():
            yield target
        elif target.is_dir():
            yield from (
                p
                for p in sorted(target.rglob("*"))
                if p.is_file()
                and p.suffix in SCANNED_SUFFIXES
                and p not in unscanned
                and not (skip_reviews and p.is_relative_to(reviews))
            )


def quoted_in_repository(questions: Iterable[str], root: Path = REPO_ROOT, skip_reviews: bool = False) -> set[str]:
    """The normalised `questions` that occur in the checkout's tests, docs, README or config files.

    With `skip_reviews`, the sheets of earlier reviews are not scanned (see `reviewed_cells`).
    """
    text = " ".join(
        normalise(p.read_text(encoding="utf-8", errors="replace")) for p in _scanned_files(root, skip_reviews)
    )
    return {q for q in questions if q and q in text}


def shown_items(root: Path = REPO_ROOT) -> set[tuple[str, str, str, str]]:
    """(normalised question, class, intensity, perturbed text) of every item that a sheet of an earlier review shows;
    the text is the perturbed question and context with their spacing collapsed ('' where the sheet has none)."""
    from refusalbench.tables import read_table

    items = set()
    for sheet in sorted((root / REVIEW_RECORDS).rglob("*.csv")):
        table = read_table(sheet)
        if {"original_question", "perturbation_class", "intensity"} <= set(table.columns):
            blank = [""] * len(table)
            columns = (table[c] if c in table.columns else blank for c in ("perturbed_question", "perturbed_context"))
            texts = [perturbed_text(q, c) for q, c in zip(*columns)]
            items.update(
                zip(table["original_question"].map(normalise), table["perturbation_class"], table["intensity"], texts)
            )
    return items


def perturbed_text(query: object, context: object) -> str:
    """An item's perturbed question and context as one string, spacing collapsed (to compare with a sheet's)."""
    return " ".join(" ".join(str(x) for x in (query, context) if isinstance(x, str)).split())


def reviewed_cells(root: Path = REPO_ROOT) -> set[tuple[str, str, str]]:
    """(normalised question, class, intensity) of every item that a sheet of an earlier review shows."""
    return {item[:3] for item in shown_items(root)}


@functools.lru_cache(maxsize=4)
def drawn_by_tests(root: Path = REPO_ROOT) -> Optional[frozenset[str]]:
    """Questions the programmatic-generator tests draw (None when the checkout has no such tests)."""
    conftest = root / "tests" / "perturb" / "conftest.py"
    if not conftest.is_file():
        return None
    sys.path.insert(0, str(root / "tests"))
    try:
        spec = importlib.util.spec_from_file_location("_refusalbench_perturb_test_draws", conftest)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        source = _unwrap(module.source_rows)()
        drawn = [_unwrap(getattr(module, name))(source) for name in TEST_DRAW_FIXTURES]
    except Exception as exc:  # noqa: BLE001 - any failure means we cannot tell; say so instead of guessing
        raise UserError(
            f"Could not compute the questions the tests in {conftest} draw ({type(exc).__name__}: {exc}); "
            "pass them with --exclude FILE, or --no-test-draws to skip this exclusion knowingly."
        ) from exc
    finally:
        sys.path.remove(str(root / "tests"))
    return frozenset(normalise(row["query"]) for rows in drawn for row in rows)


def _unwrap(fixture):
    """The plain function behind a pytest fixture (reachable as ``__wrapped__`` in pytest 8 and later)."""
    return getattr(fixture, "__wrapped__", fixture)


def read_exclusions(path: str | Path) -> set[str]:
    """Questions to exclude from a file: JSONL/CSV/parquet with a ``question`` or ``query`` column, or plain lines."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"Exclusion file {path} does not exist.")
    if path.suffix in (".jsonl", ".csv", ".parquet"):
        from refusalbench.tables import read_table

        table = read_table(path)
        column = next((c for c in ("question", "query", "original_query") if c in table.columns), None)
        if column is None:
            raise UserError(f"Exclusion file {path} has no question, query or original_query column.")
        return {normalise(q) for q in table[column].dropna()}
    return {normalise(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}


def excluded_questions(
    pool_questions: Iterable[str],
    extra_files: Iterable[str | Path] = (),
    root: Path = REPO_ROOT,
    test_draws: bool = True,
    skip_reviews: bool = False,
) -> dict[str, set[str]]:
    """The excluded normalised questions by reason: bundled sample, quoted, test draws, files given.

    With `skip_reviews`, a question quoted only by the sheets of earlier reviews is not excluded.
    """
    pool_questions = [normalise(q) for q in pool_questions]
    reasons = {
        "bundled_sample": bundled_sample_questions(),
        "quoted_in_repository": quoted_in_repository(pool_questions, root, skip_reviews),
    }
    if test_draws:
        drawn = drawn_by_tests(root)
        if drawn is None:
            log.warning(
                "no tests/perturb/conftest.py under %s: the tests' draws are not excluded (pass --exclude)", root
            )
        reasons["drawn_by_tests"] = drawn or set()
    reasons["files"] = set().union(*(read_exclusions(p) for p in extra_files)) if extra_files else set()
    return reasons


def holdout(
    pool_path: str | Path, extra_files: Iterable[str | Path] = (), root: Path = REPO_ROOT, test_draws: bool = True
) -> tuple[list[dict], dict[str, int]]:
    """(pool records no one has used, count of pool questions excluded per reason)."""
    pool = read_pool(pool_path)
    reasons = excluded_questions([r["question"] for r in pool], extra_files, root, test_draws)
    every = set().union(*reasons.values())
    kept = [r for r in pool if normalise(r["question"]) not in every]
    in_pool = {normalise(r["question"]) for r in pool}
    counts = {reason: len(qs & in_pool) for reason, qs in reasons.items()}
    counts.update(pool=len(pool), kept=len(kept))
    return kept, counts
