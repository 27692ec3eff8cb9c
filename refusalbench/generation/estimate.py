"""Dry-run estimate of a benchmark-building run: calls, tokens and cost per model, before any spend.

Call counts are exact for generation (one call per pending task; re-asks not counted) and upper
bounds downstream: verification assumes every candidate passes the check (candidates x LLM
verifiers), evaluation and judging assume every generator fills its `select.per_generator` quota.
Tokens and cost come from the model-call layer's dry-run mode (LiteLLM token counter and price
table) on a sample of real prompts per model (`SAMPLE` spread evenly over the calls), scaled to the
call count. Verification prompts are measured with the original text standing in for the
perturbed text. The result is logged, printed as a short table and written to `estimate.json`;
the stage then raises `DryRunComplete`, which the CLI catches to end the run cleanly.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from pathlib import Path
from typing import Any, Callable, Optional

from refusalbench.generation.checks import as_list

log = logging.getLogger(__name__)

SAMPLE = 32  # prompts measured per (model, role)
JUDGE_OUTPUT_TOKENS = 150
STAND_IN_ANSWER = "A short answer."


class DryRunComplete(Exception):
    """Raised after a dry run wrote its estimate: the pipeline stops here, nothing was called."""

    def __init__(self, estimate: dict, path: Path) -> None:
        self.estimate = estimate
        self.path = Path(path)
        super().__init__(f"Dry run complete: estimate written to {self.path}")


def estimator_layer(ctx):
    """A private dry-run layer, so the run's usage.json is not filled with the sampled estimates."""
    from refusalbench.llm import LLMLayer

    return LLMLayer(ctx.cfg.cache, run_dir=None, dry_run=True, progress=False)


def _spread(items: list, k: int) -> list:
    if len(items) <= k:
        return list(items)
    step = len(items) / k
    return [items[int(i * step)] for i in range(k)]


def _measure(layer, model_cfg, role: str, n_calls: int, prompts: list[tuple[str, str, int]]) -> dict:
    """Scale the layer's dry-run figures for `prompts` (text, template version, output tokens) to `n_calls`."""
    out = {"calls": n_calls, "sampled_calls": len(prompts), "input_tokens": None, "output_tokens": None, "cost_usd": None}
    if not n_calls or not prompts:
        return out
    from refusalbench.llm import CallSpec

    specs = [CallSpec(key=f"estimate-{role}-{i}", messages=[{"role": "user", "content": text}], template_version=version,
                      expected_output_tokens=expected) for i, (text, version, expected) in enumerate(prompts)]
    results = layer.run(model_cfg, specs, role=role, desc=f"estimate {role} {model_cfg.id}")
    scale = n_calls / len(results)
    for field in ("input_tokens", "output_tokens", "cost_usd"):
        values = [getattr(c, field) for c in results]
        if field == "output_tokens":
            values = [v if v is not None else s.expected_output_tokens for v, s in zip(values, specs)]
        known = [v for v in values if v is not None]
        if len(known) == len(values):
            total = sum(known) * scale
            out[field] = round(total, 4) if field == "cost_usd" else int(round(total))
    return out


def _prompts(rows: list, build: Callable[[Any], tuple[str, str, int]], what: str, notes: list[str]) -> list:
    try:
        return [build(r) for r in rows]
    except Exception as exc:  # another stage's prompt builder: report, still count the calls
        notes.append(f"{what}: prompts could not be rendered for token counts ({exc})")
        return []


def _task_row(task, multi: bool) -> dict:
    """A stand-in candidate row: the original item as its own perturbation."""
    base = task.base
    row = {"candidate_id": task.candidate_id, "source_id": task.source_id, "perturbation_class": task.perturbation_class,
           "intensity": task.intensity, "generator": task.generator, "original_query": base["query"],
           "original_answers": as_list(base["answers"]) or [], "perturbed_query": base["query"],
           "lever_selected": task.allowed_levers[0], "implementation_reasoning": "", "intensity_achieved": task.intensity}
    if multi:
        passages = as_list(base["passages"])
        row.update(original_passages=passages, perturbed_passages=passages, signal_indices=as_list(base["signal_indices"]),
                   noise_indices=as_list(base["noise_indices"]) or [], reference_answer=base.get("reference_answer"),
                   original_context="\n\n".join(map(str, passages)), perturbed_context="\n\n".join(map(str, passages)), grounding=passages)
    else:
        row.update(original_context=base["context"], perturbed_context=base["context"])
    return row


def _downstream(ctx, layer, rows: list[dict], per_generator_counts: dict[str, int], multi: bool, notes: list[str]) -> dict:
    """Evaluation and judge sections (when those stages are in the pipeline)."""
    cfg = ctx.cfg
    stages, sections = set(cfg.pipeline.stages), {}
    n_bench = sum(min(cfg.select.per_generator, n) for n in per_generator_counts.values())
    if cfg.evaluate.limit is not None:
        n_bench = min(n_bench, cfg.evaluate.limit)
    n_calls = n_bench * cfg.evaluate.replicates
    sample = [dict(r, id=r["candidate_id"]) for r in _spread(rows, SAMPLE)]
    if "evaluate" in stages:
        from refusalbench.stages import evaluate as ev

        model_cfg = dataclasses.replace(cfg.model, reasoning=cfg.reasoning)
        expected = ev.ANSWER_TOKENS_ESTIMATE + (cfg.reasoning.budget_tokens or 0)
        version = ev.template_name(multi, cfg.evaluate.prompt_variant)
        prompts = _prompts(sample, lambda r: (ev.build_prompt(r, multi, cfg.evaluate.prompt_variant), version, expected), "evaluation", notes)
        sections["evaluation"] = {cfg.model.id: _measure(layer, model_cfg, "evaluated", n_calls, prompts)}
    if "judge" in stages and cfg.judge.kind == "llm" and cfg.judge.model is not None:
        from refusalbench.stages import judge as jd

        def build(r):
            name, text, _ = jd.judge_prompt(r, STAND_IN_ANSWER, multi)
            return text, name, JUDGE_OUTPUT_TOKENS

        prompts = _prompts(sample, build, "judge", notes)
        sections["judge"] = {cfg.judge.model.id: _measure(layer, cfg.judge.model, "judge", n_calls, prompts)}
    return sections


def _verification(ctx, layer, rows: list[dict], n_candidates: int, catalogue, multi: bool, notes: list[str]) -> dict:
    from refusalbench.stages import verify as vf

    section = {}
    sample = _spread(rows, SAMPLE)
    for key, model_cfg in ctx.cfg.verifiers.models.items():
        if model_cfg.backend == vf.STRUCTURAL:
            section[key] = {"calls": 0, "sampled_calls": 0, "input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0}
            continue
        version = vf.prompt_version(model_cfg, multi, catalogue)
        prompts = _prompts(sample, lambda r: (vf.verifier_prompt(r, catalogue, multi), version, vf.VERIFIER_OUTPUT_TOKENS),
                           "verification", notes)
        section[key] = _measure(layer, vf.verifier_model(model_cfg, ctx.cfg.verifiers), "verifier", n_candidates, prompts)
    return section


def _finish(ctx, report: dict) -> tuple[dict, Path]:
    totals = {"calls": 0, "input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0}
    unknown = set()
    for stage, models in report["stages"].items():
        report["calls"][stage] = sum(m["calls"] for m in models.values())
        for m in models.values():
            totals["calls"] += m["calls"]
            for field in ("input_tokens", "output_tokens", "cost_usd"):
                if m[field] is None and m["calls"]:
                    unknown.add(field)
                elif m[field] is not None:
                    totals[field] += m[field]
    for field in unknown:
        totals[field] = None
    report["totals"] = totals
    path = ctx.run_dir / "estimate.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2))
    ctx.outputs["estimate"] = str(path)
    log.info("dry-run estimate: %s calls, %s input and %s output tokens, cost %s (details in %s)", _fmt(totals["calls"]),
             _fmt(totals["input_tokens"]), _fmt(totals["output_tokens"]), _fmt(totals["cost_usd"], True), path)
    print(format_table(report))
    return report, path


def estimate_run(ctx, tasks: list, todo: list, catalogue, multi: bool) -> tuple[dict, Path]:
    """Estimate for generate → check → verify → select (→ evaluate → judge) from the generation tasks."""
    from refusalbench.prompts import render
    from refusalbench.stages.generate import PROGRAMMATIC, expected_output_tokens, generation_model
    from refusalbench.generation.tasks import generator_template, prompt_variables

    cfg, notes = ctx.cfg, ["re-asks after invalid replies are not counted"]
    layer = estimator_layer(ctx)
    gen_section, per_gen = {}, {}
    for key, model_cfg in cfg.generators.models.items():
        mine = [t for t in todo if t.generator == key]
        per_gen[key] = sum(t.generator == key for t in tasks)
        if model_cfg.backend == PROGRAMMATIC:
            gen_section[key] = {"calls": 0, "sampled_calls": 0, "input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0}
            continue
        gen_cfg = generation_model(model_cfg, cfg.generators)
        prompts = [(render(generator_template(multi), **prompt_variables(t, catalogue, multi)), t.prompt_version,
                    expected_output_tokens(t.base, multi, gen_cfg)) for t in _spread(mine, SAMPLE)]
        gen_section[key] = _measure(layer, gen_cfg, "generator", len(mine), prompts)
    rows = [_task_row(t, multi) for t in _spread(tasks, SAMPLE)]
    report = {"dry_run": True, "base_items": len({t.source_id for t in tasks}), "multi_passage": multi,
              "candidates": len(tasks), "pending_generation_tasks": len(todo), "calls": {}, "notes": notes,
              "stages": {"generation": gen_section}}
    if "verify" in cfg.pipeline.stages:
        report["stages"]["verification"] = _verification(ctx, layer, rows, len(tasks), catalogue, multi, notes)
    report["stages"].update(_downstream(ctx, layer, rows, per_gen, multi, notes))
    layer.close()
    return _finish(ctx, report)


def estimate_verify_onwards(ctx, checked_rows: list[dict], catalogue, multi: bool) -> tuple[dict, Path]:
    """Estimate for verify (→ evaluate → judge) from the checked candidates of an earlier run."""
    per_gen: dict[str, int] = {}
    for r in checked_rows:
        per_gen[r["generator"]] = per_gen.get(r["generator"], 0) + 1
    notes: list[str] = []
    layer = estimator_layer(ctx)
    report = {"dry_run": True, "candidates": len(checked_rows), "multi_passage": multi, "calls": {}, "notes": notes,
              "stages": {"verification": _verification(ctx, layer, checked_rows, len(checked_rows), catalogue, multi, notes)}}
    rows = [dict(r, grounding=as_list(r.get("perturbed_passages"))) for r in checked_rows]
    report["stages"].update(_downstream(ctx, layer, rows, per_gen, multi, notes))
    layer.close()
    return _finish(ctx, report)


def _fmt(value: Optional[float], money: bool = False) -> str:
    if value is None:
        return "?"
    return f"${value:,.2f}" if money else f"{int(value):,}"


def format_table(report: dict) -> str:
    """A short fixed-width table: one line per (stage, model), then the totals."""
    lines = [f"{'stage':<13}{'model':<24}{'calls':>9}{'input tok':>14}{'output tok':>13}{'cost':>12}"]
    for stage, models in report["stages"].items():
        for name, m in models.items():
            lines.append(f"{stage:<13}{name[:23]:<24}{_fmt(m['calls']):>9}{_fmt(m['input_tokens']):>14}"
                         f"{_fmt(m['output_tokens']):>13}{_fmt(m['cost_usd'], True):>12}")
        if len(models) > 1:
            lines.append(f"{'':<13}{'(' + stage + ' calls)':<24}{_fmt(report['calls'][stage]):>9}")
    t = report["totals"]
    lines.append(f"{'total':<37}{_fmt(t['calls']):>9}{_fmt(t['input_tokens']):>14}{_fmt(t['output_tokens']):>13}"
                 f"{_fmt(t['cost_usd'], True):>12}")
    return "\n".join(lines)
