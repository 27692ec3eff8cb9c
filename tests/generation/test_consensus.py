import pandas as pd
import pytest

from refusalbench.generation.consensus import consensus_table, decide


def test_unanimous():
    assert decide(["PASS"] * 4, 4, "unanimous").passed
    assert not decide(["PASS"] * 3 + ["UNSCORED"], 4, "unanimous").passed
    assert not decide(["PASS"] * 3, 4, "unanimous").passed  # a missing vote
    assert decide(["PASS"] * 3 + ["UNSCORED"], 4).n_valid == 3


def test_majority_over_all_verifiers_and_tie():
    assert decide(["PASS", "PASS", "PASS", "FAIL"], 4, "majority").passed
    assert not decide(["PASS", "PASS", "FAIL", "FAIL"], 4, "majority").passed  # tie fails
    assert not decide(["PASS", "PASS", "UNSCORED", "UNSCORED"], 4, "majority").passed  # 2 of 4, not 2 of 2
    assert decide(["PASS", "PASS", "FAIL"], 3, "majority").passed


def test_bad_mode():
    with pytest.raises(ValueError):  # the config schema rejects it first; see tests/test_config.py
        decide(["PASS"], 1, "most")


def test_table():
    votes = pd.DataFrame(
        {"candidate_id": ["a", "a", "b"], "verifier": ["v1", "v2", "v1"], "verdict": ["PASS", "PASS", "PASS"]}
    )
    t = consensus_table(votes, ["v1", "v2"], "unanimous").set_index("candidate_id")
    assert t.loc["a", "consensus_pass"] and not t.loc["b", "consensus_pass"]
    assert t.loc["b", "verifier_votes"] == {"v1": "PASS", "v2": "UNSCORED"}
    assert t.loc["b", "n_valid_votes"] == 1
