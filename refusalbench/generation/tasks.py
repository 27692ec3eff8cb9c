"""Generation tasks: base item x (class, intensity) cell x generator, with the lever assignment.

Lever assignment (`generators.lever_assignment`):
- ``llm_choice``: the prompt lists the cell's levers and the model picks one (the paper's method);
- ``round_robin``: one lever per task, balanced over the cell's levers across items: items are put
  in a seeded order per (generator, cell) and item k gets lever k mod n;
- ``fixed``: `generators.fixed_lever` only, in the cells that hold it.
"""

from __future__ import annotations

import dataclasses
import importlib
import logging
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable, Optional, Sequence

import pandas as pd

from refusalbench import taxonomy as tx
from refusalbench.config import Backend, LeverAssignment, PanelConfig, PromptStyle
from refusalbench.errors import UserError
from refusalbench.generation.ids import candidate_id, seed_for
from refusalbench.generation.multipassage import NOISE, SIGNAL, displayed
from refusalbench.rows import as_list, is_multi_passage_table, plain_row

log = logging.getLogger(__name__)

PROGRAMMATIC = Backend.programmatic.value
OUTPUT_TOKENS_OVERHEAD = 300  # output-token guess: reasoning + JSON keys on top of the rewritten text


@dataclass
class Task:
    candidate_id: str
    source_id: str
    perturbation_class: str
    intensity: str
    generator: str
    lever_assigned: Optional[str]  # None for llm_choice
    allowed_levers: list[str]
    prompt_version: str
    base: dict


def check_assignment(mode: str, fixed_lever: Optional[str], catalogue) -> list[tuple[str, str]]:
    """The cells to generate for this assignment mode; a UserError when the fixed lever is in no cell."""
    cells = tx.cells()
    if mode != LeverAssignment.fixed:
        return cells
    held = [(c, i) for c, i in cells if fixed_lever in catalogue.names(c, i)]
    if not held:
        raise UserError(
            f"generators.fixed_lever {fixed_lever!r} is not a lever of any (class, intensity) cell of the "
            f"catalogue; use a name exactly as listed in levers/*.yaml."
        )
    log.info("fixed lever %r: generating only its cell(s) %s", fixed_lever, held)
    return held


def _round_robin(
    source_ids: Sequence[str], levers: Sequence[str], seed: int, generator: str, cell: tuple[str, str]
) -> dict[str, str]:
    order = sorted(source_ids, key=lambda s: (seed_for(seed, "round_robin", generator, *cell, s), s))
    return {s: levers[k % len(levers)] for k, s in enumerate(order)}


def run_catalogue(cfg):
    """The run's lever catalogue: the base files and `levers_extra`, plus the programmatic
    generator's own lever files when a generator of the panel is programmatic."""
    from refusalbench.levers import load_catalogue

    extra = [str(p) for p in cfg.levers_extra]
    if any(m.backend == "programmatic" for m in cfg.generators.models.values()):
        try:
            from refusalbench.perturb import PROGRAMMATIC_LEVERS_FILES
        except ImportError:  # a substituted generator without lever files of its own
            PROGRAMMATIC_LEVERS_FILES = ()
        extra += [str(p) for p in PROGRAMMATIC_LEVERS_FILES if str(p) not in extra]
    return load_catalogue(extra_files=extra)


def build_tasks(
    base_rows: list[dict],
    generators: dict[str, str],
    catalogue,
    mode: str,
    fixed_lever: Optional[str],
    seed: int,
    rr_levers: Optional[dict[str, Callable[[str, str], list[str]]]] = None,
) -> list[Task]:
    """All tasks, in (generator, item, cell) order. `generators` maps panel key → prompt version.

    `rr_levers[key](cls, intensity)` gives the levers round robin cycles through for that
    generator (default: the cell's catalogue levers), e.g. the ones a programmatic generator implements.
    """
    cells = check_assignment(mode, fixed_lever, catalogue)
    ids = [str(r["source_id"]) for r in base_rows]
    tasks = []
    for gen, version in generators.items():
        rr: dict[tuple[str, str], dict[str, str]] = {}
        for cell in cells:
            levers = catalogue.names(*cell)
            if rr_levers and gen in rr_levers:
                levers = rr_levers[gen](*cell) or levers
            else:
                levers = [n for n in levers if not catalogue.get(*cell, n).programmatic] or levers
            if mode == "round_robin":
                rr[cell] = _round_robin(ids, levers, seed, gen, cell)
        for row, sid in zip(base_rows, ids):
            for cls, intensity in cells:
                names = catalogue.names(cls, intensity)
                if not (rr_levers and gen in rr_levers):  # model generators never see rule-only levers
                    names = [n for n in names if not catalogue.get(cls, intensity, n).programmatic] or names
                if mode == "llm_choice":
                    assigned, allowed = None, list(names)
                elif mode == "fixed":
                    assigned, allowed = fixed_lever, [fixed_lever]
                else:
                    assigned = rr[(cls, intensity)][sid]
                    allowed = [assigned]
                cid = candidate_id(sid, cls, intensity, gen, assigned or mode, version)
                tasks.append(Task(cid, sid, cls, intensity, gen, assigned, allowed, version, row))
    return tasks


def _answers(base: dict, multi: bool) -> list[str]:
    answers = [str(a) for a in as_list(base.get("answers")) if str(a).strip()]
    ref = base.get("reference_answer")
    if multi and isinstance(ref, str) and ref.strip():
        return [ref]
    return answers


def prompt_variables(task: Task, catalogue, multi: bool, levers: Optional[list] = None) -> dict[str, Any]:
    """Variables shared by the generator and verifier templates for one task."""
    cls, intensity, base = task.perturbation_class, task.intensity, task.base
    shown = levers if levers is not None else [catalogue.get(cls, intensity, n) for n in task.allowed_levers]
    out = {
        "perturbation_class": cls,
        "intensity": intensity,
        "target": tx.target(cls, multi),
        "original_query": str(base["query"]),
        "original_answers": _answers(base, multi),
        "levers": shown,
        "intensity_criterion": catalogue.intensity_criterion(cls, intensity),
        "ground_truth": tx.ground_truth(cls, intensity),
    }
    if multi:
        passages = [str(p) for p in as_list(base["passages"])]
        out["signal_passages"] = [p["text"] for p in displayed(passages, as_list(base["signal_indices"]), SIGNAL)]
        out["noise_passages"] = [p["text"] for p in displayed(passages, as_list(base["noise_indices"]), NOISE)]
        out["garage_strategy"] = catalogue.garage_strategy(cls)
    else:
        out["original_context"] = str(base["context"])
    return out


def _template(role: str, multi: bool, style: str) -> str:
    if multi:
        if style == PromptStyle.compact:
            log.debug("%s prompts: no compact variant for multi-passage data; using the full template", role)
        return f"{role}_garage"
    return f"{role}_nq_compact" if style == PromptStyle.compact else f"{role}_nq"


def generator_template(multi: bool, style: str = PromptStyle.full) -> str:
    """The generator template: per data shape and prompt style (compact exists for single passages only)."""
    return _template("generator", multi, style)


def verifier_template(multi: bool, style: str = PromptStyle.full) -> str:
    """The verifier template: per data shape and prompt style (compact exists for single passages only)."""
    return _template("verifier", multi, style)


# --- the generator prompt and the task list of a run ------------------------------------------------


def prompt_version(model_cfg, multi: bool, catalogue, style: str = PromptStyle.full) -> str:
    """The generator's prompt version (part of every candidate id): template or programmatic, plus the catalogue."""
    levers = f"+levers:{catalogue.content_hash[:8]}"
    if model_cfg.backend == PROGRAMMATIC:
        return PROGRAMMATIC + levers
    from refusalbench.prompts import template_version

    return template_version(generator_template(multi, style)) + levers


def expected_output_tokens(base: dict, multi: bool, model_cfg) -> int:
    """Output-token guess for one generator reply: the rewritten text plus overhead, capped by max_tokens."""
    if multi:
        passages = as_list(base["passages"])
        text = " ".join(str(passages[i]) for i in as_list(base["signal_indices"]))
    else:
        text = str(base["context"])
    guess = (len(text) + len(str(base["query"]))) // 4 + OUTPUT_TOKENS_OVERHEAD
    return min(guess, model_cfg.max_tokens) if model_cfg.max_tokens else guess


def generation_model(model_cfg, panel: PanelConfig):
    """The generator's settings with the panel's temperature override (the layer handles top_p clashes)."""
    if panel.temperature is None:
        return model_cfg
    return dataclasses.replace(model_cfg, temperature=panel.temperature)


def perturb_module() -> ModuleType:
    """The programmatic generator (looked up through sys.modules, so tests can substitute it)."""
    return importlib.import_module("refusalbench.perturb")


def programmatic_levers(panel: PanelConfig, catalogue, multi: bool) -> dict[str, Callable[[str, str], list[str]]]:
    """Per programmatic generator of the panel: the levers of a cell it implements (what round robin cycles)."""
    keys = [k for k, m in panel.models.items() if m.backend == PROGRAMMATIC]
    if not keys:
        return {}
    perturb = perturb_module()

    def implemented(cls: str, intensity: str) -> list[str]:
        known = catalogue.names(cls, intensity)
        return [n for n in perturb.implemented_levers(cls, intensity, multi) if n in known]

    return {k: implemented for k in keys}


def generation_tasks(cfg, base: pd.DataFrame, catalogue) -> tuple[list[Task], bool]:
    """Every generation task of the run for the base table, and whether the data is multi-passage."""
    panel = cfg.generators
    multi = is_multi_passage_table(base)
    rows = [plain_row(r) for r in base.to_dict(orient="records")]
    versions = {k: prompt_version(m, multi, catalogue, panel.prompts) for k, m in panel.models.items()}
    tasks = build_tasks(
        rows,
        versions,
        catalogue,
        panel.lever_assignment,
        panel.fixed_lever,
        cfg.seed,
        programmatic_levers(panel, catalogue, multi),
    )
    return tasks, multi
