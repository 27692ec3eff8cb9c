"""The one entry point: `refusalbench [overrides]` (and `python -m refusalbench`).

Validates the composed config, then runs the configured pipeline stages in their canonical
order inside Hydra's run directory; with `run.dry_run=true` it runs the planner instead of the
stages (an estimate of calls, tokens and cost; no model call, no stage table, no MLflow run).
User mistakes end the run with one clear paragraph and exit status 2; nothing already written is lost.
"""

from __future__ import annotations

import dataclasses
import gc
import logging
import os
import sys
import typing
from pathlib import Path
from typing import TYPE_CHECKING

import hydra
from hydra.core.hydra_config import HydraConfig
from hydra.errors import HydraException
from hydra.types import RunMode
from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

from refusalbench import sweep_outcome, termination, tracking, user_errors
from refusalbench.config import RefusalBenchConfig, register_configs
from refusalbench.errors import UserError
from refusalbench.overrides import check_command_line
from refusalbench.paths import CONF_DIR
from refusalbench.run_mode import compose_once
from refusalbench.stages import STAGE_ORDER, load_stage
from refusalbench.tracking.callback import DONE_MARKER
from refusalbench.tracking.job_identity import job_label
from refusalbench.tracking.mlflow_run import read_sweep_state
from refusalbench.tracking.records import discard_new_record
from refusalbench.ui_hint import absolute_store_uri, mlflow_ui_hint

if TYPE_CHECKING:
    from refusalbench.context import RunContext

log = logging.getLogger("refusalbench")

register_configs()


def validate(cfg: DictConfig) -> RefusalBenchConfig:
    """Turn the composed DictConfig into typed dataclasses, running every `__post_init__` check."""
    missing = sorted(OmegaConf.missing_keys(cfg))
    if missing:
        raise UserError(
            f"Missing required configuration value(s): {', '.join(missing)}. "
            f"Set them on the command line, e.g. {missing[0]}=VALUE."
        )
    unknown = unknown_keys(cfg)
    if unknown:
        raise UserError(
            f"Unknown configuration key(s): {', '.join(unknown)}. RefusalBench accepts only the keys of its "
            f"schema (refusalbench/config.py); check the spelling (a '+' override cannot add new keys)."
        )
    try:
        obj = OmegaConf.to_object(cfg)
    except OmegaConfBaseException as exc:
        cause = exc.__cause__ if isinstance(exc.__cause__, UserError) else None
        key = getattr(exc, "full_key", None)
        where = f" (key: {key})" if key else ""
        raise UserError(f"Invalid configuration{where}: {cause or exc}".replace("\n", " ")) from exc
    assert isinstance(obj, RefusalBenchConfig)
    return obj


def unknown_keys(cfg: DictConfig) -> list[str]:
    """Keys of the composed config that the schema does not define (e.g. added with a `+` override)."""

    def dataclass_of(tp):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if typing.get_origin(tp) is typing.Union and len(args) == 1:
            tp = args[0]
        return tp if dataclasses.is_dataclass(tp) else None

    def walk(node: DictConfig, schema: type, prefix: str) -> list[str]:
        hints = typing.get_type_hints(schema)
        out = []
        for key in node.keys():
            path = f"{prefix}{key}"
            if key not in hints:
                out.append(path)
                continue
            child = node._get_node(key)
            if not isinstance(child, DictConfig) or child._is_none() or child._is_missing():
                continue
            tp = hints[key]
            if dataclass_of(tp):
                out += walk(child, dataclass_of(tp), path + ".")
            elif typing.get_origin(tp) is dict and dataclass_of(typing.get_args(tp)[1]):
                for sub in child.keys():
                    grand = child._get_node(sub)
                    if isinstance(grand, DictConfig) and not grand._is_none():
                        out += walk(grand, dataclass_of(typing.get_args(tp)[1]), f"{path}.{sub}.")
        return out

    return walk(cfg, RefusalBenchConfig, "")


def ordered_stages(names: list[str]) -> list[str]:
    return [s for s in STAGE_ORDER if s in names]


def run_pipeline(cfg: RefusalBenchConfig, run_dir: Path) -> RunContext:
    """Run the configured stages in order; returns the context (with the paths written)."""
    from refusalbench.context import RunContext  # pandas and the stages' libraries: only once a run starts

    ctx = RunContext(cfg=cfg, run_dir=run_dir)
    modules = [(name, load_stage(name)) for name in ordered_stages(cfg.pipeline.stages)]
    finished: list[str] = []
    name = ""
    try:
        for name, module in modules:
            log.info("stage %s: start", name)
            module.run(ctx)
            log.info("stage %s: done", name)
            finished.append(name)
    except KeyboardInterrupt:
        raise RunInterrupted(interrupted_note(ctx, finished, name)) from None
    finally:
        ctx.close()
    return ctx


class RunInterrupted(Exception):
    """Ctrl-C during a stage; the message says what finished and how to resume."""


def interrupted_note(ctx: RunContext, finished: list[str], stage: str) -> str:
    """One line: the stages done, the model calls finished (all cached), how to resume."""
    done = f"stages done: {', '.join(finished)}; " if finished else ""
    calls = ""
    if ctx._llm is not None:
        total = ctx._llm.usage_summary()["total"]
        calls = (
            f"{total['calls'] - total['failed']} model calls finished and cached ({total['cached']} were cached "
            "before); "
        )
    return (
        f"interrupted during stage {stage}: {done}{calls}run the same command again to resume "
        f"(finished calls come from the cache). Run directory: {ctx.run_dir}"
    )


#: outputs named in the end-of-run summary, in this order; the rest are counted
HEADLINE_OUTPUTS = ("report", "metrics", "benchmark", "benchmark_released", "labels", "estimate")


def print_summary(ctx: RunContext, tracker=None) -> None:
    lines = [f"RefusalBench run finished. Run directory (all tables and outputs): {ctx.run_dir}"]
    for label in HEADLINE_OUTPUTS:
        if label in ctx.outputs:
            lines.append(f"  {label}: {ctx.outputs[label]}")
    others = len(set(ctx.outputs) - set(HEADLINE_OUTPUTS))
    if others:
        lines.append(f"  and {others} more table(s) in the run directory")
    if tracker is not None:
        lines.append(
            f"  MLflow run: {tracker.run_id} (experiment {ctx.cfg.tracking.experiment!r}, "
            f"store {absolute_store_uri(tracker.uri)})"
        )
        lines.append(f"  Open the MLflow UI: {mlflow_ui_hint(tracker.uri)}")
    print("\n".join(lines))


@hydra.main(config_path=str(CONF_DIR), config_name="config", version_base="1.3")
def _hydra_main(cfg: DictConfig) -> None:
    hydra_cfg = HydraConfig.get()
    run_dir = Path(hydra_cfg.runtime.output_dir)
    multirun = hydra_cfg.mode == RunMode.MULTIRUN
    if multirun and (run_dir / DONE_MARKER).exists():
        log.info("skipping completed job %s (delete its %s marker to run it again)", run_dir, DONE_MARKER)
        discard_new_record(run_dir, hydra_cfg.output_subdir)
        return
    tracker = None
    status = "FAILED"
    try:
        typed = validate(cfg)
        if typed.run.preflight:
            from refusalbench.preflight import preflight

            preflight(typed, run_dir=run_dir)  # keys, endpoints, parameters, input files: before tracking
        if typed.run.dry_run:
            dry_run(typed, run_dir)
            if multirun:  # the sweep's summary counts it as planned, not as a failed job
                (run_dir / sweep_outcome.PLANNED_MARKER).write_text("dry run: estimate.json only\n")
            return
        resolved = OmegaConf.to_container(cfg, resolve=True, enum_to_str=True)
        sweep_dir = Path(hydra_cfg.sweep.dir) if multirun else None
        tracker = tracking.start_job(
            typed, resolved, run_dir, run_name=_run_name(hydra_cfg, typed), sweep_dir=sweep_dir
        )
        ctx = run_pipeline(typed, run_dir)
        status = "FINISHED"
    except (RunInterrupted, KeyboardInterrupt) as exc:
        status = "KILLED"
        print(
            f"refusalbench: {str(exc) or 'interrupted before the first stage started; nothing to resume'}",
            file=sys.stderr,
        )
        sys.exit(130)
    except UserError as exc:
        user_errors.print_error(exc)
        if multirun:  # one failed job must not stop the sweep; it has no DONE marker, so a re-run retries it
            sweep_outcome.record_failure(run_dir, str(exc))
            return
        if tracker is None:  # a config or data mistake: leave no empty run directory behind
            user_errors.remove_unused_run_dir(run_dir, stop_at=Path.cwd())
        sys.exit(user_errors.EXIT_CODE)
    except termination.Terminated:  # SIGTERM: mark the run KILLED on the way out (main() reports it)
        status = "KILLED"
        raise
    finally:
        if tracker is not None:
            tracking.finish_job(tracker, run_dir, status, record_dir=run_dir / hydra_cfg.output_subdir)
    sweep_outcome.clear_failure(run_dir)
    (run_dir / DONE_MARKER).write_text("completed\n")  # last: a re-run of the sweep skips this job
    print_summary(ctx, tracker)


def dry_run(cfg: RefusalBenchConfig, run_dir: Path) -> dict:
    """The planner instead of the stages: print and write the estimate; nothing is called or tracked."""
    from refusalbench.planning import format_table, plan_run

    report, path = plan_run(cfg, run_dir)
    print(format_table(report))
    print(f"refusalbench: dry run: estimate written to {path} (no model was called, no stage ran)")
    return report


def _run_name(hydra_cfg, cfg: RefusalBenchConfig) -> str:
    """What the run is about: the model (and reasoning budget) it evaluates or judges, else the file it
    scores or the generation stages it runs; in a sweep also the job's other swept settings (`seed=3`)."""
    if hydra_cfg.mode == RunMode.MULTIRUN:
        swept = read_sweep_state(Path(hydra_cfg.sweep.dir)).get("swept_keys", [])
        return sweep_job_name(cfg, hydra_cfg.overrides.task, swept)
    return job_label(*run_subject(cfg))


def sweep_job_name(cfg: RefusalBenchConfig, overrides, swept) -> str:
    """A sweep job's name: its subject, then the swept settings the subject does not already say."""
    subject, budget = run_subject(cfg)
    if subject.startswith("score "):  # the file is the subject: do not repeat its path
        swept = [k for k in swept if k != "score.predictions"]
    return job_label(subject, budget, overrides, swept)


def run_subject(cfg: RefusalBenchConfig) -> tuple[str, object]:
    """(name, reasoning budget) for the run's label; a run that calls no evaluated model is not named after one."""
    stages = ordered_stages(cfg.pipeline.stages)
    if "score" in stages and cfg.score.predictions and "evaluate" not in stages:
        return f"score {Path(cfg.score.predictions).name}", None
    if {"evaluate", "judge", "score", "report"} & set(stages):
        return cfg.model.id, cfg.reasoning.budget_tokens
    source = Path(cfg.dataset.path).name if cfg.dataset.path else getattr(cfg.dataset.kind, "value", cfg.dataset.kind)
    return f"{'+'.join(stages)} ({source})", None


FULL_ERROR_ENV = "HYDRA_FULL_ERROR"


def _hydra_main_raising() -> None:
    """`_hydra_main` with Hydra's errors raised to the caller instead of printed as text with status 1."""
    before = os.environ.get(FULL_ERROR_ENV)
    os.environ[FULL_ERROR_ENV] = "1"
    try:
        _hydra_main()
    finally:
        if before is None:
            os.environ.pop(FULL_ERROR_ENV, None)
        else:
            os.environ[FULL_ERROR_ENV] = before


def main() -> None:
    """Console-script entry point: exit 0 on success, 2 on a user mistake, 1 when sweep jobs failed,
    143 when stopped by SIGTERM. The process ends when it returns."""
    try:
        _main()
    finally:
        # Everything the run wrote is closed by now. The interpreter's final garbage collection would walk
        # every object imported or made (MLflow alone brings ~280,000): 0.5-0.8 s of CPU that frees only
        # memory the OS takes back anyway. Exit handlers still run.
        gc.freeze()


def _main() -> None:
    termination.install()
    try:
        check_command_line(sys.argv[1:])
    except UserError as exc:
        user_errors.print_error(exc)
        sys.exit(user_errors.EXIT_CODE)
    try:
        with compose_once(sys.argv[1:]):
            _hydra_main_raising()
    except (HydraException, OmegaConfBaseException) as exc:  # composing the config (a preset, a dict key)
        if os.environ.get(FULL_ERROR_ENV) == "1":
            raise
        user_errors.print_error(UserError(user_errors.composition_error_text(exc)))
        sys.exit(user_errors.EXIT_CODE)
    except termination.Terminated as exc:
        termination.run_cleanups()
        print(
            f"refusalbench: stopped ({exc}); tracked runs are marked KILLED and finished work is kept, "
            "so running the same command again resumes.",
            file=sys.stderr,
        )
        sys.exit(termination.EXIT_CODE)
    outcome = sweep_outcome.last_outcome
    if outcome is not None and not outcome.ok:
        print(f"refusalbench: {outcome.summary()}", file=sys.stderr)
        sys.exit(sweep_outcome.EXIT_CODE)


if __name__ == "__main__":
    main()
