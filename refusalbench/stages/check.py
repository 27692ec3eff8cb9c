"""Stage `check`: deterministic checks of every candidate → `checked.parquet` (candidates + check_ok,
check_reason, check_detectors).

Runs before any verifier is paid (see refusalbench.generation.checks for the rules and
refusalbench.generation.semantic for the semantic detectors, which apply to every generator).
`check_detectors` names the detectors a candidate fails ("" when none), so the select stage can
summarise them. Cheap and deterministic, so it is simply recomputed in full on every run.
"""

from __future__ import annotations

import logging

import pandas as pd

from refusalbench.context import RunContext
from refusalbench.errors import UserError
from refusalbench.generation.checks import check_candidate, semantic_hits
from refusalbench.generation.semantic import IDENTICAL, identical_intensities
from refusalbench.generation.tasks import run_catalogue
from refusalbench.rows import as_list, is_missing

log = logging.getLogger(__name__)


def lever_checker(catalogue):
    return lambda cls, intensity, name: catalogue.get(cls, intensity, name) is not None


def _texts(row: dict) -> tuple:
    if is_missing(row.get("perturbed_passages")):
        return row.get("perturbed_query"), row.get("perturbed_context")
    return row.get("perturbed_query"), tuple(str(p) for p in as_list(row.get("perturbed_passages")))


def same_text_hits(rows: list[dict]) -> dict[int, tuple[str, str]]:
    """Row index → (detector, reason) for candidates whose perturbed texts equal another intensity's
    of the same question, class and generator."""
    groups: dict[tuple, dict[str, list[int]]] = {}
    for i, r in enumerate(rows):
        if r.get("generation_ok"):
            key = (r.get("source_id"), r.get("perturbation_class"), r.get("generator"))
            groups.setdefault(key, {}).setdefault(r["intensity"], []).append(i)
    out = {}
    for by_intensity in groups.values():
        texts = {k: _texts(rows[idx[0]]) for k, idx in by_intensity.items()}
        for intensity, why in identical_intensities(texts).items():
            for i in by_intensity[intensity]:
                out[i] = (IDENTICAL, why)
    return out


def duplicate_reasons(rows: list[dict]) -> dict[int, str]:
    """Row index → reason for candidates whose class, intensity and perturbed texts equal an earlier
    candidate's of another question (two NQ questions can share a passage, and a lever that asks a new
    question about the passage's subject then writes the same item twice). The first one is kept."""
    first: dict[tuple, dict] = {}
    out = {}
    for i, r in enumerate(rows):
        if not r.get("generation_ok"):
            continue
        key = (r.get("perturbation_class"), r.get("intensity"), _texts(r))
        kept = first.setdefault(key, r)
        if kept is not r and kept.get("source_id") != r.get("source_id"):
            out[i] = f"the same item as candidate {kept.get('candidate_id')} of question {kept.get('source_id')}"
    return out


def check_table(candidates: pd.DataFrame, catalogue) -> pd.DataFrame:
    """`candidates` with `check_ok`, `check_reason` and `check_detectors` added."""
    known = lever_checker(catalogue)
    rows = candidates.to_dict(orient="records")
    hits = [semantic_hits(r) for r in rows]
    for i, hit in same_text_hits(rows).items():
        hits[i].append(hit)
    results = [check_candidate(row, known, h) for row, h in zip(rows, hits)]
    for i, why in duplicate_reasons(rows).items():
        ok, reason = results[i]
        results[i] = (False, f"{reason}; {why}" if reason else why)
    out = candidates.copy()
    out["check_ok"] = [ok for ok, _ in results]
    out["check_reason"] = [reason for _, reason in results]
    out["check_detectors"] = [",".join(name for name, _ in h) for h in hits]
    return out


def run(ctx: RunContext) -> None:
    if not ctx.has_table("candidates"):
        raise UserError(f"No candidates.parquet in {ctx.run_dir}; run the generate stage first (pipeline=generate).")
    candidates = ctx.read_table("candidates")
    checked = check_table(candidates, run_catalogue(ctx.cfg))
    ctx.write_table("checked", checked)
    failed = checked[~checked["check_ok"]]
    log.info("check: %d of %d candidates pass", len(checked) - len(failed), len(checked))
    if len(failed):
        reasons = failed["check_reason"].str.split(";").str[0].str.replace(r"\".*\"", "…", regex=True).value_counts()
        for reason, n in reasons.head(8).items():
            log.info("check: %5d x %s", n, reason)
    detectors = checked["check_detectors"].str.split(",").explode()
    for name, n in detectors[detectors != ""].value_counts().items():
        log.info("check: semantic detector %s: %d candidate(s)", name, n)
