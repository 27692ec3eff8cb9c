"""Stage `judge`: label every stored output; write `labels.parquet`.

Reads `outputs.parquet` only, so it can be re-run on stored outputs without calling the evaluated
model. Per output, in order:

1. the confidence variant's ``CONFIDENCE: NN`` line is parsed into `confidence` and removed;
2. layer 1 (refusalbench.judging.rules): a failed call → ``unscored``; an empty output →
   ``truncated``; an output that is a refusal code, or begins with one followed by an explanation
   (also when truncated after the code) → that code (`label_source` rule); another truncated output →
   ``truncated``;
3. the rest are answer attempts or plain-language refusals:
   - ``judge.kind=llm``: the judge model (temperature 0, JSON) classifies them and rates the answer
     (single-passage 1–5, correct when ≥ ``judge.correct_score``; multi-passage eligibility and
     factuality flags, correct when factuality against the relevant passages is 1). An unreadable
     verdict is re-asked once, then the item is ``unscored`` with the reason.
   - ``judge.kind=deterministic``: an approximation offline. Plain-language refusals ("the passage
     does not say…") are recognised by `refusalbench.judging.refusal_detector` and get the code their
     reason words fit best (else REFUSE_OTHER; `label_source` detector); every other output is an
     answer attempt, correct when its normalised exact match or token F1 (best over the reference
     answers) reaches ``judge.f1_threshold``.

Exact match and F1 are recorded for every answer attempt with references, whichever judge runs.
The judge model never receives the item's expected label.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any, Optional

import pandas as pd

from refusalbench.config import JudgeConfig
from refusalbench.context import RunContext
from refusalbench.errors import UserError
from refusalbench.evaluation import output_key
from refusalbench.judging.answer_match import best_match
from refusalbench.judging.confidence import parse_confidence
from refusalbench.judging.judge_prompt import JUDGE_TOKENS_ESTIMATE, judge_prompt, references, row_is_multi
from refusalbench.judging.llm_judge import REASK, Verdict, VerdictError, parse_verdict
from refusalbench.judging.refusal_detector import detect_refusal
from refusalbench.judging.rules import classify
from refusalbench.prompts import template_version
from refusalbench.rows import is_missing
from refusalbench.taxonomy import ANSWER_ATTEMPT, TRUNCATED, UNSCORED

log = logging.getLogger(__name__)

LABEL_COLUMNS = (
    "answer_text",
    "predicted_label",
    "label_source",
    "answer_correct",
    "answer_quality_score",
    "answer_f1",
    "answer_em",
    "eligibility",
    "factuality_all",
    "factuality_relevant",
    "confidence",
    "judge",
    "judge_reason",
)


def _blank(answer: str, confidence: Optional[float]) -> dict[str, Any]:
    return dict(
        answer_text=answer,
        predicted_label=None,
        label_source=None,
        answer_correct=None,
        answer_quality_score=None,
        answer_f1=None,
        answer_em=None,
        eligibility=None,
        factuality_all=None,
        factuality_relevant=None,
        confidence=confidence,
        judge=None,
        judge_reason=None,
        _notes=[],
    )


def _with_match(label: dict, refs: list[str], threshold: float, decide: bool) -> None:
    m = best_match(label["answer_text"], refs)
    if m is None:
        if decide:
            label["judge_reason"] = "answer attempt; no reference answers to match"
        return
    label["answer_em"] = bool(m.em)
    label["answer_f1"] = float(m.f1)
    if decide:
        label["answer_correct"] = bool(m.em or m.f1 >= threshold)
        label["judge_reason"] = f"answer attempt; EM={int(m.em)} F1={m.f1:.3f} (threshold {threshold:g})"


def _apply_verdict(label: dict, verdict: Verdict, multi: bool, cfg: JudgeConfig) -> None:
    label["predicted_label"] = verdict.classification
    label["label_source"] = "judge"
    label["judge_reason"] = verdict.explanation or None
    if verdict.classification != ANSWER_ATTEMPT:
        return
    if multi:
        label.update(
            eligibility=verdict.eligibility,
            factuality_all=verdict.factuality_all,
            factuality_relevant=verdict.factuality_relevant,
            answer_correct=bool(verdict.factuality_relevant == 1),
        )
    elif verdict.quality_score is not None:
        label["answer_quality_score"] = verdict.quality_score
        label["answer_correct"] = bool(verdict.quality_score >= cfg.correct_score)


def _run_llm_judge(ctx: RunContext, cfg: JudgeConfig, pending: list[tuple[dict, dict, bool]]) -> None:
    """Judge the outputs the rule left open; fills their label dicts in place."""
    from refusalbench.llm import CallSpec

    model_cfg = dataclasses.replace(cfg.model, temperature=0.0)
    specs, todo = [], []
    for row, label, multi in pending:
        try:
            name, prompt, note = judge_prompt(row, label["answer_text"], multi)
        except UserError as exc:  # bad item data (e.g. relevance flags that do not match the passages)
            label.update(predicted_label=UNSCORED, label_source="judge", judge_reason=f"no judge prompt: {exc}")
            continue
        if note:
            label["_notes"].append(note)
        todo.append((row, label, multi))
        specs.append(
            CallSpec(
                key=output_key(row["id"], int(row.get("replicate") or 0)),
                messages=[{"role": "user", "content": prompt}],
                template_version=template_version(name),
                response_format="json",
                expected_output_tokens=JUDGE_TOKENS_ESTIMATE,
            )
        )
    if not specs:
        return
    results = ctx.llm.run(model_cfg, specs, role="judge", desc=f"judge {cfg.model.id}")
    failed = [c for c in results if c.error]
    if failed and len(failed) == len(results):
        # nothing was judged: stop before writing, so an earlier labels table and its metrics survive
        raise UserError(
            f"Every call to the judge model {cfg.model.id!r} failed ({len(results)} calls); no labels were "
            f"written. First error: {failed[0].error}"
        )
    retry = []
    for item, spec, c in zip(todo, specs, results):
        problem = _settle(item, c, cfg, "judge call failed")
        if isinstance(problem, VerdictError):
            reask = [
                *spec.messages,
                {"role": "assistant", "content": c.text},
                {"role": "user", "content": REASK.format(reason=problem)},
            ]
            retry.append((item, dataclasses.replace(spec, messages=reask)))
    if not retry:
        return
    log.info("judge: re-asking %d unreadable verdict(s)", len(retry))
    again = ctx.llm.run(model_cfg, [s for _, s in retry], role="judge", desc=f"judge {cfg.model.id} (re-ask)")
    for (item, _), c in zip(retry, again):
        problem = _settle(item, c, cfg, "judge re-ask failed")
        if isinstance(problem, VerdictError):
            item[1].update(
                predicted_label=UNSCORED,
                label_source="judge",
                judge_reason=f"judge verdict unreadable after one re-ask: {problem}",
            )


def _settle(item: tuple[dict, dict, bool], c: Any, cfg: JudgeConfig, failed: str) -> Optional[VerdictError]:
    """Apply a judge completion to its label; returns the parse problem, if that is what went wrong."""
    row, label, multi = item
    if c.error:
        label.update(predicted_label=UNSCORED, label_source="judge", judge_reason=f"{failed}: {c.error}")
        return None
    try:
        _apply_verdict(label, parse_verdict(c.text, multi, bool(references(row, multi))), multi, cfg)
    except VerdictError as exc:
        return exc
    return None


def label_outputs(ctx: RunContext, outputs: pd.DataFrame) -> pd.DataFrame:
    """The labels table: `outputs` plus the label columns."""
    cfg = ctx.cfg.judge
    missing = [c for c in ("id", "raw_output") if c not in outputs.columns]
    if missing:
        raise UserError(
            f"The outputs table lacks the column(s) {', '.join(missing)}; it must come from the evaluate stage."
        )
    judge_id = "deterministic" if cfg.kind == "deterministic" else cfg.model.id
    labels, pending = [], []
    for row in outputs.to_dict(orient="records"):
        raw = "" if is_missing(row.get("raw_output")) else str(row["raw_output"])
        variant = (
            str(ctx.cfg.evaluate.prompt_variant) if is_missing(row.get("prompt_variant")) else row["prompt_variant"]
        )
        conf, note = None, None
        if variant == "confidence":
            parsed = parse_confidence(raw)
            raw, conf, note = parsed.answer, parsed.confidence, parsed.note
        label = _blank(raw, conf)
        label["judge"] = judge_id
        labels.append(label)
        error = None if is_missing(row.get("error")) else str(row["error"])
        truncated = bool(row.get("truncated")) if not is_missing(row.get("truncated")) else False
        decision = classify(raw, truncated=truncated, error=error)
        multi = row_is_multi(row)
        if decision is not None:
            label.update(predicted_label=decision.label, label_source="rule", judge_reason=decision.reason)
            note = None if decision.label in (UNSCORED, TRUNCATED) else note
        elif cfg.kind == "deterministic" and (found := detect_refusal(raw)) is not None:
            label.update(
                predicted_label=found.code,
                label_source="detector",
                judge_reason=f"plain-language refusal ({found.cue!r})",
            )
        else:
            refs = references(row, multi)
            _with_match(label, refs, cfg.f1_threshold, decide=cfg.kind == "deterministic")
            if cfg.kind == "deterministic":
                label.update(predicted_label=ANSWER_ATTEMPT, label_source="rule")
            else:
                pending.append((row, label, multi))
        if note:
            label["_notes"].append(note)
    if pending:
        _run_llm_judge(ctx, cfg, pending)
    for label in labels:
        if label["predicted_label"] != ANSWER_ATTEMPT:  # answer matches of non-answers are meaningless
            label.update(answer_em=None, answer_f1=None, answer_correct=None)
        parts = [p for p in (label["judge_reason"], *label.pop("_notes")) if p]
        label["judge_reason"] = "; ".join(parts) or None
    out = outputs.reset_index(drop=True).copy()
    lab = pd.DataFrame(labels, columns=list(LABEL_COLUMNS))
    for col in LABEL_COLUMNS:
        out[col] = lab[col]
    for col in ("answer_correct", "answer_em"):
        out[col] = out[col].astype("boolean")
    for col in ("eligibility", "factuality_all", "factuality_relevant"):
        out[col] = out[col].astype("Int64")
    for col in ("answer_quality_score", "answer_f1", "confidence"):
        out[col] = out[col].astype("Float64")
    return out


def run(ctx: RunContext) -> None:
    if not ctx.has_table("outputs"):
        raise UserError(
            f"The judge stage needs {ctx.table_path('outputs')}; run the evaluate stage first (pipeline=evaluate)."
        )
    outputs = ctx.read_table("outputs")
    labels = label_outputs(ctx, outputs)
    ctx.write_table("labels", labels)
    counts = labels["predicted_label"].value_counts().to_dict()
    log.info(
        "judge (%s): %d outputs labelled: %s", labels["judge"].iloc[0] if len(labels) else "-", len(labels), counts
    )
