import pandas as pd

from refusalbench import taxonomy
from refusalbench.generation.sampling import human_sample, stratified_sample


def pool(n_per_cell=5, generators=("gpt", "claude"), skip=()):
    rows = []
    for g in generators:
        for cls, intensity in taxonomy.cells():
            if (cls, intensity) in skip:
                continue
            for k in range(n_per_cell):
                rows.append(
                    {
                        "candidate_id": f"{g}-{cls}-{intensity}-{k}",
                        "generator": g,
                        "perturbation_class": cls,
                        "intensity": intensity,
                    }
                )
    return pd.DataFrame(rows)


def test_counts_per_stratum_then_fill():
    out = stratified_sample(pool(), per_stratum=2, per_generator=40, seed=42)
    for _generator, sub in out.groupby("generator"):
        assert len(sub) == 40
        assert (sub["sampling_step"] == "stratum").sum() == 36
        assert sub.groupby(["perturbation_class", "intensity"]).size().min() >= 2


def test_short_strata_and_short_generator():
    p = pool(n_per_cell=1, skip=[("P-Ambiguity", "LOW")])
    out = stratified_sample(p, per_stratum=2, per_generator=40, seed=1)
    assert out.groupby("generator").size().tolist() == [17, 17]


def test_seeded_and_order_independent():
    p = pool()
    a = stratified_sample(p, 2, 40, seed=7)
    b = stratified_sample(p.sample(frac=1, random_state=3), 2, 40, seed=7)
    c = stratified_sample(p[p.generator == "gpt"], 2, 40, seed=7)
    assert a["candidate_id"].tolist() == b["candidate_id"].tolist()
    assert set(c["candidate_id"]) == set(a[a.generator == "gpt"]["candidate_id"])
    assert set(stratified_sample(p, 2, 40, seed=8)["candidate_id"]) != set(a["candidate_id"])


def test_human_sample_stratified():
    out = human_sample(pool(generators=("gpt",)), 36, seed=1)
    assert len(out) == 36 and out.groupby(["perturbation_class", "intensity"]).size().eq(2).all()
