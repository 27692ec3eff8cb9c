"""Property tests of the programmatic generator over hundreds of oracle-pool questions.

Every produced item must pass the check stage by construction (the check stage's own function is
used), keep its class's invariants and read as clean English; every cell must cover most questions,
except where the generator declines by design (precision first: Ambiguity LOW needs a subject named in
the query, MEDIUM/HIGH other works of its kind asked the same question; Contradiction a date, year or
figure in a short plain sentence; FalsePremise LOW a work the passage dates, MEDIUM a work the passage
says was released; Granularity LOW the year of an event dated to the day, MEDIUM an exact date or year,
HIGH is not generated; Epistemic a work or building the passage opens on).
"""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.generation.checks import check_candidate
from refusalbench.levers import load_catalogue
from refusalbench.perturb import (
    PROGRAMMATIC_LEVERS_FILES,
    NotApplicable,
    coverage,
    format_coverage,
    generate_programmatic,
    implemented_levers,
)
from refusalbench.perturb.text import contains_any, is_clean, raw_contains_any, split_sentences
from tests.perturb.conftest import generate_all

MIN_COVERAGE_SINGLE = 0.7
# cells where declining is the design (measured on this 300-question sample, after the source gate that declines a
# question whose passage does not clearly state its answer: Ambiguity 1 / 2.3 / 2 % (LOW: "it" only with one salient
# referent and enough question left; MEDIUM/HIGH: "who sang / wrote ..." or "when did ... come out" of a work, with one
# or two other works of its kind that the whole pool asks the same of); Contradiction 1 / 1 / 0 % (dates, years and
# figures only, restated as a short plain core of at most 18 words that alone states the answer, the rival year dating
# the same event; LOW's side year is out of rotation; HIGH has no rule-based lever since the tenfold count left it);
# MissingInfo MEDIUM 0.3 % (a price or a count masked where no other amount, figure or list stays: the answer-sentence
# cut, the entity placeholder and the temporal adjunct are out of rotation; 3 % with the temporal adjunct, 13 % with the
# placeholder, 26 % before the place stand-in went and the temporal adjunct declined other dates); FalsePremise 0 / 3 /
# 1.7 % (LOW: a work the passage dates, named in the query; MEDIUM: a work the passage says was released, published or
# aired in a given year; HIGH: "who <sang / wrote / directed ...> <the passage's title>" only); Granularity 0.3 / 2.0 /
# 0 % (LOW the year of an event the passage dates to the month or day, where the bare year is a gold answer; HIGH the
# metre-precise position of a spot the passage only names, near-empty; MEDIUM an exact date or a year, only where
# nothing else in the passage dates it; 2.7 % while a
# figure of 100 or more was put as a range); Epistemic 0.7 / 10 / 10 % (a work or building the passage's opening
# sentence names)). The thinnest non-empty cells must still produce something.
MIN_COVERAGE_CELL = {
    (tx.AMBIGUITY, tx.LOW): 0.005,
    (tx.AMBIGUITY, tx.MEDIUM): 0.01,
    (tx.AMBIGUITY, tx.HIGH): 0.01,
    # 0.7 / 0.7 % with the source gate's number rule (a query number the passage does not state)
    (tx.CONTRADICTION, tx.LOW): 0.005,
    (tx.CONTRADICTION, tx.MEDIUM): 0.005,
    (tx.CONTRADICTION, tx.HIGH): 0.0,
    (tx.MISSING_INFO, tx.MEDIUM): 0.003,
    # 60 % single / 59 % multi since the non-answer deletion keeps any sentence holding a query word, lying between
    # the answer and a query word, pointed back to by the next sentence (a pronoun, "such", "The <noun>") or sharing
    # an answer word's stem, and the bracket cut keeps abbreviations and brackets holding a query word; 56 % / 55 %
    # once a sentence that a later "the <noun>" points back to and a bracket limiting its statement stay; 54 % / 51 %
    # since only an opening clause that dates the statement is cut and a "(see ...)" bracket stays
    (tx.MISSING_INFO, tx.LOW): 0.5,
    # 1.7 % since the purge declines where what it cuts would take another figure, or (a whole sentence) another
    # clause, with the answer (3.7 % before; 5 % with the subject cut): answer tokens purged (short factoids), only
    # where what is left reads as a passage, no pronoun for people points back to what went, and no other name of
    # the answer's kind stays beside the query's words (11 % before those, with the subject cut)
    (tx.MISSING_INFO, tx.HIGH): 0.01,
    # 0 % here since the source gate declines a query naming a number the passage does not state (3 of 2,124)
    (tx.FALSE_PREMISE, tx.LOW): 0.0,
    (tx.FALSE_PREMISE, tx.MEDIUM): 0.01,
    (tx.FALSE_PREMISE, tx.HIGH): 0.01,
    (tx.GRANULARITY, tx.LOW): 0.003,
    (tx.GRANULARITY, tx.MEDIUM): 0.02,
    (tx.GRANULARITY, tx.HIGH): 0.0,
    (tx.EPISTEMIC, tx.LOW): 0.003,
    (tx.EPISTEMIC, tx.MEDIUM): 0.07,
    (tx.EPISTEMIC, tx.HIGH): 0.07,
}
# multi-passage: the query-side levers do not apply where the target is the context (Ambiguity, Epistemic,
# Granularity LOW); context-only coarsening needs a date or figure in a slot a coarser description fits;
# Contradiction replaces a noise passage with the restated answer sentence (measured 0 / 0 / 0 % on this sample
# since the short-core gate and the side year's removal; MEDIUM/HIGH need the answer stated in one sentence of
# all the passages, which other signal passages seldom leave); Granularity MEDIUM 0.7 % (1.3 % with figures as
# ranges); MissingInfo MEDIUM 0 % on this sample (a price or a count with nothing left to give it back; 2 % with
# the temporal adjunct); FalsePremise HIGH 0 % (the title it quotes is a single passage's)
MIN_COVERAGE_MULTI = {
    tx.GRANULARITY: 0.0,
    (tx.GRANULARITY, tx.MEDIUM): 0.005,
    (tx.MISSING_INFO, tx.MEDIUM): 0.0,
    (tx.MISSING_INFO, tx.HIGH): 0.01,  # 1.3 % since a purge that would take another figure or clause is
    # declined (7.3 % before; 10 % with the subject cut, 15 % before the pronoun and rival-name gates)
    tx.AMBIGUITY: 0.0,
    tx.EPISTEMIC: 0.0,
    (tx.CONTRADICTION, tx.LOW): 0.0,
    (tx.CONTRADICTION, tx.MEDIUM): 0.0,
    (tx.CONTRADICTION, tx.HIGH): 0.0,
    (tx.FALSE_PREMISE, tx.LOW): 0.0,
    (tx.FALSE_PREMISE, tx.MEDIUM): 0.0,
    (tx.FALSE_PREMISE, tx.HIGH): 0.0,
}


@pytest.fixture(scope="module")
def catalogue():
    return load_catalogue(extra_files=PROGRAMMATIC_LEVERS_FILES)


def _candidate(row: dict, out: dict, cls: str, intensity: str, multi: bool) -> dict:
    cand = {
        "generation_ok": True,
        "perturbation_class": cls,
        "intensity": intensity,
        "original_query": row["query"],
        "original_answers": row["answers"],
        "perturbed_query": out["perturbed_query"],
        "lever_selected": out["lever_selected"],
    }
    if multi:
        cand.update(
            original_passages=row["passages"],
            perturbed_passages=out["perturbed_passages"],
            signal_indices=row["signal_indices"],
            noise_indices=row["noise_indices"],
        )
    else:
        cand.update(original_context=row["context"], perturbed_context=out["perturbed_context"])
    return cand


def _coverage_table(items: dict) -> str:
    lines = []
    for (cls, intensity), pairs in items.items():
        made = [o for _, o in pairs if o]
        lines.append(f"{cls:<24} {intensity:<6} {len(made):4d}/{len(pairs):<4d} {100 * len(made) / len(pairs):5.1f}%")
    return "\n".join(lines)


def test_every_cell_covers_most_single_passage_questions(single_items):
    print("\nsingle-passage coverage per cell\n" + _coverage_table(single_items))
    for (cls, intensity), pairs in single_items.items():
        share = sum(1 for _, o in pairs if o) / len(pairs)
        assert share >= MIN_COVERAGE_CELL.get((cls, intensity), MIN_COVERAGE_SINGLE), f"{cls}/{intensity}: {share:.0%}"


def test_every_cell_covers_multi_passage_questions(multi_items):
    print("\nmulti-passage coverage per cell\n" + _coverage_table(multi_items))
    for (cls, intensity), pairs in multi_items.items():
        share = sum(1 for _, o in pairs if o) / len(pairs)
        least = MIN_COVERAGE_MULTI.get(
            (cls, intensity), MIN_COVERAGE_MULTI.get(cls, MIN_COVERAGE_CELL.get((cls, intensity), MIN_COVERAGE_SINGLE))
        )
        assert share >= least, f"{cls}/{intensity}: {share:.0%}"


@pytest.mark.parametrize("multi", [False, True], ids=["single", "multi"])
def test_every_item_passes_the_check_stage(multi, single_items, multi_items, catalogue):
    items = multi_items if multi else single_items
    known = lambda c, i, name: catalogue.get(c, i, name) is not None  # noqa: E731
    for (cls, intensity), pairs in items.items():
        for row, out in pairs:
            if out:
                ok, reason = check_candidate(_candidate(row, out, cls, intensity, multi), known)
                assert ok, f"{cls}/{intensity} {out['lever_selected']}: {reason}\n{row['query']}"


def _texts(row: dict, out: dict, multi: bool) -> tuple[list[str], list[str]]:
    return (row["passages"], out["perturbed_passages"]) if multi else ([row["context"]], [out["perturbed_context"]])


@pytest.mark.parametrize("multi", [False, True], ids=["single", "multi"])
def test_class_invariants_and_clean_english(multi, single_items, multi_items):
    items = multi_items if multi else single_items
    for (cls, intensity), pairs in items.items():
        for row, out in pairs:
            if not out:
                continue
            where = f"{cls}/{intensity} {out['lever_selected']}: {row['query']}"
            before, after = _texts(row, out, multi)
            assert out["programmatic"] is True and out["lever_selected"] in implemented_levers(cls, intensity, multi)
            assert len(after) == len(before)
            changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
            query_changed = out["perturbed_query"] != row["query"]
            assert changed or query_changed, where
            if cls == tx.FALSE_PREMISE:
                assert not changed and query_changed, where  # passages byte-identical
            if cls in (tx.MISSING_INFO, tx.CONTRADICTION):
                assert not query_changed, where
            if cls == tx.MISSING_INFO and intensity != tx.LOW:
                assert not any(contains_any(t, row["answers"]) or raw_contains_any(t, row["answers"]) for t in after), (
                    where
                )
            if intensity == tx.LOW:
                assert any(contains_any(t, row["answers"]) for t in after), where
            if multi:
                allowed = row["noise_indices"] if cls == tx.CONTRADICTION else row["signal_indices"]
                assert set(changed) <= set(allowed), where
                if cls == tx.CONTRADICTION:
                    assert len(changed) == 1, where
            if query_changed:
                q = out["perturbed_query"]
                assert is_clean(q) and q[:1].isupper() and q.endswith(("?", '?"')), where
            for i in changed:
                text = after[i]
                assert "  " not in text and " ," not in text and " ." not in text, where
                for sentence in split_sentences(text)[1:]:
                    assert not sentence[:1].islower(), f"{where}: {sentence!r}"


def test_same_seed_same_items_in_any_order(single_rows, pool, single_items):
    rows = list(reversed(single_rows[:60]))
    again = generate_all(rows, pool, seed=5, multi=False)
    for cell, pairs in again.items():
        first = {r["source_id"]: o for r, o in single_items[cell]}
        for row, out in pairs:
            assert out == first[row["source_id"]], cell


def test_different_seeds_vary(single_rows, pool, single_items):
    other = generate_all(single_rows[:60], pool, seed=6, multi=False)
    differ = total = 0
    for cell, pairs in other.items():
        first = {r["source_id"]: o for r, o in single_items[cell]}
        for row, out in pairs:
            if out and first[row["source_id"]]:
                total += 1
                differ += out != first[row["source_id"]]
    # 23 % on this sample since the unrelated-passage swap (a seeded draw from the pool) left the rotation
    assert differ / total > 0.15, f"only {differ}/{total} items changed with the seed"


def test_requested_lever_is_used_or_refused(single_rows, pool):
    row = single_rows[0]
    for cls, intensity in tx.cells():
        for name in implemented_levers(cls, intensity):
            try:
                out = generate_programmatic(row, cls, intensity, 1, pool, lever=name)
            except NotApplicable:
                continue
            assert out["lever_selected"] == name
    with pytest.raises(NotApplicable, match="no programmatic implementation"):
        generate_programmatic(row, tx.AMBIGUITY, tx.HIGH, 1, pool, lever="Center-Embedding Maze")


def test_catalogue_restricts_the_choice(single_rows, pool):
    base_only = load_catalogue()

    def inanimate_agent_applies(row):
        try:
            return bool(generate_programmatic(row, tx.FALSE_PREMISE, tx.HIGH, 1, pool))
        except NotApplicable:
            return False

    row = next(r for r in single_rows if inanimate_agent_applies(r))
    with pytest.raises(NotApplicable):
        generate_programmatic(row, tx.GRANULARITY, tx.MEDIUM, 1, pool, catalogue=base_only)  # only our own lever there
    out = generate_programmatic(row, tx.FALSE_PREMISE, tx.HIGH, 1, pool, catalogue=base_only)
    assert out["lever_selected"] in base_only.names(tx.FALSE_PREMISE, tx.HIGH)


def test_no_answer_in_passage(pool):
    """A question whose passage states no gold answer is declined for every lever, the query-only ones
    included (e.g. long GaRAGe answers): no item of it can be judged against its answer."""
    row = {
        "source_id": "x",
        "query": "who wrote the book",
        "answers": ["Nobody Known"],
        "context": "The book appeared in 1901.",
    }
    for cls, intensity in tx.cells():
        with pytest.raises(NotApplicable):
            generate_programmatic(row, cls, intensity, 1, pool)


def test_coverage_function_reports_every_cell(single_rows, pool):
    cov = coverage(single_rows[:20], seed=2, pool=pool)
    assert set(cov) == set(tx.cells())
    assert all(0 <= c["coverage"] <= 1 and sum(c["levers"].values()) <= 20 for c in cov.values())
    assert len(format_coverage(cov).splitlines()) == 18
