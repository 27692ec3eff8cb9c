"""Generator-verifier analysis (pass-rate matrix, self vs cross bias, agreement), computed from the real votes.

Tables: the pass-rate matrix (generator x verifier), self- vs cross-verification bias per
generator, verifier bias, pairwise verifier agreement with Cohen's kappa plus Fleiss' kappa for
the panel, filtering efficiency per generator, and mean checklist flags over PASS votes.
A verifier verifies "its own" generator when their panel keys or model ids are equal.
Pass rates count every vote (UNSCORED included) in the denominator, as the original did.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd

from refusalbench.generation.consensus import FAIL, PASS

BIAS_THRESHOLD_PP = 5.0
QUALITY_FLAGS = ("lever_correctly_implemented", "intensity_correctly_achieved", "uncertainty_successfully_induced")


def _pct(num: float, den: float) -> float:
    return 100.0 * num / den if den else math.nan


def cohen_kappa(a: list[str], b: list[str]) -> float:
    """Cohen's kappa of two raters' PASS/FAIL labels on the same items (NaN when undefined)."""
    n = len(a)
    if n == 0:
        return math.nan
    po = sum(x == y for x, y in zip(a, b)) / n
    pa, pb = sum(x == PASS for x in a) / n, sum(y == PASS for y in b) / n
    pe = pa * pb + (1 - pa) * (1 - pb)
    return math.nan if pe >= 1.0 else (po - pe) / (1 - pe)


def fleiss_kappa(counts: np.ndarray) -> float:
    """Fleiss' kappa from an items x categories count matrix with the same rater count per item."""
    if counts.size == 0:
        return math.nan
    n = counts.sum(axis=1)[0]
    if n < 2:
        return math.nan
    p_item = ((counts**2).sum(axis=1) - n) / (n * (n - 1))
    p_cat = counts.sum(axis=0) / counts.sum()
    pe = float((p_cat**2).sum())
    return math.nan if pe >= 1.0 else (float(p_item.mean()) - pe) / (1 - pe)


def _strength(pct: float) -> str:
    return "high" if pct > 80 else "medium" if pct > 60 else "low"


def _is_self(gen: str, ver: str, gen_ids: dict[str, str], ver_ids: dict[str, str]) -> bool:
    return gen == ver or (gen_ids.get(gen) is not None and gen_ids.get(gen) == ver_ids.get(ver))


def pass_rates(votes: pd.DataFrame, gen_ids: dict[str, str], ver_ids: dict[str, str]) -> pd.DataFrame:
    """Long table: one row per (generator, verifier) with vote counts and the pass rate."""
    rows = []
    for (gen, ver), g in votes.groupby(["generator", "verifier"], sort=True):
        n = len(g)
        n_pass, n_fail = int((g["verdict"] == PASS).sum()), int((g["verdict"] == FAIL).sum())
        rows.append(
            {
                "generator": gen,
                "verifier": ver,
                "self": _is_self(gen, ver, gen_ids, ver_ids),
                "n_votes": n,
                "n_pass": n_pass,
                "n_fail": n_fail,
                "n_unscored": n - n_pass - n_fail,
                "pass_rate_pct": _pct(n_pass, n),
            }
        )
    return pd.DataFrame(
        rows, columns=["generator", "verifier", "self", "n_votes", "n_pass", "n_fail", "n_unscored", "pass_rate_pct"]
    )


def self_cross(rates: pd.DataFrame) -> pd.DataFrame:
    """Per generator: pass rate from its own family's verifier vs the others, and the bias in pp."""
    rows = []
    for gen, g in rates.groupby("generator", sort=True):
        own, other = g[g["self"]], g[~g["self"]]
        self_rate = _pct(own["n_pass"].sum(), own["n_votes"].sum())
        cross_rate = _pct(other["n_pass"].sum(), other["n_votes"].sum())
        bias = self_rate - cross_rate
        label = (
            "no_self_verifier"
            if own.empty
            else "no_cross_verifier"
            if other.empty
            else "self_favorable"
            if bias > BIAS_THRESHOLD_PP
            else "cross_favorable"
            if bias < -BIAS_THRESHOLD_PP
            else "neutral"
        )
        rows.append(
            {
                "generator": gen,
                "self_rate_pct": self_rate,
                "cross_rate_pct": cross_rate,
                "self_bias_pp": bias,
                "label": label,
            }
        )
    return pd.DataFrame(rows, columns=["generator", "self_rate_pct", "cross_rate_pct", "self_bias_pp", "label"])


def verifier_bias(rates: pd.DataFrame) -> pd.DataFrame:
    """Per verifier: mean pass rate on its own generator minus the mean on the other generators."""
    rows = []
    for ver, g in rates.groupby("verifier", sort=True):
        own, other = g[g["self"]]["pass_rate_pct"], g[~g["self"]]["pass_rate_pct"]
        rows.append(
            {
                "verifier": ver,
                "own_rate_pct": own.mean() if len(own) else math.nan,
                "other_rate_pct": other.mean() if len(other) else math.nan,
                "bias_pp": (own.mean() - other.mean()) if len(own) and len(other) else math.nan,
            }
        )
    return pd.DataFrame(rows, columns=["verifier", "own_rate_pct", "other_rate_pct", "bias_pp"])


def agreement(votes: pd.DataFrame, verifiers: list[str]) -> pd.DataFrame:
    """Pairwise agreement and Cohen's kappa over items both judged PASS/FAIL; last row: Fleiss' kappa."""
    wide = votes.pivot_table(index="candidate_id", columns="verifier", values="verdict", aggfunc="first")
    rows = []
    for v1, v2 in itertools.combinations(verifiers, 2):
        if v1 not in wide or v2 not in wide:
            continue
        both = wide[[v1, v2]]
        both = both[both[v1].isin((PASS, FAIL)) & both[v2].isin((PASS, FAIL))]
        a, b = both[v1].tolist(), both[v2].tolist()
        agree = sum(x == y for x, y in zip(a, b))
        pct = _pct(agree, len(a))
        rows.append(
            {
                "verifier_a": v1,
                "verifier_b": v2,
                "n_compared": len(a),
                "n_agree": agree,
                "agreement_pct": pct,
                "strength": _strength(pct) if a else None,
                "kappa": cohen_kappa(a, b),
                "statistic": "cohen",
            }
        )
    present = [v for v in verifiers if v in wide]
    if len(present) >= 2:
        full = wide[present]
        full = full[full.isin((PASS, FAIL)).all(axis=1)]
        counts = np.stack([(full == PASS).sum(axis=1).to_numpy(), (full == FAIL).sum(axis=1).to_numpy()], axis=1)
        rows.append(
            {
                "verifier_a": "panel",
                "verifier_b": "panel",
                "n_compared": len(full),
                "n_agree": int((counts.max(axis=1) == len(present)).sum()),
                "agreement_pct": _pct(int((counts.max(axis=1) == len(present)).sum()), len(full)),
                "strength": None,
                "kappa": fleiss_kappa(counts),
                "statistic": "fleiss",
            }
        )
    return pd.DataFrame(
        rows,
        columns=[
            "verifier_a",
            "verifier_b",
            "n_compared",
            "n_agree",
            "agreement_pct",
            "strength",
            "kappa",
            "statistic",
        ],
    )


def efficiency(
    candidates: pd.DataFrame, votes: pd.DataFrame, consensus: pd.DataFrame, n_verifiers: int
) -> pd.DataFrame:
    """Per generator: how many candidates survive each step; efficiency = consensus pass / full coverage."""
    valid = votes[votes["verdict"].isin((PASS, FAIL))].groupby("candidate_id").size()
    full = set(valid[valid >= n_verifiers].index)
    passed = set(consensus.loc[consensus["consensus_pass"], "candidate_id"])
    rows = []
    for gen, g in candidates.groupby("generator", sort=True):
        ids = set(g["candidate_id"])
        n_full, n_pass = len(ids & full), len(ids & passed)
        rows.append(
            {
                "generator": gen,
                "n_generated": len(g),
                "n_generation_ok": int(g["generation_ok"].sum()),
                "n_check_ok": int(g["check_ok"].sum()),
                "n_full_coverage": n_full,
                "n_consensus_pass": n_pass,
                "efficiency_pct": _pct(n_pass, n_full),
                "end_to_end_pct": _pct(n_pass, len(g)),
            }
        )
    return pd.DataFrame(rows)


def quality(votes: pd.DataFrame) -> pd.DataFrame:
    """Mean checklist flags over PASS votes, per (generator, verifier)."""
    flags = [f for f in QUALITY_FLAGS if f in votes]
    passed = votes[votes["verdict"] == PASS]
    if passed.empty or not flags:
        return pd.DataFrame(columns=["generator", "verifier", "n_pass", *flags])
    grouped = passed.groupby(["generator", "verifier"], sort=True)
    out = grouped[flags].agg(lambda s: s.dropna().astype(float).mean() if s.notna().any() else math.nan)
    out.insert(0, "n_pass", grouped.size())
    return out.reset_index()


def analyse(
    candidates: pd.DataFrame,
    votes: pd.DataFrame,
    consensus: pd.DataFrame,
    gen_ids: dict[str, str],
    ver_ids: dict[str, str],
) -> dict[str, pd.DataFrame]:
    """All tables, keyed by file stem (written by the select stage as `<stem>.csv`)."""
    verifiers = list(ver_ids)
    joined = votes.merge(candidates[["candidate_id", "generator"]], on="candidate_id", how="inner")
    rates = pass_rates(joined, gen_ids, ver_ids)
    matrix = (
        rates.pivot(index="generator", columns="verifier", values="pass_rate_pct").reset_index()
        if len(rates)
        else rates
    )
    return {
        "generator_verifier_pass_rates": rates,
        "generator_verifier_matrix": matrix,
        "generator_verifier_self_cross": self_cross(rates),
        "generator_verifier_verifier_bias": verifier_bias(rates),
        "generator_verifier_agreement": agreement(joined, verifiers),
        "generator_verifier_efficiency": efficiency(candidates, joined, consensus, len(verifiers)),
        "generator_verifier_quality": quality(joined),
    }
