"""Stage `verify`: every checked candidate x every verifier → `votes.parquet` (one row per pair).

LLM verifiers get the verifier template (an 8-item checklist; multi-passage data adds strategy
compliance) at the panel temperature (default 0) with JSON output. An invalid reply is
re-asked once with the error; if it is still invalid, or the call failed, the vote is UNSCORED
with the reason: never PASS, never a silent FAIL. A `structural` verifier calls no model and votes
PASS iff the candidate passed the deterministic check (reason "structural"). Resumable per
(candidate, verifier): finished votes are kept, only missing ones and call failures are redone.
"""

from __future__ import annotations

import logging
from typing import Optional

import pandas as pd

from refusalbench.context import RunContext
from refusalbench.errors import UserError
from refusalbench.generation.asking import CALL, Answer, Ask, ask_json
from refusalbench.generation.consensus import FAIL, PASS, UNSCORED
from refusalbench.generation.fatal import FIRST_BATCH, batches, fatal_error, stop_stage
from refusalbench.generation.parsing import CHECKLIST_GARAGE, CHECKLIST_NQ, parse_verification
from refusalbench.generation.tasks import run_catalogue
from refusalbench.generation.verifier_prompts import (
    STRUCTURAL,
    VERIFIER_OUTPUT_TOKENS,
    prompt_version,
    verifier_model,
    verifier_prompt,
)
from refusalbench.rows import is_multi_passage_table

log = logging.getLogger(__name__)

CHUNK = 512
EXTRA_FIELDS = (
    "predicted_rag_behavior",
    "actual_intensity_observed",
    "identified_issues",
    "refusal_reasoning_analysis",
    "constraint_analysis",
)


def _vote(
    cid: str,
    key: str,
    model_cfg,
    version: str,
    verdict: str,
    reason: Optional[str],
    value: Optional[dict] = None,
    error: Optional[str] = None,
    kind: Optional[str] = None,
    usage: Optional[dict] = None,
) -> dict:
    value = value or {}
    row = {
        "candidate_id": cid,
        "verifier": key,
        "verifier_model_id": model_cfg.id,
        "verifier_model_full": model_cfg.name,
        "verifier_backend": model_cfg.backend,
        "verdict": verdict,
        "verdict_reason": reason,
        "verify_error": error,
        "verify_failure_kind": kind,
        "prompt_version": version,
    }
    row.update({item: value.get(item) for item in CHECKLIST_GARAGE})
    row.update({f: value.get(f) for f in EXTRA_FIELDS})
    row.update(usage or {})
    return row


def _reason(v: dict) -> Optional[str]:
    """The verifier's own words, or (compact replies have none) the checklist items it marked false."""
    failed = [item for item in CHECKLIST_GARAGE if v.get(item) is False]
    return (
        v.get("identified_issues")
        or v.get("refusal_reasoning_analysis")
        or ("false: " + ", ".join(failed) if failed else None)
    )


def _from_answer(row: dict, key: str, model_cfg, version: str, ans: Answer) -> dict:
    if ans.ok:
        v = ans.value
        reason = _reason(v)
        return _vote(row["candidate_id"], key, model_cfg, version, v["verdict"], reason, v, usage=ans.usage("ver_"))
    return _vote(
        row["candidate_id"],
        key,
        model_cfg,
        version,
        UNSCORED,
        ans.error,
        None,
        ans.error,
        ans.failure_kind,
        ans.usage("ver_"),
    )


def _existing(ctx: RunContext, wanted: set[tuple[str, str]]) -> dict[tuple[str, str], dict]:
    if not ctx.has_table("votes"):
        return {}
    old = ctx.read_table("votes")
    if old.empty:
        return {}
    pairs = list(zip(old["candidate_id"], old["verifier"]))
    keep = [p in wanted and kind != CALL for p, kind in zip(pairs, old["verify_failure_kind"])]
    return {(r["candidate_id"], r["verifier"]): r for r in old[keep].to_dict(orient="records")}


def _write(ctx: RunContext, order: list[tuple[str, str]], votes: dict) -> pd.DataFrame:
    df = pd.DataFrame([votes[p] for p in order if p in votes])
    ctx.write_table("votes", df)
    return df


def run(ctx: RunContext) -> None:
    cfg = ctx.cfg
    panel = cfg.verifiers
    if not ctx.has_table("checked"):
        raise UserError(f"No checked.parquet in {ctx.run_dir}; run the check stage first.")
    checked = ctx.read_table("checked")
    rows = checked[checked["check_ok"]].to_dict(orient="records")
    multi = is_multi_passage_table(checked)
    catalogue = run_catalogue(cfg)
    checklist = CHECKLIST_GARAGE if multi else CHECKLIST_NQ
    order = [(r["candidate_id"], key) for key in panel.models for r in rows]
    votes = _existing(ctx, set(order))
    calls = failures = 0
    for key, model_cfg in panel.models.items():
        version = prompt_version(model_cfg, multi, catalogue, panel.prompts)
        pending = [r for r in rows if (r["candidate_id"], key) not in votes]
        if model_cfg.backend == STRUCTURAL:
            for r in pending:
                verdict = PASS if r["check_ok"] else FAIL
                votes[(r["candidate_id"], key)] = _vote(r["candidate_id"], key, model_cfg, version, verdict, STRUCTURAL)
            continue
        ver_cfg = verifier_model(model_cfg, panel)
        for chunk in batches(pending, CHUNK, first=min(CHUNK, FIRST_BATCH)):
            asks = [
                Ask(
                    key=f"{r['candidate_id']}:{key}",
                    prompt=verifier_prompt(r, catalogue, multi, panel.prompts),
                    template_version=version,
                    parse=lambda text: parse_verification(text, checklist),
                    expected_output_tokens=VERIFIER_OUTPUT_TOKENS,
                )
                for r in chunk
            ]
            answers = ask_json(
                ctx.llm, ver_cfg, asks, role="verifier", desc=f"verify {key}", max_reasks=cfg.generate.max_parse_retries
            )
            for r, ans in zip(chunk, answers):
                votes[(r["candidate_id"], key)] = _from_answer(r, key, model_cfg, version, ans)
                calls += 1
                failures += ans.failure_kind == CALL
            _write(ctx, order, votes)
            fatal = fatal_error([a.error if a.failure_kind == CALL else None for a in answers])
            if fatal:
                raise stop_stage("verify", "verifier", model_cfg.id, len(answers), fatal, "votes.parquet")
    df = _write(ctx, order, votes)
    for key, g in df.groupby("verifier", sort=True) if len(df) else []:
        counts = g["verdict"].value_counts()
        log.info(
            "verify %s: %d PASS, %d FAIL, %d UNSCORED",
            key,
            counts.get(PASS, 0),
            counts.get(FAIL, 0),
            counts.get(UNSCORED, 0),
        )
    if calls and failures == calls:
        raise UserError(
            f"Every verifier call failed ({calls} calls); the votes were recorded as UNSCORED and a rerun "
            f"retries them. First error: {df['verify_error'].dropna().iloc[0]}"
        )
