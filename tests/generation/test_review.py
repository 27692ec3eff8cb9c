"""The blind review set: held-out questions only, evenly over the 18 cells, a blind sheet and its key."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from refusalbench import taxonomy as tx
from refusalbench.errors import UserError
from refusalbench.generation.holdout import UNSCANNED_FILES, holdout, normalise
from refusalbench.generation.review import KEY, SHEET, label_meaning, main, sample, word_diff
from refusalbench.levers import load_catalogue
from refusalbench.paths import PACKAGE_DATA_DIR, PROMPTS_DIR

BUNDLED = [json.loads(line)["question"] for line in (PACKAGE_DATA_DIR / "nq_sample.jsonl").read_text().splitlines()[:2]]


def fresh_question(n: int) -> str:
    return " ".join(["zq"] * 3 + [f"held{n}x"] + ["about", "the", "topic"])  # never written out in any file


def candidates(n_questions: int, sparse_cell=("P-Contradiction", "HIGH")) -> pd.DataFrame:
    rows = []
    questions = [fresh_question(n) for n in range(n_questions)] + BUNDLED
    for q_no, question in enumerate(questions):
        for cls, intensity in tx.cells():
            if (cls, intensity) == sparse_cell and q_no >= 2:
                continue  # this cell has three usable items: s0 alpha, s0 beta, s1 alpha
            for generator in ("alpha", "beta"):
                rows.append(
                    {
                        "candidate_id": f"{q_no}-{cls}-{intensity}-{generator}",
                        "source_id": f"s{q_no}",
                        "perturbation_class": cls,
                        "intensity": intensity,
                        "generator": generator,
                        "lever_selected": f"{cls} lever",
                        "original_query": question,
                        "original_answers": ["A"],
                        "original_context": "The answer is A.",
                        "perturbed_query": question + " really",
                        "perturbed_context": "The answer is A, said one source.",
                        "implementation_reasoning": "secret",
                        "generation_ok": True,
                        "check_ok": generator == "alpha" or q_no % 2 == 0,
                    }
                )
    return pd.DataFrame(rows)


def test_sample_is_even_blind_and_leaves_out_used_questions(tmp_path):
    table = tmp_path / "checked.parquet"
    candidates(40).to_parquet(table)
    summary = sample(table, tmp_path / "review", per_cell=5, seed=7, max_per_question=3)
    sheet = pd.read_csv(tmp_path / "review" / SHEET)
    key = pd.read_csv(tmp_path / "review" / KEY)
    assert summary["sampled"] == len(sheet) == 17 * 5 + 3 and summary["cells_short"] == {"P-Contradiction/HIGH": 3}
    counts = sheet.groupby(["perturbation_class", "intensity"]).size()
    assert (counts.drop(("P-Contradiction", "HIGH")) == 5).all()
    assert key["source_id"].value_counts().max() <= 3
    assert not set(sheet["original_question"].map(normalise)) & {normalise(q) for q in BUNDLED}
    # the two bundled questions (s40: 17 cells x 2 generators; s41, odd: beta fails the check) are left out
    assert summary["items_from_excluded_questions"] == 34 + 17
    blind = {"generator", "generator_model", "lever_selected", "implementation_reasoning", "candidate_id", "source_id"}
    assert not blind & set(sheet.columns)
    assert sheet["item"].tolist() == [f"R{n:03d}" for n in range(1, len(sheet) + 1)] == key["item"].tolist()
    assert sheet[["verdict", "failed_criteria", "notes"]].isna().all().all()
    row = sheet[sheet["intensity"] == "HIGH"].iloc[0]
    assert "must decline" in row["label_meaning"]
    assert row["expected_behaviour"] == tx.ground_truth(row["perturbation_class"], "HIGH")
    # the same table and seed give the same sheet; another seed another draw
    sample(table, tmp_path / "again", per_cell=5, seed=7, max_per_question=3)
    assert pd.read_csv(tmp_path / "again" / KEY).equals(key)
    sample(table, tmp_path / "other", per_cell=5, seed=8, max_per_question=3)
    assert not pd.read_csv(tmp_path / "other" / KEY)["candidate_id"].equals(key["candidate_id"])


def test_only_checked_items_are_sampled(tmp_path):
    table = tmp_path / "checked.parquet"
    candidates(40).to_parquet(table)
    sample(table, tmp_path / "review", per_cell=5, seed=1)
    key = pd.read_csv(tmp_path / "review" / KEY)
    odd_beta = key[(key["generator"] == "beta") & (key["source_id"].str[1:].astype(int) % 2 == 1)]
    assert odd_beta.empty


def test_bad_tables_and_arguments_fail_clearly(tmp_path, capsys):
    table = tmp_path / "t.parquet"
    candidates(3).drop(columns=["source_id"]).to_parquet(table)
    with pytest.raises(UserError, match="source_id"):
        sample(table, tmp_path / "out")
    only_used = tmp_path / "used.parquet"
    frame = candidates(0)
    frame.to_parquet(only_used)
    assert main(["sample", str(only_used), "--out", str(tmp_path / "o")]) == 2
    assert "held-out question" in capsys.readouterr().err


def test_holdout_leaves_out_the_bundled_sample_and_quoted_questions(tmp_path):
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "tests" / "test_x.py").write_text(f'QUESTION = "{fresh_question(1).upper()}?"\n')
    pool = tmp_path / "pool.jsonl"
    records = [
        {"question": q, "answers": ["A"], "ctxs": [{"title": "T", "text": "A."}]}
        for q in [fresh_question(0), fresh_question(1), fresh_question(2), *BUNDLED]
    ]
    pool.write_text("".join(json.dumps(r) + "\n" for r in records))
    for name in UNSCANNED_FILES:  # the tests' copy of the whole pool and the source verdicts quote nothing
        copy = repo / name
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(pool.read_text())
    extra = tmp_path / "exclude.txt"
    extra.write_text(fresh_question(2) + "\n")
    kept, counts = holdout(pool, [extra], root=repo)
    assert [r["question"] for r in kept] == [fresh_question(0)]
    assert counts == {
        "bundled_sample": 2,
        "quoted_in_repository": 1,
        "drawn_by_tests": 0,
        "files": 1,
        "pool": 5,
        "kept": 1,
    }


def test_holdout_command_creates_the_output_folder(tmp_path):
    pool = tmp_path / "pool.jsonl"
    record = {"question": fresh_question(0), "answers": ["A"], "ctxs": [{"title": "T", "text": "A."}]}
    pool.write_text(json.dumps(record) + "\n")
    out = tmp_path / "review" / "new" / "holdout.jsonl"
    assert main(["holdout", str(pool), str(out), "--no-test-draws"]) == 0
    assert [json.loads(line)["question"] for line in out.read_text().splitlines()] == [fresh_question(0)]


def test_word_diff_shows_changes_and_elides_long_unchanged_runs():
    before = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"
    after = before.replace("eight", "EIGHT") + " sixteen"
    expected = "… six seven [-eight-] {+EIGHT+} nine ten … fourteen fifteen {+sixteen+}"
    assert word_diff(before, after, keep=2) == expected
    assert word_diff("same text", "same  text") == "(unchanged)"


def test_unseen_items_reuse_reviewed_questions_only_in_cells_no_review_showed(tmp_path):
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "tests" / "test_x.py").write_text(f'QUESTION = "{fresh_question(1)}"\n')
    earlier = repo / "docs" / "reviews" / "first"
    earlier.mkdir(parents=True)
    shown = {"item": "R001", "perturbation_class": "P-Contradiction", "intensity": "LOW"}
    pd.DataFrame([{**shown, "original_question": fresh_question(0)}]).to_csv(earlier / "annotatorA.csv", index=False)
    table = tmp_path / "checked.parquet"
    candidates(3).to_parquet(table)

    def drawn(**kwargs):
        sample(table, tmp_path / "out", per_cell=5, seed=3, max_per_question=99, test_draws=False, root=repo, **kwargs)
        key = pd.read_csv(tmp_path / "out" / KEY)
        return set(zip(key["source_id"], key["perturbation_class"], key["intensity"]))

    held_out = drawn()
    assert {s for s, _, _ in held_out} == {"s2"}  # s0 is quoted by a review, s1 by a test
    unseen = drawn(unseen_items=True)
    assert {s for s, _, _ in unseen} == {"s0", "s2"}
    assert ("s0", "P-Contradiction", "LOW") not in unseen and ("s0", "P-Contradiction", "MEDIUM") in unseen
    summary = json.loads((tmp_path / "out" / "review_sample.json").read_text())
    assert summary["unseen_items"] and summary["items_reviewed_before"] == 2  # both generators' items of s0 there


def test_unseen_texts_reuse_reviewed_cells_only_for_texts_no_review_showed(tmp_path):
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    earlier = repo / "docs" / "reviews" / "first"
    earlier.mkdir(parents=True)
    table = candidates(2)
    s0_low = table[(table["source_id"] == "s0") & (table["perturbation_class"] == "P-Contradiction")]
    s0_low = s0_low[s0_low["intensity"] == "LOW"].iloc[0]
    shown = {
        "item": "R001",
        "perturbation_class": "P-Contradiction",
        "intensity": "LOW",
        "original_question": fresh_question(0),
        "perturbed_question": s0_low["perturbed_query"],
        "perturbed_context": "The answer  is A, said one source.",  # spacing does not make a text new
    }
    pd.DataFrame([shown]).to_csv(earlier / "annotatorA.csv", index=False)
    # the beta generator wrote another text for s0's Contradiction LOW item: unseen, though the cell was shown
    is_beta = (table["source_id"] == "s0") & (table["generator"] == "beta")
    table.loc[is_beta & (table["intensity"] == "LOW"), "perturbed_context"] = "The answer is B, said a blog."
    path = tmp_path / "checked.parquet"
    table.to_parquet(path)

    def drawn(**kwargs):
        sample(path, tmp_path / "out", per_cell=5, seed=3, max_per_question=99, test_draws=False, root=repo, **kwargs)
        key = pd.read_csv(tmp_path / "out" / KEY)
        return set(zip(key["source_id"], key["perturbation_class"], key["intensity"], key["generator"]))

    by_cell = drawn(unseen_items=True)
    assert not any(s == "s0" and c == "P-Contradiction" and i == "LOW" for s, c, i, _ in by_cell)
    by_text = drawn(unseen_texts=True)
    assert ("s0", "P-Contradiction", "LOW", "beta") in by_text  # another text of a shown cell
    assert ("s0", "P-Contradiction", "LOW", "alpha") not in by_text  # the very text a sheet showed
    assert json.loads((tmp_path / "out" / "review_sample.json").read_text())["unseen_texts"]
    with pytest.raises(UserError, match="not both"):
        drawn(unseen_items=True, unseen_texts=True)


def test_unseen_texts_take_a_table_without_a_context_column(tmp_path):
    # multi-passage tables have perturbed_passages, not perturbed_context
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    path = tmp_path / "checked.parquet"
    candidates(2).drop(columns=["perturbed_context"]).to_parquet(path)
    summary = sample(
        path, tmp_path / "out", per_cell=1, seed=3, max_per_question=99, test_draws=False, root=repo, unseen_texts=True
    )
    assert summary["sampled"] == 18 and summary["items_reviewed_before"] == 0


def test_granularity_refusals_carry_the_boundary_the_evaluated_model_is_told():
    """MEDIUM and HIGH Granularity items are judged against the line the model's own prompt draws between this
    class and missing information; LOW items keep the plain defect."""
    catalogue = load_catalogue()
    prompt = (PROMPTS_DIR / "evaluate_nq.j2").read_text()
    assert "aggregating, averaging, generalising" in prompt and "when the information is present but does" in prompt
    for intensity in (tx.MEDIUM, tx.HIGH):
        meaning = label_meaning(tx.GRANULARITY, intensity, catalogue)
        assert "aggregating, averaging or generalising" in meaning and "not missing information" in meaning
    assert "averaging" not in label_meaning(tx.GRANULARITY, tx.LOW, catalogue)
    assert "averaging" not in label_meaning(tx.MISSING_INFO, tx.HIGH, catalogue)
