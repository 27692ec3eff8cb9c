"""The offline refusal detector: unit cases, and precision/recall on a labelled fixture of real outputs.

The fixture (`fixtures/refusal_outputs.jsonl`) holds outputs of the embedded models (Qwen2.5-0.5B and
SmolLM2-135M through `pipeline=evaluate`) and phrasings written for it, each labelled by hand as a
refusal (with the best-fitting code) or an answer attempt before the detector was tuned. Split
``dev``: the written phrasings the detector was developed on; ``heldout``: the models' outputs and a
second set of written phrasings, both labelled first and never used for tuning. Figures are printed
(``pytest -s``) and stated in the README.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from refusalbench.judging.refusal_detector import detect_refusal, reason_code
from refusalbench.judging.rules import classify
from refusalbench.metrics.intervals import wilson
from refusalbench.taxonomy import ANSWER_ATTEMPT, REFUSAL_CODES, TRUNCATED, UNSCORED

FIXTURE = Path(__file__).parent / "fixtures" / "refusal_outputs.jsonl"


def load_fixture() -> list[dict]:
    return [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line.strip()]


def deterministic_label(text: str, truncated: bool = False) -> str:
    """What judge=deterministic gives an output: the rule, then the detector, else an answer attempt."""
    decision = classify(text, truncated=truncated)
    if decision is not None:
        return decision.label
    found = detect_refusal(text)
    return found.code if found else ANSWER_ATTEMPT


def scores(items: list[dict], predicted: list[str]) -> dict:
    """Refusal detection precision/recall (positive: refusal) with Wilson intervals, and code accuracy."""
    is_refusal = [it["label"] != ANSWER_ATTEMPT for it in items]
    said = [p in REFUSAL_CODES for p in predicted]
    tp = sum(a and b for a, b in zip(is_refusal, said))
    fp = sum(b and not a for a, b in zip(is_refusal, said))
    fn = sum(a and not b for a, b in zip(is_refusal, said))
    codes_right = sum(a and b and it["label"] == p for it, p, a, b in zip(items, predicted, is_refusal, said))
    out = {"n": len(items), "refusals": sum(is_refusal), "tp": tp, "fp": fp, "fn": fn, "code_right": codes_right}
    for name, k, n in (("precision", tp, tp + fp), ("recall", tp, tp + fn), ("code_accuracy", codes_right, tp)):
        low, high = wilson(k, n)
        out[name] = (k / n if n else None, float(low), float(high))
    return out


def _fmt(name: str, s: dict) -> str:
    parts = [f"{name}: n={s['n']} (refusals {s['refusals']})"]
    for key in ("precision", "recall", "code_accuracy"):
        v, lo, hi = s[key]
        parts.append(f"{key} {'n/a' if v is None else f'{v:.3f}'} [{lo:.3f}, {hi:.3f}]")
    return "; ".join(parts)


def test_fixture_is_labelled_and_large_enough():
    items = load_fixture()
    assert len(items) >= 200
    assert {it["split"] for it in items} == {"dev", "heldout"}
    assert all(it["label"] == ANSWER_ATTEMPT or it["label"] in REFUSAL_CODES for it in items)
    sources = {it["source"] for it in items}
    assert {"qwen2.5-0.5b", "smollm2-135m", "written"} <= sources


def test_precision_and_recall_on_the_fixture():
    items = load_fixture()
    report = []
    results = {}
    heldout = [i for i in items if i["split"] == "heldout"]
    for name, part in (
        ("all", items),
        ("dev (written)", [i for i in items if i["split"] == "dev"]),
        ("heldout", heldout),
        ("heldout model outputs", [i for i in heldout if i["source"] != "written"]),
        ("heldout fresh phrasings", [i for i in heldout if i["source"] == "written"]),
    ):
        predicted = [deterministic_label(i["output"]) for i in part]  # the phrasing, whether cut off or not
        results[name] = scores(part, predicted)
        report.append(_fmt("rule+detector " + name, results[name]))
    # the detector alone, on the outputs the code rule leaves to it (what it actually decides)
    left = [i for i in items if classify(i["output"]) is None]
    det = [(detect_refusal(i["output"]) or None) for i in left]
    results["detector"] = scores(left, [d.code if d else ANSWER_ATTEMPT for d in det])
    report.append(_fmt("detector alone on outputs without a leading code", results["detector"]))
    print("\n" + "\n".join(report))
    # floors below the measured figures (README): a regression that breaks detection fails here
    assert results["all"]["precision"][0] >= 0.9 and results["all"]["recall"][0] >= 0.75
    assert results["heldout"]["precision"][0] >= 0.85 and results["heldout"]["recall"][0] >= 0.45
    assert results["detector"]["precision"][0] >= 0.9 and results["detector"]["recall"][0] >= 0.7


@pytest.mark.parametrize(
    "text,code",
    [
        ("The passage does not say when the bridge was completed.", "REFUSE_INFO_MISSING_IN_CONTEXT"),
        ("I cannot determine the answer from the given context.", "REFUSE_INFO_MISSING_IN_CONTEXT"),
        ("The context gives conflicting dates for the battle.", "REFUSE_CONTRADICTORY_CONTEXT"),
        ("The question assumes he won twice, which the passage contradicts.", "REFUSE_FALSE_PREMISE_IN_QUERY"),
        ("This question is based on a false premise.", "REFUSE_FALSE_PREMISE_IN_QUERY"),
        ("The question is ambiguous.", "REFUSE_AMBIGUOUS_QUERY"),
        ("Whether it is the best film is subjective.", "REFUSE_NONFACTUAL_QUERY"),
        ("I'm sorry, I can't help with that.", "REFUSE_OTHER"),
        (
            "After reading it, the year is not given.\n\nREFUSE_INFO_MISSING_IN_CONTEXT",
            "REFUSE_INFO_MISSING_IN_CONTEXT",
        ),
    ],
)
def test_detected_with_best_fitting_code(text, code):
    found = detect_refusal(text)
    assert found is not None and found.code == code


@pytest.mark.parametrize(
    "text",
    [
        "The bridge was completed in 1932.",
        "No, the team did not win; they lost the final.",
        "The author was not born in London; he was born in Leeds.",
        "The passage does not give his middle name, but the answer is Smith.",
        "REFUSE_OTHER is not needed: the answer is 4.",
        "It could be REFUSE_AMBIGUOUS_QUERY or REFUSE_OTHER.",
        "",
    ],
)
def test_answers_and_unclear_mentions_are_not_refusals(text):
    assert detect_refusal(text) is None


def test_reason_code_falls_back_to_other():
    assert reason_code("I cannot answer.") == "REFUSE_OTHER"


def test_deterministic_label_precedence():
    assert deterministic_label("REFUSE_OTHER") == "REFUSE_OTHER"
    assert deterministic_label("The passage does not say", truncated=True) == TRUNCATED
    assert classify("x", error="boom").label == UNSCORED
