"""The verifier's view of a candidate: its prompt, prompt version and model settings (no model call here)."""

from __future__ import annotations

import dataclasses

from refusalbench.config import Backend, PanelConfig, PromptStyle
from refusalbench.generation.multipassage import edited_labels, label_map
from refusalbench.generation.tasks import Task, prompt_variables, verifier_template
from refusalbench.rows import as_list

STRUCTURAL = Backend.structural.value
VERIFIER_OUTPUT_TOKENS = 450  # output-token guess for one verifier reply


def verifier_model(model_cfg, panel: PanelConfig):
    """Verifier settings: the panel temperature, or 0 when the panel sets none."""
    temperature = panel.temperature if panel.temperature is not None else 0.0
    return dataclasses.replace(model_cfg, temperature=temperature)


def _edits(row: dict) -> tuple[list[dict], list[dict]]:
    original, perturbed = as_list(row["original_passages"]), as_list(row["perturbed_passages"])
    signal, noise = as_list(row["signal_indices"]), as_list(row["noise_indices"])
    where = label_map(signal, noise)
    labels, _ = edited_labels(original, perturbed, signal, noise)
    edits = [{"passage": lab, "perturbed_text": perturbed[where[lab]]} for lab in labels]
    return [e for e in edits if e["passage"].startswith("S")], [e for e in edits if e["passage"].startswith("N")]


def generator_output(row: dict, multi: bool) -> dict:
    """The candidate as the verifier sees it (the generator's fields; passages by displayed label)."""
    out = {
        "perturbed_query": row["perturbed_query"],
        "lever_selected": row["lever_selected"],
        "implementation_reasoning": row.get("implementation_reasoning") or "",
        "intensity_achieved": row.get("intensity_achieved") or row["intensity"],
    }
    if multi:
        out["perturbed_signal_passages"], out["perturbed_noise_passages"] = _edits(row)
    else:
        out["perturbed_context"] = row["perturbed_context"]
    return out


def _shown_levers(catalogue, cls: str, intensity: str, claimed, style: str) -> list:
    """The cell's levers; for compact prompts only the claimed one (when it is a lever of the cell)."""
    levers = catalogue.levers(cls, intensity)
    if style == PromptStyle.compact:
        chosen = [lev for lev in levers if lev.name == claimed]
        return chosen or levers
    return levers


def verifier_prompt(row: dict, catalogue, multi: bool, style: str = PromptStyle.full) -> str:
    """The rendered verifier prompt for one candidate row (the original item, the cell's levers, the candidate)."""
    from refusalbench.prompts import render

    base = {"query": row["original_query"], "answers": as_list(row["original_answers"])}
    if multi:
        base.update(
            passages=as_list(row["original_passages"]),
            signal_indices=as_list(row["signal_indices"]),
            noise_indices=as_list(row["noise_indices"]),
            reference_answer=row.get("reference_answer"),
        )
    else:
        base["context"] = row["original_context"]
    cls, intensity = row["perturbation_class"], row["intensity"]
    task = Task(row["candidate_id"], row["source_id"], cls, intensity, row["generator"], None, [], "", base)
    levers = _shown_levers(catalogue, cls, intensity, row.get("lever_selected"), "full" if multi else style)
    variables = prompt_variables(task, catalogue, multi, levers=levers)
    variables["generator_output"] = generator_output(row, multi)
    return render(verifier_template(multi, style), **variables)


def prompt_version(model_cfg, multi: bool, catalogue, style: str = PromptStyle.full) -> str:
    """The verifier's prompt version (part of each vote's cache key)."""
    if model_cfg.backend == STRUCTURAL:
        return STRUCTURAL
    from refusalbench.prompts import template_version

    return f"{template_version(verifier_template(multi, style))}+levers:{catalogue.content_hash[:8]}"
