"""Stage `generate`: base item x 18 (class, intensity) cells x generator → `candidates.parquet`.

Each LLM generator gets the generator template with the cell's levers (all of them for
`llm_choice`, the assigned one for `round_robin`/`fixed`); the reply is parsed leniently,
validated (fields typed, `lever_selected` in the allowed list, passage labels that exist) and
re-asked once with the error; a reply still invalid is recorded (`generation_ok=False`).
Programmatic generators call `refusalbench.perturb.generate_programmatic`. The expected behaviour
is computed by the rule (taxonomy.ground_truth); the model's echo is kept in
`model_expected_echo` and `expected_echo_disagrees`. Resumable: finished candidates (ok, or a
recorded invalid reply) are kept, only missing ones, call failures and programmatic rows made by
other generator rules (`generator_code`) are redone, and the table is rewritten after every chunk.
"""

from __future__ import annotations

import functools
import inspect
import logging
from typing import Optional

import pandas as pd

from refusalbench import taxonomy as tx
from refusalbench.context import RunContext
from refusalbench.errors import UserError
from refusalbench.generation.asking import CALL, PARSE, Answer, Ask, ask_json
from refusalbench.generation.base_table import load_base_table
from refusalbench.generation.fatal import FIRST_BATCH, batches, fatal_error, stop_stage
from refusalbench.generation.ids import seed_for
from refusalbench.generation.multipassage import EditError, apply_edits, label_map
from refusalbench.generation.parsing import ParseError, match_lever, parse_generation_multi, parse_generation_single
from refusalbench.generation.tasks import (
    PROGRAMMATIC,
    Task,
    expected_output_tokens,
    generation_model,
    generation_tasks,
    generator_template,
    perturb_module,
    prompt_variables,
    run_catalogue,
)
from refusalbench.rows import as_list, is_missing, plain, plain_row

log = logging.getLogger(__name__)

CHUNK = 256  # tasks per layer batch; the table is rewritten after each
NOT_APPLICABLE = "not_applicable"  # failure kind: no programmatic lever applies to the item
LEVER_ERROR = "lever_error"  # failure kind: a programmatic lever raised an unexpected error on this item (a bug)


# --- turning a reply into candidate fields -----------------------------------------------------


def _finish(parsed: dict, task: Task, multi: bool) -> dict:
    """Apply multi-passage edits (raising ParseError so the model is re-asked) and fill fields."""
    out = dict(parsed)
    if multi:
        base = task.base
        try:
            passages, edited = apply_edits(
                as_list(base["passages"]),
                as_list(base["signal_indices"]),
                as_list(base["noise_indices"]),
                out.pop("passage_edits"),
            )
        except EditError as exc:
            raise ParseError(f"Invalid output: {exc}.") from None
        out["perturbed_passages"], out["edited_passages"] = passages, edited
        out["perturbed_context"] = "\n\n".join(passages)
    return out


def _parser(task: Task, multi: bool):
    parse = parse_generation_multi if multi else parse_generation_single
    return lambda text: _finish(parse(text, task.allowed_levers), task, multi)


def _programmatic_fields(out: dict, task: Task, multi: bool, allowed: list[str]) -> dict:
    """Normalise `generate_programmatic` output to the parsed-reply fields."""
    lever = match_lever(str(out.get("lever_selected") or ""), allowed)
    if lever is None:
        raise ValueError(f"programmatic generator chose lever {out.get('lever_selected')!r}, not one of {allowed}")
    fields = {
        "perturbed_query": str(out["perturbed_query"]),
        "lever_selected": lever,
        "implementation_reasoning": out.get("implementation_reasoning"),
        "intensity_achieved": out.get("intensity_achieved", task.intensity),
        "model_expected_echo": None,
    }
    if not multi:
        fields["perturbed_context"] = str(out["perturbed_context"])
        return fields
    given = plain(out.get("perturbed_passages"))
    if given and all(isinstance(p, dict) for p in given):
        return _finish({**fields, "passage_edits": given}, task, True)
    base_passages = as_list(task.base["passages"])
    if not isinstance(given, list) or len(given) != len(base_passages):
        raise ValueError("programmatic generator returned a perturbed passage list of the wrong length")
    labels = _labels(task)
    stray = sorted(set(i for i, (a, b) in enumerate(zip(base_passages, given)) if a != b) - set(labels.values()))
    if stray:
        raise ValueError(f"programmatic generator edited passages {stray}, which are neither signal nor noise")
    edits = [{"passage": lab, "perturbed_text": given[i]} for lab, i in labels.items() if given[i] != base_passages[i]]
    return _finish({**fields, "passage_edits": edits}, task, True)


def _labels(task: Task) -> dict[str, int]:
    return label_map(as_list(task.base["signal_indices"]), as_list(task.base["noise_indices"]))


def record(
    task: Task,
    model_cfg,
    mode: str,
    multi: bool,
    fields: Optional[dict],
    error: Optional[str],
    failure_kind: Optional[str],
    usage: dict,
) -> dict:
    """One candidates.parquet row."""
    base = task.base
    truth = tx.ground_truth(task.perturbation_class, task.intensity)
    fields = fields or {}
    echo = fields.get("model_expected_echo")
    row = {
        "candidate_id": task.candidate_id,
        "source_id": task.source_id,
        "perturbation_class": task.perturbation_class,
        "intensity": task.intensity,
        "expected_rag_behavior": truth,
        "generator": task.generator,
        "generator_model_id": model_cfg.id,
        "generator_model_full": model_cfg.name,
        "generator_backend": model_cfg.backend,
        "lever_assignment": mode,
        "lever_assigned": task.lever_assigned,
        "lever_selected": fields.get("lever_selected"),
        "original_query": str(base["query"]),
        "original_answers": [str(a) for a in as_list(base["answers"])],
        "perturbed_query": fields.get("perturbed_query"),
        "perturbed_context": fields.get("perturbed_context"),
        "implementation_reasoning": fields.get("implementation_reasoning"),
        "intensity_achieved": fields.get("intensity_achieved"),
        "model_expected_echo": echo,
        "expected_echo_disagrees": bool(echo is not None and echo.strip() != truth),
        "generation_ok": error is None,
        "generation_error": error,
        "generation_failure_kind": failure_kind,
        "prompt_version": task.prompt_version,
    }
    if multi:
        passages = [str(p) for p in as_list(base["passages"])]
        row.update(
            original_context="\n\n".join(passages),
            original_passages=passages,
            perturbed_passages=fields.get("perturbed_passages"),
            edited_passages=fields.get("edited_passages"),
            signal_indices=[int(i) for i in as_list(base["signal_indices"])],
            noise_indices=[int(i) for i in as_list(base["noise_indices"])],
            relevant=plain(base.get("relevant")),
            reference_answer=base.get("reference_answer"),
            domain=base.get("domain"),
        )
    else:
        row["original_context"] = str(base["context"])
    if row["expected_echo_disagrees"]:
        log.debug("candidate %s: model echoed %r, rule says %r", task.candidate_id, echo, truth)
    row.update(usage)
    return row


# --- running -----------------------------------------------------------------------------------


def _run_llm(ctx: RunContext, model_cfg, tasks: list[Task], catalogue, multi: bool, mode: str) -> list[dict]:
    from refusalbench.prompts import render

    template = generator_template(multi, ctx.cfg.generators.prompts)
    asks = [
        Ask(
            key=t.candidate_id,
            prompt=render(template, **prompt_variables(t, catalogue, multi)),
            template_version=t.prompt_version,
            parse=_parser(t, multi),
            expected_output_tokens=expected_output_tokens(t.base, multi, model_cfg),
        )
        for t in tasks
    ]
    answers: list[Answer] = ask_json(
        ctx.llm,
        model_cfg,
        asks,
        role="generator",
        desc=f"generate {tasks[0].generator}",
        max_reasks=ctx.cfg.generate.max_parse_retries,
    )
    return [
        record(t, model_cfg, mode, multi, a.value, a.error, a.failure_kind, a.usage("gen_"))
        for t, a in zip(tasks, answers)
    ]


def _call_programmatic(fn, t: Task, seed: int, catalogue, multi: bool, pool, avoid: list = ()) -> dict:
    """Call with the assigned lever; when it does not apply to this item, let the generator choose (seeded)."""
    params = inspect.signature(fn).parameters
    kwargs = {"catalogue": catalogue, "multi_passage": multi}
    if pool is not None and "pool" in params:
        kwargs["pool"] = pool
    if avoid and "avoid" in params:
        kwargs["avoid"] = avoid
    row = plain_row(t.base)
    if t.lever_assigned and "lever" in params:
        try:
            return fn(row, t.perturbation_class, t.intensity, seed=seed, lever=t.lever_assigned, **kwargs)
        except ValueError as exc:
            log.debug("candidate %s: assigned lever not applicable (%s); generator chooses", t.candidate_id, exc)
    return fn(row, t.perturbation_class, t.intensity, seed=seed, **kwargs)


def programmatic_seed(run_seed: int, t: Task) -> int:
    """The seed of a programmatic item: the run's seed and the item's question, cell, generator and assigned lever.
    Not the candidate id, which holds the catalogue's hash: an edit to any catalogue entry would redraw the seeded
    choices (which lever first, which rival value) of every item, and judged items would stop being made."""
    return seed_for(run_seed, t.source_id, t.perturbation_class, t.intensity, t.generator, t.lever_assigned) % (2**31)


def _programmatic_row(
    ctx: RunContext, fn, t: Task, model_cfg, catalogue, multi: bool, mode: str, pool, avoid: list = ()
) -> dict:
    seed = programmatic_seed(ctx.cfg.seed, t)
    try:
        out = _call_programmatic(fn, t, seed, catalogue, multi, pool, avoid)
        allowed = catalogue.names(t.perturbation_class, t.intensity)
        fields, error, kind = _programmatic_fields(out, t, multi, allowed), None, None
    except (ValueError, KeyError, UserError) as exc:
        fields, error, kind = None, f"programmatic generation failed: {exc}", NOT_APPLICABLE
    except Exception as exc:  # noqa: BLE001 - one item's lever bug must not end the run: recorded, counted, logged
        log.warning("programmatic lever error on %s: %s: %s", t.candidate_id, type(exc).__name__, exc)
        fields, error, kind = None, f"programmatic lever error ({type(exc).__name__}): {exc}", LEVER_ERROR
    return record(
        t, model_cfg, mode, multi, fields, error, kind, {"gen_attempts": 0, "generator_code": _rules_fingerprint()}
    )


def _rules_fingerprint() -> str:
    return perturb_module().code_fingerprint()


def _perturbed_texts(row: dict) -> tuple:
    passages = row.get("perturbed_passages")
    texts = [row.get("perturbed_context")] if is_missing(passages) else as_list(passages)
    return str(row.get("perturbed_query")), tuple(str(p) for p in texts)


def distinct_intensities(
    ctx: RunContext, model_cfg, tasks: list[Task], rows: dict[str, dict], catalogue, multi: bool, mode: str, pool=None
) -> int:
    """Regenerate programmatic items whose text equals another intensity's of the same question and class
    (avoiding those texts; declined when nothing else applies). Returns how many were regenerated."""
    fn = perturb_module().generate_programmatic
    groups: dict[tuple, list[Task]] = {}
    for t in tasks:
        if rows.get(t.candidate_id, {}).get("generation_ok"):
            groups.setdefault((t.source_id, t.perturbation_class, t.generator), []).append(t)
    redone = 0
    for group in groups.values():
        for i, t in enumerate(group):
            others = [_perturbed_texts(rows[o.candidate_id]) for o in group[:i]]
            if _perturbed_texts(rows[t.candidate_id]) in others:
                rows[t.candidate_id] = _programmatic_row(ctx, fn, t, model_cfg, catalogue, multi, mode, pool, others)
                redone += 1
    return redone


def _run_programmatic(
    ctx: RunContext, model_cfg, tasks: list[Task], catalogue, multi: bool, mode: str, pool=None
) -> list[dict]:
    fn = perturb_module().generate_programmatic
    rows = [_programmatic_row(ctx, fn, t, model_cfg, catalogue, multi, mode, pool) for t in tasks]
    n_other = sum(r["generation_ok"] and r["lever_assigned"] not in (None, r["lever_selected"]) for r in rows)
    if n_other:
        log.info("programmatic: %d item(s) got another lever than assigned (the assigned one did not apply)", n_other)
    return rows


def _existing(ctx: RunContext, wanted: set[str]) -> dict[str, dict]:
    """Finished rows of a previous run (call failures are redone); rows of other tasks are dropped."""
    if not ctx.has_table("candidates"):
        return {}
    old = ctx.read_table("candidates")
    keep = old[old["candidate_id"].isin(wanted) & (old["generation_ok"] | (old["generation_failure_kind"] != CALL))]
    if (keep["generator_backend"] == PROGRAMMATIC).any():
        code = keep["generator_code"] if "generator_code" in keep.columns else pd.Series(None, index=keep.index)
        stale = (keep["generator_backend"] == PROGRAMMATIC) & (code != _rules_fingerprint())
        if stale.any():
            log.info("generate: %d programmatic row(s) were made by other generator rules and are redone", stale.sum())
            keep = keep[~stale]
    if len(keep) < len(old):
        log.info("generate: %d earlier row(s) will be redone or no longer match the config", len(old) - len(keep))
    return {r["candidate_id"]: plain_row(r) for r in keep.to_dict(orient="records")}


def _write(ctx: RunContext, tasks: list[Task], rows: dict[str, dict]) -> pd.DataFrame:
    df = pd.DataFrame([rows[t.candidate_id] for t in tasks if t.candidate_id in rows])
    ctx.write_table("candidates", df)
    return df


def run(ctx: RunContext) -> None:
    cfg = ctx.cfg
    panel = cfg.generators
    catalogue = run_catalogue(cfg)
    base = load_base_table(cfg)
    ctx.write_table("base", base)
    tasks, multi = generation_tasks(cfg, base, catalogue)
    pool = None
    if any(m.backend == PROGRAMMATIC for m in panel.models.values()):
        pool = perturb_module().DistractorPool.from_base(base)
    rows = _existing(ctx, {t.candidate_id for t in tasks})
    todo = [t for t in tasks if t.candidate_id not in rows]
    log.info(
        "generate: %d tasks (%d base x cells x %d generators), %d already done, multi_passage=%s",
        len(tasks),
        len(base),
        len(panel.models),
        len(tasks) - len(todo),
        multi,
    )
    new_call_failures, new_calls, first_error = 0, 0, None
    for key, model_cfg in panel.models.items():
        runner = functools.partial(_run_programmatic, pool=pool) if model_cfg.backend == PROGRAMMATIC else _run_llm
        gen_cfg = generation_model(model_cfg, panel)
        mine = [t for t in todo if t.generator == key]
        first = CHUNK if model_cfg.backend == PROGRAMMATIC else min(CHUNK, FIRST_BATCH)
        for batch in batches(mine, CHUNK, first=first):
            errors = []
            for row in runner(ctx, gen_cfg, batch, catalogue, multi, panel.lever_assignment):
                rows[row["candidate_id"]] = row
                if model_cfg.backend != PROGRAMMATIC:
                    new_calls += 1
                    failed = row["generation_failure_kind"] == CALL
                    errors.append(row["generation_error"] if failed else None)
                    if failed:
                        new_call_failures += 1
                        first_error = first_error or row["generation_error"]
            _write(ctx, tasks, rows)
            fatal = fatal_error(errors)
            if fatal:
                raise stop_stage("generate", "generator", model_cfg.id, len(errors), fatal, "candidates.parquet")
        if model_cfg.backend == PROGRAMMATIC:
            redone = distinct_intensities(
                ctx,
                gen_cfg,
                [t for t in tasks if t.generator == key],
                rows,
                catalogue,
                multi,
                panel.lever_assignment,
                pool,
            )
            if redone:
                log.info("programmatic: %d item(s) regenerated to differ from another intensity's text", redone)
    df = _write(ctx, tasks, rows)
    _summarise(df)
    if new_calls and new_call_failures == new_calls:
        raise UserError(
            f"Every generation call failed ({new_calls} calls); the failures were recorded in "
            f"candidates.parquet and a rerun retries them. First error: {first_error}"
        )


def _summarise(df: pd.DataFrame) -> None:
    for gen, g in df.groupby("generator", sort=True):
        kinds = g["generation_failure_kind"]
        log.info(
            "generate %s: %d candidates, %d ok, %d invalid replies, %d call failures, %d not applicable, "
            "%d lever errors, %d ground-truth echoes disagree",
            gen,
            len(g),
            int(g["generation_ok"].sum()),
            int((kinds == PARSE).sum()),
            int((kinds == CALL).sum()),
            int((kinds == NOT_APPLICABLE).sum()),
            int((kinds == LEVER_ERROR).sum()),
            int(g["expected_echo_disagrees"].sum()),
        )
        declined = g[kinds == NOT_APPLICABLE].groupby(["perturbation_class", "intensity"]).size()
        if len(declined):
            log.info(
                "generate %s: declined (no lever gives a valid item) per cell: %s",
                gen,
                ", ".join(f"{c}/{i} {n}" for (c, i), n in declined.items()),
            )
