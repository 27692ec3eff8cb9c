"""The dry run: what the configured pipeline would call, with tokens and cost, and no stage run.

The entry point calls `plan_run` instead of the stages when `run.dry_run` is true. It reads the same
inputs the stages would (the base questions, or the run directory's checked candidates, benchmark or
outputs) and writes `estimate.json`; it writes no stage table and calls no model.

Call counts are exact for generation (one call per pending task; re-asks not counted) and for stages
that start from stored tables; they are upper bounds downstream of generation: verification assumes
every candidate passes the check, evaluation and judging assume every generator fills its
`select.per_generator` quota. Verification prompts are measured with the original text standing in
for the perturbed text, judge prompts with a short stand-in answer when no outputs exist yet.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from pathlib import Path
from typing import Optional

import pandas as pd

from refusalbench.config import JudgeKind, RefusalBenchConfig, Stage
from refusalbench.errors import UserError
from refusalbench.planning.measure import (
    add_totals,
    estimator_layer,
    fmt,
    measure,
    no_calls,
    render_prompts,
    spread,
)
from refusalbench.rows import CANDIDATE_ID, ITEM_ID, as_list, is_multi_passage_table
from refusalbench.tables import read_table

log = logging.getLogger(__name__)

JUDGE_OUTPUT_TOKENS = 150
STAND_IN_ANSWER = "A short answer."


class _Flow:
    """What reaches the next stage in the plan: sample rows, how many, and per generator."""

    def __init__(self, rows: list[dict], count: int, per_generator: Optional[Counter], multi: bool) -> None:
        self.rows, self.count, self.per_generator, self.multi = rows, count, per_generator, multi


def _table(run_dir: Path, name: str, stage: str, earlier: str) -> pd.DataFrame:
    path = run_dir / f"{name}.parquet"
    if not path.exists():
        raise UserError(f"A dry run of the {stage} stage needs {path}; run the {earlier} stage first.")
    return read_table(path)


def _task_row(task, multi: bool) -> dict:
    """A stand-in candidate: the original item as its own perturbation."""
    base = task.base
    row = {
        CANDIDATE_ID: task.candidate_id,
        ITEM_ID: task.candidate_id,
        "source_id": task.source_id,
        "perturbation_class": task.perturbation_class,
        "intensity": task.intensity,
        "generator": task.generator,
        "original_query": base["query"],
        "original_answers": as_list(base["answers"]),
        "perturbed_query": base["query"],
        "lever_selected": task.allowed_levers[0],
        "implementation_reasoning": "",
        "intensity_achieved": task.intensity,
    }
    if multi:
        passages = as_list(base["passages"])
        text = "\n\n".join(map(str, passages))
        row.update(
            original_passages=passages,
            perturbed_passages=passages,
            grounding=passages,
            signal_indices=as_list(base["signal_indices"]),
            noise_indices=as_list(base["noise_indices"]),
            reference_answer=base.get("reference_answer"),
            relevant=base.get("relevant"),
            original_context=text,
            perturbed_context=text,
        )
    else:
        row.update(original_context=base["context"], perturbed_context=base["context"])
    return row


def _generation(cfg: RefusalBenchConfig, run_dir: Path, layer, report: dict, catalogue) -> _Flow:
    from refusalbench.generation.base_table import load_base_table
    from refusalbench.generation.tasks import (
        PROGRAMMATIC,
        expected_output_tokens,
        generation_model,
        generation_tasks,
        generator_template,
        prompt_variables,
    )
    from refusalbench.prompts import render

    tasks, multi = generation_tasks(cfg, load_base_table(cfg), catalogue)
    done = set()
    if (run_dir / "candidates.parquet").exists():
        old = read_table(run_dir / "candidates.parquet")
        done = set(old.loc[old["generation_ok"] | (old["generation_failure_kind"] != "call"), CANDIDATE_ID])
    todo = [t for t in tasks if t.candidate_id not in done]
    section = {}
    for key, model_cfg in cfg.generators.models.items():
        mine = [t for t in todo if t.generator == key]
        if model_cfg.backend == PROGRAMMATIC:
            section[key] = no_calls()
            continue
        gen_cfg = generation_model(model_cfg, cfg.generators)
        prompts = [
            (
                render(generator_template(multi, cfg.generators.prompts), **prompt_variables(t, catalogue, multi)),
                t.prompt_version,
                expected_output_tokens(t.base, multi, gen_cfg),
            )
            for t in spread(mine)
        ]
        section[key] = measure(layer, gen_cfg, "generator", len(mine), prompts)
    report["stages"]["generation"] = section
    report.update(
        base_items=len({t.source_id for t in tasks}), candidates=len(tasks), pending_generation_tasks=len(todo)
    )
    report["notes"].append("re-asks after invalid replies are not counted")
    per_gen = Counter(t.generator for t in tasks)
    return _Flow([_task_row(t, multi) for t in spread(tasks)], len(tasks), per_gen, multi)


def _checked(run_dir: Path, report: dict) -> _Flow:
    checked = _table(run_dir, "checked", "verify", "check")
    multi = is_multi_passage_table(checked)
    rows = [r for r in checked.to_dict(orient="records") if r["check_ok"]]
    sample = [
        dict(r, id=r[CANDIDATE_ID], grounding=as_list(r.get("perturbed_passages")) if multi else None)
        for r in spread(rows)
    ]
    report["candidates"] = len(rows)
    return _Flow(sample, len(rows), Counter(r["generator"] for r in rows), multi)


def _verification(cfg: RefusalBenchConfig, layer, flow: _Flow, catalogue, notes: list[str]) -> dict:
    from refusalbench.generation.verifier_prompts import (
        STRUCTURAL,
        VERIFIER_OUTPUT_TOKENS,
        prompt_version,
        verifier_model,
        verifier_prompt,
    )

    section = {}
    style = cfg.verifiers.prompts
    for key, model_cfg in cfg.verifiers.models.items():
        if model_cfg.backend == STRUCTURAL:
            section[key] = no_calls()
            continue
        version = prompt_version(model_cfg, flow.multi, catalogue, style)
        prompts = render_prompts(
            flow.rows,
            lambda r, v=version: (verifier_prompt(r, catalogue, flow.multi, style), v, VERIFIER_OUTPUT_TOKENS),
            "verification",
            notes,
        )
        section[key] = measure(layer, verifier_model(model_cfg, cfg.verifiers), "verifier", flow.count, prompts)
    return section


def _benchmark(cfg: RefusalBenchConfig, run_dir: Path, flow: Optional[_Flow]) -> _Flow:
    """What the evaluate stage would read: the generated stand-ins (upper bound) or the benchmark itself."""
    from refusalbench.evaluation import check_columns, is_multi_passage, load_benchmark_table

    if flow is not None and flow.per_generator is not None:
        n = sum(min(cfg.select.per_generator, k) for k in flow.per_generator.values())
        rows, multi = flow.rows, flow.multi
    else:
        table, source = load_benchmark_table(cfg, run_dir)
        multi = is_multi_passage(table, cfg.dataset.multi_passage)
        check_columns(table, multi, source)
        records = table.to_dict(orient="records")
        n, rows = len(records), spread(records)
    if cfg.evaluate.limit is not None:
        n = min(n, cfg.evaluate.limit)
    return _Flow(rows, n * cfg.evaluate.replicates, None, multi)


def _evaluation(cfg: RefusalBenchConfig, layer, flow: _Flow, notes: list[str]) -> dict:
    from refusalbench.evaluation import build_prompt, expected_output_tokens, template_name

    variant = cfg.evaluate.prompt_variant
    version = template_name(flow.multi, variant)
    expected = expected_output_tokens(cfg.evaluate, cfg.reasoning.budget_tokens)
    prompts = render_prompts(
        flow.rows, lambda r: (build_prompt(r, flow.multi, variant), version, expected), "evaluation", notes
    )
    return {cfg.model.id: measure(layer, cfg.model, "evaluated", flow.count, prompts)}


def _judging(cfg: RefusalBenchConfig, run_dir: Path, layer, flow: Optional[_Flow], notes: list[str]) -> dict:
    from refusalbench.judging.judge_prompt import judge_prompt, row_is_multi

    if flow is None:  # judging stored outputs: their real answers (an upper bound: the rule settles some)
        rows = _table(run_dir, "outputs", "judge", "evaluate").to_dict(orient="records")
        sample = [(r, str(r.get("raw_output") or ""), row_is_multi(r)) for r in spread(rows)]
        count = len(rows)
    else:
        sample, count = [(r, STAND_IN_ANSWER, flow.multi) for r in flow.rows], flow.count
    notes.append("judge calls are an upper bound: outputs the code rule settles are not sent to the judge")

    def build(item):
        name, text, _ = judge_prompt(*item)
        return text, name, JUDGE_OUTPUT_TOKENS

    prompts = render_prompts(sample, build, "judge", notes)
    return {cfg.judge.model.id: measure(layer, cfg.judge.model, "judge", count, prompts)}


def plan_run(cfg: RefusalBenchConfig, run_dir: Path) -> tuple[dict, Path]:
    """Estimate the configured pipeline's calls, tokens and cost; write `estimate.json`. Calls no model."""
    from refusalbench.generation.tasks import run_catalogue

    run_dir = Path(run_dir)
    stages = set(cfg.pipeline.stages)
    report: dict = {
        "dry_run": True,
        "pipeline": [str(s) for s in cfg.pipeline.stages],
        "calls": {},
        "notes": [],
        "stages": {},
    }
    layer = estimator_layer(cfg.cache)
    try:
        flow: Optional[_Flow] = None
        needs_catalogue = Stage.generate in stages or Stage.verify in stages
        catalogue = run_catalogue(cfg) if needs_catalogue else None
        if Stage.generate in stages:
            flow = _generation(cfg, run_dir, layer, report, catalogue)
        elif Stage.verify in stages:
            flow = _checked(run_dir, report)
        if Stage.verify in stages:
            report["stages"]["verification"] = _verification(cfg, layer, flow, catalogue, report["notes"])
        if Stage.evaluate in stages:
            flow = _benchmark(cfg, run_dir, flow)
            report["multi_passage"] = flow.multi
            report["stages"]["evaluation"] = _evaluation(cfg, layer, flow, report["notes"])
        elif flow is not None:
            report["multi_passage"] = flow.multi
        if Stage.judge in stages and cfg.judge.kind == JudgeKind.llm:
            judged = flow if Stage.evaluate in stages else None
            report["stages"]["judge"] = _judging(cfg, run_dir, layer, judged, report["notes"])
    finally:
        layer.close()
    add_totals(report)
    path = run_dir / "estimate.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2))
    totals = report["totals"]
    log.info(
        "dry-run estimate: %s calls, %s input and %s output tokens, cost %s (details in %s)",
        fmt(totals["calls"]),
        fmt(totals["input_tokens"]),
        fmt(totals["output_tokens"]),
        fmt(totals["cost_usd"], True),
        path,
    )
    return report, path
