import numpy as np
import pytest

from refusalbench.generation.checks import check_candidate, surviving_answers

BASE = {
    "generation_ok": True,
    "original_query": "Who built the bridge?",
    "original_context": "The bridge was built by John Smith in 1901.",
    "original_answers": ["John Smith"],
    "lever_selected": "L",
}


def row(cls, intensity="MEDIUM", **kw):
    return {
        **BASE,
        "perturbation_class": cls,
        "intensity": intensity,
        "perturbed_query": BASE["original_query"],
        "perturbed_context": BASE["original_context"],
        **kw,
    }


def test_nothing_changed():
    ok, reason = check_candidate(row("P-Ambiguity"))
    assert not ok and reason == "nothing was changed"


def test_false_premise_context_must_be_identical():
    ok, reason = check_candidate(
        row(
            "P-FalsePremise",
            perturbed_query="Why did Smith build the tower?",
            perturbed_context=BASE["original_context"] + " ",
        )
    )
    assert not ok and "byte-identical" in reason
    assert check_candidate(row("P-FalsePremise", perturbed_query="Why did Smith build the tower?")) == (True, None)


@pytest.mark.parametrize("cls", ["P-MissingInfo", "P-Contradiction"])
def test_query_must_be_unchanged(cls):
    ok, reason = check_candidate(
        row(cls, "LOW", perturbed_query="Who built it?", perturbed_context="The bridge was built by John Smith.")
    )
    assert not ok and "query unchanged" in reason


def test_missing_info_answer_must_not_survive():
    ok, reason = check_candidate(row("P-MissingInfo", perturbed_context="The bridge was built by JOHN SMITH."))
    assert not ok and "John Smith" in reason
    assert check_candidate(row("P-MissingInfo", perturbed_context="The bridge was built in 1901."))[0]
    # LOW keeps the answer
    assert check_candidate(row("P-MissingInfo", "LOW", perturbed_context="The bridge was built by John Smith."))[0]


def test_word_boundary_for_short_answers():
    assert surviving_answers(["1"], ["in 1901"]) == []
    assert surviving_answers(["1"], ["chapter 1."]) == ["1"]


def test_unknown_lever_and_failed_generation():
    ok, reason = check_candidate(row("P-Ambiguity", perturbed_query="Which bridge?"), lever_known=lambda c, i, n: False)
    assert not ok and "not in the catalogue" in reason
    ok, reason = check_candidate({**row("P-Ambiguity"), "generation_ok": False, "generation_error": "boom"})
    assert not ok and "boom" in reason


PASSAGES = ["noise a", "signal John Smith", "noise b", "signal two"]
MULTI = {
    **BASE,
    "original_passages": np.array(PASSAGES),
    "signal_indices": np.array([1, 3]),
    "noise_indices": np.array([0, 2]),
}


def mrow(cls, perturbed, intensity="MEDIUM", query=None):
    return {
        **MULTI,
        "perturbation_class": cls,
        "intensity": intensity,
        "perturbed_query": query or BASE["original_query"],
        "perturbed_passages": perturbed,
    }


def test_multi_contradiction_exactly_one_noise():
    assert check_candidate(mrow("P-Contradiction", ["signal Jane Doe", *PASSAGES[1:]]))[0]
    ok, reason = check_candidate(mrow("P-Contradiction", ["X", PASSAGES[1], "Y", PASSAGES[3]]))
    assert not ok and "exactly one noise passage, edited 2" in reason
    ok, reason = check_candidate(mrow("P-Contradiction", [PASSAGES[0], "S", *PASSAGES[2:]]))
    assert not ok and "no signal passage" in reason


@pytest.mark.parametrize("cls", ["P-MissingInfo", "P-GranularityMismatch", "P-EpistemicMismatch"])
def test_multi_only_signal(cls):
    assert check_candidate(mrow(cls, [PASSAGES[0], "signal gone", PASSAGES[2], "signal 2"]))[0]
    ok, reason = check_candidate(mrow(cls, ["noise edit", "signal gone", *PASSAGES[2:]]))
    assert not ok and "only signal passages" in reason


def test_multi_missing_info_checks_all_passages():
    ok, reason = check_candidate(mrow("P-MissingInfo", [PASSAGES[0], "signal gone", PASSAGES[2], "john smith did it"]))
    assert not ok and "still present" in reason


def test_multi_false_premise_no_passage():
    ok, reason = check_candidate(
        mrow("P-FalsePremise", ["edit", *PASSAGES[1:]], query="Why did Smith build the tower?")
    )
    assert not ok and "edit no passage" in reason
    assert check_candidate(mrow("P-FalsePremise", list(PASSAGES), query="Why did Smith build the tower?"))[0]


def test_multi_ambiguity_query_or_signal():
    assert check_candidate(mrow("P-Ambiguity", list(PASSAGES), query="Which bridge?"))[0]
    assert check_candidate(mrow("P-Ambiguity", [PASSAGES[0], "Amb.", *PASSAGES[2:]]))[0]
    assert not check_candidate(mrow("P-Ambiguity", ["amb", *PASSAGES[1:]]))[0]
