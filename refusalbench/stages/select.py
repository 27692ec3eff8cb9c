"""Stage `select`: consensus + stratified sampling → the benchmark, its composition and analyses.

Writes `consensus.parquet` (per candidate: consensus_pass, n_valid_votes, n_pass_votes, votes),
`benchmark.parquet` (the released schema plus provenance columns), `benchmark_released.jsonl`/
`.parquet` (exactly the released schema, via refusalbench.data.write_benchmark),
`composition.csv` (class x intensity x generator counts and pass rates),
`composition_levers.csv` (the same per lever), `composition_checks.csv` (per cell and generator, how
many candidates each semantic detector of the check stage rejected, with an example reason), the
composition tables counting declined items (`n_declined`: the programmatic generator found no lever
that gives a valid item) and detector hits (`n_detector_hits`), the generator-verifier tables
`generator_verifier_*.csv` and `human_validation.csv` (a stratified random sample of
`select.human_sample` benchmark items with empty annotation columns; see generation.human).
Deterministic given the votes, so it is recomputed in full on every run.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pandas as pd

from refusalbench.context import RunContext
from refusalbench.errors import UserError
from refusalbench.generation import analysis, human
from refusalbench.generation.consensus import PASS, consensus_table
from refusalbench.generation.ids import benchmark_id
from refusalbench.generation.sampling import human_sample, stratified_sample
from refusalbench.rows import as_list, is_missing, is_multi_passage_table
from refusalbench.tables import read_table

log = logging.getLogger(__name__)

NOT_APPLICABLE = "not_applicable"  # the generate stage's failure kind for a declined programmatic item
PROVENANCE = [
    "candidate_id",
    "generator_model_full",
    "n_valid_votes",
    "n_pass_votes",
    "consensus_mode",
    "sampling_step",
    "prompt_version",
    "lever_assignment",
]


def _tables(ctx: RunContext) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(checked, votes): from the run directory, or the votes table `select.candidates` and its checked.parquet."""
    override = ctx.cfg.select.candidates
    votes = ctx.read_table("votes", override=override)
    checked_path = Path(override).with_name("checked.parquet") if override else ctx.table_path("checked")
    if not checked_path.exists():
        checked_path = ctx.table_path("checked")
    if not checked_path.exists():
        raise UserError(
            f"No checked.parquet beside the votes table ({checked_path}); run generate, check and verify first."
        )
    return read_table(checked_path), votes


def released_frame(selected: pd.DataFrame, multi: bool, mode: str) -> pd.DataFrame:
    """Benchmark rows in the released schema, plus provenance columns."""
    rows = []
    for r in selected.to_dict(orient="records"):
        row = {
            "id": benchmark_id(
                r["candidate_id"], r["generator"], r["source_id"], r["perturbation_class"], r["intensity"]
            ),
            "source_id": r["source_id"],
            "generator_model": r["generator"],
            "perturbation_class": r["perturbation_class"],
            "intensity": r["intensity"],
            "expected_rag_behavior": r["expected_rag_behavior"],
            "lever_selected": r["lever_selected"],
            "original_query": r["original_query"],
            "original_context": r["original_context"],
            "original_answers": [str(a) for a in as_list(r["original_answers"])],
            "perturbed_query": r["perturbed_query"],
            "perturbed_context": r["perturbed_context"],
            "implementation_reasoning": r.get("implementation_reasoning"),
            "verifier_votes": dict(r["verifier_votes"]),
            "consensus_mode": mode,
        }
        if multi:
            row.update(
                query=r["perturbed_query"],
                grounding=[str(p) for p in as_list(r["perturbed_passages"])],
                reference_answer=r.get("reference_answer"),
                signal_indices=[int(i) for i in as_list(r["signal_indices"])],
                noise_indices=[int(i) for i in as_list(r["noise_indices"])],
                relevant=None if is_missing(r.get("relevant")) else [bool(x) for x in as_list(r["relevant"])],
                domain=r.get("domain"),
            )
        row.update({c: r.get(c) for c in PROVENANCE if c not in row})
        rows.append(row)
    return pd.DataFrame(rows)


def _counts(df: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    g = df.groupby(keys, sort=True, dropna=False)
    out = pd.DataFrame(
        {
            "n_generated": g.size(),
            "n_generation_ok": g["generation_ok"].sum(),
            "n_declined": g["declined"].sum(),
            "n_detector_hits": g["detector_hit"].sum(),
            "n_check_ok": g["check_ok"].sum(),
            "n_verified": g["n_valid_votes"].apply(lambda s: int((s > 0).sum())),
            "n_consensus_pass": g["consensus_pass"].sum(),
            "n_selected": g["selected"].sum(),
        }
    ).reset_index()
    out["check_pass_rate"] = out["n_check_ok"] / out["n_generated"]
    out["consensus_pass_rate"] = (out["n_consensus_pass"] / out["n_check_ok"]).where(out["n_check_ok"] > 0)
    return out


def composition(checked: pd.DataFrame, cons: pd.DataFrame, selected_ids: set[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(class x intensity x generator, class x intensity x lever) counts and pass rates."""
    df = checked.merge(cons[["candidate_id", "consensus_pass", "n_valid_votes"]], on="candidate_id", how="left")
    df["consensus_pass"] = df["consensus_pass"].fillna(False).astype(bool)
    df["n_valid_votes"] = df["n_valid_votes"].fillna(0).astype(int)
    df["selected"] = df["candidate_id"].isin(selected_ids)
    kind = df["generation_failure_kind"] if "generation_failure_kind" in df else pd.Series(None, index=df.index)
    df["declined"] = kind.eq(NOT_APPLICABLE)
    df["detector_hit"] = _detectors(df).ne("")
    by_cell = _counts(df, ["perturbation_class", "intensity", "generator"])
    by_lever = _counts(df[df["generation_ok"]], ["perturbation_class", "intensity", "lever_selected"])
    return by_cell, by_lever


def _detectors(df: pd.DataFrame) -> pd.Series:
    if "check_detectors" not in df:
        return pd.Series("", index=df.index)
    return df["check_detectors"].fillna("").astype(str)


def detector_summary(checked: pd.DataFrame) -> pd.DataFrame:
    """Per class x intensity x generator x detector: the candidates it rejected and one example reason."""
    cols = ["perturbation_class", "intensity", "generator", "detector", "n_candidates", "example_reason"]
    df = checked.assign(detector=_detectors(checked).str.split(",")).explode("detector")
    df = df[df["detector"].fillna("") != ""]
    if df.empty:
        return pd.DataFrame(columns=cols)

    def example(g: pd.DataFrame) -> str:
        reason = str(g["check_reason"].iloc[0] or "")
        part = next((p.strip() for p in reason.split("; ") if p.strip().startswith(g.name[-1] + ":")), reason)
        return part[:300]

    g = df.groupby(cols[:4], sort=True)
    return pd.DataFrame({"n_candidates": g.size(), "example_reason": g.apply(example)}).reset_index()[cols]


def _csv(ctx: RunContext, name: str, df: pd.DataFrame) -> None:
    path = ctx.run_dir / f"{name}.csv"
    df.to_csv(path, index=False)
    ctx.outputs[name] = str(path)


def run(ctx: RunContext) -> None:
    cfg = ctx.cfg
    sel, panel = cfg.select, cfg.verifiers
    mode = str(panel.consensus)
    checked, votes = _tables(ctx)
    verifiers = list(panel.models)
    if votes.empty:
        votes = pd.DataFrame(columns=["candidate_id", "verifier", "verdict"])
    present = set(votes["verifier"])
    if present and not present & set(verifiers):
        raise UserError(
            f"The votes table holds verifiers {sorted(present)} but the verifiers panel is {verifiers}; "
            "select with the panel that verified the candidates."
        )
    cons = consensus_table(votes, verifiers, mode)
    ctx.write_table("consensus", cons)
    multi = is_multi_passage_table(checked)
    pool = checked[checked["check_ok"]].merge(cons, on="candidate_id", how="inner")
    pool = pool[pool["consensus_pass"].astype(bool)].assign(consensus_mode=mode)
    selected = stratified_sample(pool, sel.per_stratum, sel.per_generator, sel.seed)
    bench = released_frame(selected, multi, mode)
    log.info(
        "select: %d of %d checked candidates pass %s consensus; %d selected",
        len(pool),
        int(checked["check_ok"].sum()),
        mode,
        len(bench),
    )
    ctx.write_table("benchmark", bench)
    if len(bench):
        from refusalbench.data import write_benchmark

        parquet_path, jsonl_path = write_benchmark(bench, ctx.run_dir / "benchmark_released")
        ctx.outputs["benchmark_released"] = str(jsonl_path)
    else:
        log.warning("select: no candidate passed; the benchmark is empty")
    by_cell, by_lever = composition(checked, cons, set(selected["candidate_id"]))
    _csv(ctx, "composition", by_cell)
    _csv(ctx, "composition_levers", by_lever)
    checks = detector_summary(checked)
    _csv(ctx, "composition_checks", checks)
    if len(checks):
        log.info(
            "select: semantic detectors rejected %d candidate(s): %s",
            int(by_cell["n_detector_hits"].sum()),
            checks.groupby("detector")["n_candidates"].sum().to_dict(),
        )
    gen_ids = dict(zip(checked["generator"], checked.get("generator_model_id", checked["generator"])))
    ver_ids = {k: m.id for k, m in panel.models.items()}
    for name, table in analysis.analyse(checked, votes, cons, gen_ids, ver_ids).items():
        _csv(ctx, name, table)
    if sel.human_sample and len(bench):
        n_human = min(sel.human_sample, len(bench))  # a sheet of the whole benchmark is no shortfall
        if n_human < sel.human_sample:
            log.info(
                "human validation sheet: all %d benchmark items (select.human_sample=%d)", n_human, sel.human_sample
            )
        sample = human_sample(bench, n_human, sel.seed).assign(panel_verdict=PASS)
        _csv(ctx, "human_validation", human.export_frame(sample, multi))
