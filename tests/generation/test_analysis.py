import math

import numpy as np
import pandas as pd
import pytest

from refusalbench.generation.analysis import analyse, cohen_kappa, fleiss_kappa
from refusalbench.generation.consensus import consensus_table


def test_cohen_kappa_known_value():
    a = ["PASS"] * 20 + ["FAIL"] * 5 + ["PASS"] * 10 + ["FAIL"] * 15
    b = ["PASS"] * 20 + ["PASS"] * 5 + ["FAIL"] * 10 + ["FAIL"] * 15
    # po = 0.7, pa = .6, pb = .5, pe = .5 -> 0.4
    assert cohen_kappa(a, b) == pytest.approx(0.4)
    assert math.isnan(cohen_kappa(["PASS"], ["PASS"]))


def test_fleiss_kappa_wikipedia_style():
    # perfect agreement with both categories used -> 1
    assert fleiss_kappa(np.array([[3, 0], [0, 3], [3, 0]])) == pytest.approx(1.0)
    # (hand-computed) items [2,1],[1,2],[3,0]: P_i = 1/3,1/3,1; Pbar=5/9; p=(6/9,3/9); Pe=5/9 -> 0
    assert fleiss_kappa(np.array([[2, 1], [1, 2], [3, 0]])) == pytest.approx(0.0)


def test_analyse_tables():
    cands = pd.DataFrame(
        {
            "candidate_id": ["a", "b", "c", "d"],
            "generator": ["gpt", "gpt", "claude", "claude"],
            "generation_ok": True,
            "check_ok": [True, True, True, False],
        }
    )
    votes = pd.DataFrame(
        {
            "candidate_id": ["a", "a", "b", "b", "c", "c"],
            "verifier": ["gpt", "claude"] * 3,
            "verdict": ["PASS", "PASS", "PASS", "FAIL", "PASS", "UNSCORED"],
            "lever_correctly_implemented": [True, True, False, None, True, None],
        }
    )
    cons = consensus_table(votes, ["gpt", "claude"], "unanimous")
    t = analyse(cands, votes, cons, {"gpt": "gpt-4o", "claude": "claude-4"}, {"gpt": "gpt-4o", "claude": "claude-4"})
    rates = t["generator_verifier_pass_rates"].set_index(["generator", "verifier"])
    assert rates.loc[("gpt", "gpt"), "pass_rate_pct"] == 100 and rates.loc[("gpt", "gpt"), "self"]
    assert rates.loc[("claude", "claude"), "n_unscored"] == 1
    sc = t["generator_verifier_self_cross"].set_index("generator")
    assert sc.loc["gpt", "self_bias_pp"] == pytest.approx(50.0) and sc.loc["gpt", "label"] == "self_favorable"
    ag = t["generator_verifier_agreement"]
    assert ag.iloc[0]["n_compared"] == 2 and ag.iloc[0]["n_agree"] == 1
    assert ag.iloc[-1]["statistic"] == "fleiss"
    eff = t["generator_verifier_efficiency"].set_index("generator")
    assert eff.loc["gpt", "n_consensus_pass"] == 1 and eff.loc["gpt", "efficiency_pct"] == 50
    assert eff.loc["claude", "n_full_coverage"] == 0
    q = t["generator_verifier_quality"].set_index(["generator", "verifier"])
    assert q.loc[("gpt", "gpt"), "lever_correctly_implemented"] == 0.5
