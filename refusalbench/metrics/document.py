"""The metrics document (``metrics.json``): its one shape, and the one reader every consumer uses.

The score stage always writes (schema version 2), whatever the number of models::

    {"schema_version": 2,
     "models": {name: metrics},          # one entry per model (and per reasoning budget when a model has several)
     "paired_differences": {name: …},    # each other model against meta.reference_model; {} with one model
     "meta": {…}}                        # the run's: source, benchmark, convention, models, reference_model

``metrics`` is one model's object from `refusalbench.metrics.core.compute_metrics` (headline metrics with
intervals, breakdowns, …, and its own ``meta`` naming the model and reasoning budget).

Earlier versions wrote one model's metrics object itself (``{"refusal_accuracy": …, "meta": …}``) and
several models' without ``schema_version``; `as_document` turns either into the current shape, so a
sweep directory scored by an earlier version still reports. Standard library only: tracking imports
this module when the command line starts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

from refusalbench.errors import UserError

SCHEMA_VERSION = 2
METRICS_FILE = "metrics.json"
#: keys that mark one model's metrics object (the flat shape of earlier versions)
_MODEL_METRIC_KEYS = ("refusal_accuracy", "answer_accuracy")


def metrics_document(models: dict[str, dict], paired_differences: dict, meta: Optional[dict] = None) -> dict:
    """The metrics document of `models` ({name: metrics}) with their paired differences and the run's meta."""
    return {
        "schema_version": SCHEMA_VERSION,
        "models": dict(models),
        "paired_differences": dict(paired_differences),
        "meta": dict(meta or {}),
    }


def as_document(data, source: str = "the metrics") -> dict:
    """`data` (a parsed metrics JSON of this or an earlier version) in the current shape; a UserError otherwise."""
    if not isinstance(data, dict):
        raise UserError(f"{source} is not a JSON object, so it is not a RefusalBench metrics file.")
    version = data.get("schema_version")
    if version is not None and version != SCHEMA_VERSION:
        raise UserError(
            f"{source} has metrics schema version {version!r}; this version of RefusalBench reads version "
            f"{SCHEMA_VERSION} and the files of earlier versions (no schema_version). Score the run again."
        )
    if "models" in data:
        models = data["models"]
        if not isinstance(models, dict) or not all(isinstance(m, dict) for m in models.values()):
            raise UserError(f"{source}: 'models' must map each model's name to its metrics object.")
        return metrics_document(models, data.get("paired_differences") or {}, data.get("meta"))
    if any(key in data for key in _MODEL_METRIC_KEYS):
        return _from_one_model_object(data)
    raise UserError(
        f"{source} holds no model metrics: neither a 'models' object nor one model's metrics "
        f"({' or '.join(_MODEL_METRIC_KEYS)}). Is it a RefusalBench metrics file?"
    )


def _from_one_model_object(metrics: dict) -> dict:
    """An earlier version's single-model file: the model's metrics object itself."""
    meta = metrics.get("meta") if isinstance(metrics.get("meta"), dict) else {}
    name = str(meta.get("model") or "model")
    run_meta = {k: v for k, v in meta.items() if k not in ("model", "reasoning_budget")}
    return metrics_document({name: metrics}, {}, {**run_meta, "models": [name], "reference_model": name})


def load_metrics(path: str | Path) -> dict:
    """Read the metrics file at `path` as a current-shape document; a UserError if missing or unreadable."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise UserError(f"Metrics file {path} does not exist; run the score stage first.") from exc
    except (OSError, ValueError) as exc:
        raise UserError(f"Cannot read metrics file {path}: {exc}") from exc
    return as_document(data, f"Metrics file {path}")


def metrics_per_model(doc: dict) -> dict[str, dict]:
    """{model name: metrics} of a metrics document (of this or an earlier version's shape)."""
    return dict(as_document(doc)["models"])


def sole_model_meta(doc: dict) -> dict:
    """The ``meta`` of the document's one model (model, reasoning budget, …); {} when it holds several."""
    models = metrics_per_model(doc)
    if len(models) != 1:
        return {}
    meta = next(iter(models.values())).get("meta")
    return dict(meta) if isinstance(meta, dict) else {}
