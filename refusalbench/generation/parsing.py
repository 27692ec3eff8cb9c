"""Schema validation of generator and verifier replies.

`refusalbench.json_reply.extract_json` finds the JSON object in a reply; the `parse_*` functions
then check its fields and raise `ParseError` with a message short enough to send back in a re-ask.
"""

from __future__ import annotations

import re
from typing import Any, Optional, Sequence

from refusalbench.json_reply import ParseError, extract_json, strip_reasoning  # noqa: F401 (re-exported)

VERDICTS = ("PASS", "FAIL")
#: The single-passage verifier checklist; multi-passage data adds `strategy_compliance`.
CHECKLIST_NQ = (
    "lever_correctly_implemented",
    "intensity_correctly_achieved",
    "target_correctly_modified",
    "uncertainty_successfully_induced",
    "implementation_quality_sound",
    "answer_constraint_satisfied",
    "ground_truth_alignment",
    "refusal_class_correct",
)
CHECKLIST_GARAGE = CHECKLIST_NQ[:3] + ("strategy_compliance",) + CHECKLIST_NQ[3:]


# --- field helpers -------------------------------------------------------------------------


def _text(obj: dict, key: str, errors: list[str], required: bool = True, allow_empty: bool = True) -> Optional[str]:
    value = obj.get(key)
    if value is None:
        if required:
            errors.append(f'missing required field "{key}"')
        return None
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        value = "\n".join(value)  # step-by-step reasoning given as a list
    if not isinstance(value, str):
        errors.append(f'field "{key}" must be a string, got {type(value).__name__}')
        return None
    if not allow_empty and not value.strip():
        errors.append(f'field "{key}" must not be empty')
    return value


def _flag(value: Any) -> Optional[bool]:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "yes", "pass"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("false", "no", "fail"):
        return False
    return None


def _norm_name(name: str) -> str:
    name = re.sub(r"^\s*\d+[.)]\s*", "", name)  # "3. Name" as listed in the prompt
    return re.sub(r"\s+", " ", name.replace("*", "").replace("`", "")).strip().strip('"').casefold()


def match_lever(claimed: str, allowed: Sequence[str]) -> Optional[str]:
    """The catalogue name `claimed` refers to (exact, or up to case, spaces, markdown, numbering)."""
    if claimed in allowed:
        return claimed
    wanted = _norm_name(claimed)
    for name in allowed:
        if _norm_name(name) == wanted:
            return name
    return None


def _raise(errors: list[str]) -> None:
    if errors:
        raise ParseError("Invalid output: " + "; ".join(errors) + ".")


# --- generator replies ---------------------------------------------------------------------

GENERATOR_KEYS = ("perturbed_query", "perturbed_context", "perturbed_signal_passages", "lever_selected")


def _lever(obj: dict, levers: Sequence[str], errors: list[str]) -> Optional[str]:
    claimed = _text(obj, "lever_selected", errors)
    if claimed is None:
        return None
    lever = match_lever(claimed, levers)
    if lever is None:
        errors.append(
            f'"lever_selected" is "{claimed}", which is not one of the allowed levers: '
            + ", ".join(f'"{n}"' for n in levers)
        )
    return lever


def _common(obj: dict, levers: Sequence[str], errors: list[str]) -> dict:
    return {
        "perturbed_query": _text(obj, "perturbed_query", errors, allow_empty=False),
        "lever_selected": _lever(obj, levers, errors),
        "implementation_reasoning": _text(obj, "implementation_reasoning", errors),
        "intensity_achieved": _text(obj, "intensity_achieved", errors, required=False),
        "model_expected_echo": _text(obj, "expected_rag_behavior", errors, required=False),
    }


def parse_generation_single(text: str, levers: Sequence[str]) -> dict:
    """Validated fields of a single-passage generator reply; `lever_selected` must be in `levers`."""
    obj = extract_json(text, prefer_keys=GENERATOR_KEYS)
    errors: list[str] = []
    out = _common(obj, levers, errors)
    out["perturbed_context"] = _text(obj, "perturbed_context", errors)
    _raise(errors)
    return out


EDIT_LISTS = (("perturbed_signal_passages", "S"), ("perturbed_noise_passages", "N"), ("perturbed_passages", None))


def _edits(obj: dict, errors: list[str]) -> list[dict]:
    """Edits from the signal/noise lists (or one combined list) as ``{"passage": label, "perturbed_text"}``.

    A bare number in the signal (noise) list is read as the 1-based label S<n> (N<n>) shown to the
    model; everything else must be a label such as "S2".
    """
    if not any(key in obj for key, _ in EDIT_LISTS):
        errors.append(
            'missing "perturbed_signal_passages" and "perturbed_noise_passages" (use [] for a kind you did not edit)'
        )
        return []
    edits = []
    for key, kind in EDIT_LISTS:
        raw = obj.get(key)
        if raw is None:
            continue
        if not isinstance(raw, list):
            errors.append(f'"{key}" must be a list of {{"passage": LABEL, "perturbed_text": TEXT}} objects')
            continue
        for k, item in enumerate(raw):
            if not isinstance(item, dict):
                errors.append(f'"{key}"[{k}] must be an object with "passage" and "perturbed_text"')
                continue
            label = item.get("passage", item.get("label"))
            body = item.get("perturbed_text", item.get("text"))
            if kind and (
                isinstance(label, int)
                and not isinstance(label, bool)
                or isinstance(label, str)
                and label.strip().isdigit()
            ):
                label = f"{kind}{int(label)}"
            if not isinstance(label, str) or not label.strip():
                errors.append(f'"{key}"[{k}]["passage"] must be a passage label such as "S1" or "N2"')
                continue
            if not isinstance(body, str):
                errors.append(f'"{key}"[{k}]["perturbed_text"] must be a string')
                continue
            edits.append({"passage": label.strip(), "perturbed_text": body})
    return edits


def parse_generation_multi(text: str, levers: Sequence[str]) -> dict:
    """Validated fields of a multi-passage reply; edits stay as displayed labels (see multipassage)."""
    obj = extract_json(text, prefer_keys=GENERATOR_KEYS)
    errors: list[str] = []
    out = _common(obj, levers, errors)
    out["passage_edits"] = _edits(obj, errors)
    _raise(errors)
    return out


# --- verifier replies ----------------------------------------------------------------------


def parse_verification(text: str, checklist: Sequence[str] = CHECKLIST_NQ) -> dict:
    """Validated verifier reply: `verdict` PASS/FAIL plus checklist flags (None when absent)."""
    obj = extract_json(text, prefer_keys=("verification_result",))
    errors: list[str] = []
    raw = obj.get("verification_result")
    verdict = raw.strip().strip(".").upper() if isinstance(raw, str) else None
    if raw is None:
        errors.append('missing required field "verification_result"')
    elif verdict not in VERDICTS:
        errors.append(f'"verification_result" must be "PASS" or "FAIL", got {raw!r}')
    _raise(errors)
    issues = obj.get("identified_issues")
    if isinstance(issues, list):
        issues = "; ".join(str(i) for i in issues)
    out = {"verdict": verdict, "identified_issues": issues if isinstance(issues, str) else None}
    for key in checklist:
        out[key] = _flag(obj.get(key))
    for key in (
        "predicted_rag_behavior",
        "actual_intensity_observed",
        "refusal_reasoning_analysis",
        "constraint_analysis",
    ):
        value = obj.get(key)
        out[key] = value if isinstance(value, str) else None
    return out
