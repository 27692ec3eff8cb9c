"""One MLflow run per job: resolved config as parameters, provenance tags, metrics, artifacts.

Everything goes through an explicit `MlflowClient` (no fluent global state), so parallel jobs in
separate processes only ever write their own run. Secrets are scrubbed before anything is logged.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, Iterable, Optional

from refusalbench.errors import UserError
from refusalbench.tracking import provenance
from refusalbench.tracking.secrets import scrub, scrub_text, secret_values
from refusalbench.tracking.sqlite_store import prepare_store

log = logging.getLogger(__name__)

SWEEP_FILE = "sweep.json"  # written by the sweep callback: the parent run id and the swept keys
TEXT_SUFFIXES = {".yaml", ".yml", ".json", ".jsonl", ".md", ".csv", ".txt", ".log"}
ARTIFACT_TABLES = ("base", "candidates", "checked", "votes", "benchmark", "outputs", "labels")


def _mlflow():
    import mlflow  # slow import: only when tracking is on
    from mlflow.tracking import MlflowClient

    return mlflow, MlflowClient


def limits() -> tuple[int, int, int, int]:
    """MLflow's batch size, parameter/tag value lengths and metrics per batch, read at run time."""
    from mlflow.utils import validation as v

    return (
        int(getattr(v, "MAX_PARAMS_TAGS_PER_BATCH", 100)),
        int(getattr(v, "MAX_PARAM_VAL_LENGTH", 250)),
        int(getattr(v, "MAX_TAG_VAL_LENGTH", 5000)),
        int(getattr(v, "MAX_METRICS_PER_BATCH", 1000)),
    )


def flatten(obj: Any, prefix: str = "") -> dict[str, str]:
    """Dotted keys for a nested dict/list config; leaves become strings."""
    out: dict[str, str] = {}
    if isinstance(obj, dict):
        for key, value in obj.items():
            out.update(flatten(value, f"{prefix}{key}."))
    elif isinstance(obj, (list, tuple)) and any(isinstance(v, (dict, list)) for v in obj):
        for i, value in enumerate(obj):
            out.update(flatten(value, f"{prefix}{i}."))
    else:
        out[prefix[:-1]] = json.dumps(obj) if isinstance(obj, (list, tuple)) else str(obj)
    return out


#: breakdown table name -> metric-key prefix
BREAKDOWN_PREFIX = {
    "perturbation_class": "class",
    "class_intensity": "class_intensity",
    "generator_model": "generator",
    "generator": "generator",
    "lever_selected": "lever",
    "lever": "lever",
    "domain": "domain",
}


def metric_key(key: str) -> str:
    """A key MLflow accepts (alphanumerics, _ - . / and spaces); other characters become _."""
    return re.sub(r"[^A-Za-z0-9_\-./ ]", "_", key)[:250]


def metric_items(metrics: dict) -> dict[str, float]:
    """Headline metrics with interval bounds, and breakdowns under prefixed keys (class/…, intensity/…)."""
    out: dict[str, float] = {}

    def put(key: str, value: Any) -> None:
        if isinstance(value, dict):
            value = value.get("value")
        if isinstance(value, bool) or value is None:
            return
        if isinstance(value, (int, float)):
            out[metric_key(key)] = float(value)

    for name, entry in metrics.items():
        if isinstance(entry, dict) and "value" in entry:
            put(name, entry.get("value"))
            for bound in ("ci_low", "ci_high", "wilson_low", "wilson_high", "n"):
                put(f"{name}_{bound}", entry.get(bound))
    for level, entry in (metrics.get("refusal_rate_by_intensity") or {}).items():
        put(f"intensity/{level}/refusal_rate", entry)
    for group, table in (metrics.get("breakdowns") or {}).items():
        if not isinstance(table, dict):
            continue
        prefix = BREAKDOWN_PREFIX.get(group, group)
        for level, values in table.items():
            if isinstance(values, dict):
                for metric, value in values.items():
                    put(f"{prefix}/{level}/{metric}", value)
    for label, value in (metrics.get("response_distribution") or {}).items():
        put(f"response/{label}", value.get("share") if isinstance(value, dict) else value)
    return out


class Tracker:
    """The MLflow run of one job (a child run when the job belongs to a sweep)."""

    def __init__(
        self,
        uri: str,
        experiment: str,
        run_name: str,
        tags: dict[str, str],
        parent_run_id: Optional[str] = None,
        resume_tag: Optional[str] = None,
    ):
        """Open a new run; with `resume_tag` (a tag name), reopen the oldest active run whose tag has this value."""
        mlflow, MlflowClient = _mlflow()
        prepare_store(uri)
        self.secrets = secret_values()
        self.client = MlflowClient(tracking_uri=uri)
        self.experiment_id = ensure_experiment(self.client, experiment, uri)
        self.uri = uri
        tags = {**ui_tags(tags), **tags}
        if parent_run_id:
            tags = {**tags, "mlflow.parentRunId": parent_run_id, "refusalbench.parent_run_id": parent_run_id}
        _, _, tag_len, _ = limits()
        tags = {k: scrub_text(str(v), self.secrets)[:tag_len] for k, v in tags.items()}
        found = self.find_runs({resume_tag: tags[resume_tag]}) if resume_tag else []
        self.resumed = bool(found)
        if found:
            self.run_id = found[0].info.run_id
            self.client.update_run(self.run_id, status="RUNNING", name=run_name)
            self.set_tags(tags)
        else:
            self.run_id = self.client.create_run(self.experiment_id, run_name=run_name, tags=tags).info.run_id

    def find_runs(self, tags: dict[str, str]) -> list:
        """Active runs of this experiment carrying all `tags` (values must be plain: hashes, ids), oldest first."""
        from mlflow.entities import ViewType

        clauses = " and ".join(f"tags.`{k}` = '{v}'" for k, v in tags.items())
        return list(
            self.client.search_runs(
                [self.experiment_id],
                filter_string=clauses,
                run_view_type=ViewType.ACTIVE_ONLY,
                order_by=["attributes.start_time ASC"],
                max_results=1000,
            )
        )

    # -- logging -------------------------------------------------------------------------------
    def log_params(self, params: dict[str, str]) -> None:
        from mlflow.entities import Param

        batch, val_len, _, _ = limits()
        items = [Param(k[:250], scrub_text(v, self.secrets)[:val_len]) for k, v in params.items()]
        for i in range(0, len(items), batch):
            self.client.log_batch(self.run_id, params=items[i : i + batch])

    def set_tags(self, tags: dict[str, str]) -> None:
        from mlflow.entities import RunTag

        batch, _, tag_len, _ = limits()
        items = [RunTag(k, scrub_text(str(v), self.secrets)[:tag_len]) for k, v in tags.items()]
        for i in range(0, len(items), batch):
            self.client.log_batch(self.run_id, tags=items[i : i + batch])

    def log_metrics(self, values: dict[str, float]) -> None:
        from mlflow.entities import Metric

        _, _, _, per_batch = limits()
        now = int(time.time() * 1000)
        items = [Metric(k, v, now, 0) for k, v in values.items() if v == v]  # drop NaN
        for i in range(0, len(items), per_batch):
            self.client.log_batch(self.run_id, metrics=items[i : i + per_batch])

    def log_artifacts(
        self,
        paths: Iterable[Path],
        artifact_path: Optional[str] = None,
        more: Optional[dict[str, Iterable[Path]]] = None,
    ) -> None:
        """Log files/directories (and those of `more` under its artifact paths) in one call to the store,
        scrubbing secrets from text files; binaries holding a secret are skipped."""
        with tempfile.TemporaryDirectory() as tmp:
            staged = Path(tmp)
            for subdir, group in [("", paths), *(more or {}).items()]:
                for path in map(Path, group):
                    if path.is_dir():
                        for child in path.rglob("*"):
                            if child.is_file():
                                self._stage(child, staged / subdir / path.name / child.relative_to(path))
                    elif path.is_file():
                        self._stage(path, staged / subdir / path.name)
            if any(staged.iterdir()):
                self.client.log_artifacts(self.run_id, str(staged), artifact_path)

    def _stage(self, src: Path, dest: Path) -> None:
        dest.parent.mkdir(parents=True, exist_ok=True)
        if src.suffix.lower() in TEXT_SUFFIXES:
            dest.write_text(scrub_text(src.read_text(errors="replace"), self.secrets))
            return
        data = src.read_bytes()
        if any(s.encode() in data for s in self.secrets):
            log.warning("not logging %s to MLflow: it contains a secret value", src)
            return
        shutil.copyfile(src, dest)

    def log_dict(self, obj: dict, artifact_file: str) -> None:
        self.client.log_dict(self.run_id, scrub(obj, self.secrets), artifact_file)

    def finish(self, status: str = "FINISHED") -> None:
        self.client.set_terminated(self.run_id, status=status)

    def ui_hint(self) -> str:
        return f"mlflow ui --backend-store-uri {self.uri}"


def ensure_experiment(client, name: str, uri: str) -> str:
    """The experiment's id, creating it (with artifacts beside a SQLite store) if needed."""
    try:
        exp = client.get_experiment_by_name(name)
        if exp is not None:
            return exp.experiment_id
        location = None
        if uri.startswith("sqlite:///"):
            db = Path(uri[len("sqlite:///") :]).resolve()
            location = (db.parent / "mlartifacts" / name).as_uri()
        return client.create_experiment(name, artifact_location=location)
    except Exception as exc:
        if type(exc).__name__ in ("MlflowException", "RestException") and "already exists" in str(exc):
            return client.get_experiment_by_name(name).experiment_id
        raise UserError(
            f"Cannot reach the MLflow tracking store {uri!r}: {exc}. Check tracking.uri, or run with tracking=off."
        ) from exc


def read_sweep_state(sweep_dir: Optional[Path]) -> dict:
    """What the sweep callback recorded for the jobs: `parent_run_id` (or None) and `swept_keys`."""
    path = Path(sweep_dir) / SWEEP_FILE if sweep_dir is not None else None
    if path is None or not path.exists():
        return {"parent_run_id": None, "swept_keys": []}
    return json.loads(path.read_text())


def read_parent_run_id(sweep_dir: Optional[Path]) -> Optional[str]:
    return read_sweep_state(sweep_dir).get("parent_run_id")


def ui_tags(tags: dict[str, str]) -> dict[str, str]:
    """MLflow's own tags, which its UI shows as a run's User and Source (with the git commit)."""
    import getpass

    out = {"mlflow.source.name": "refusalbench", "mlflow.source.type": "LOCAL"}
    try:
        out["mlflow.user"] = getpass.getuser()
    except (KeyError, OSError):  # no user name in a bare container
        pass
    if tags.get("git_commit", "unknown") != "unknown":
        out["mlflow.source.git.commit"] = tags["git_commit"]
    return out


def env_summary() -> dict[str, str]:
    """Tags describing the machine-independent provenance of a job."""
    return {**provenance.git_state(), **provenance.package_versions()}
