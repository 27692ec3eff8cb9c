"""A new SQLite tracking store copied from a template is the store MLflow would have made."""

from __future__ import annotations

import sqlite3

from mlflow.tracking import MlflowClient

from refusalbench.tracking.mlflow_run import Tracker
from refusalbench.tracking.sqlite_store import TEMPLATES_ENV, prepare_store, sqlite_file, template_path


def clauses(sql: str | None) -> tuple:
    """A table's definition as its set of clauses: MLflow's own migrations emit constraints in varying order."""
    return tuple(sorted(part.strip() for part in (sql or "").split(",")))


def schema(db) -> dict:
    with sqlite3.connect(db) as con:
        rows = con.execute("select type, name, sql from sqlite_master where name not like 'sqlite_%'")
        tables = sorted((kind, name, clauses(sql)) for kind, name, sql in rows)
        version = con.execute("select version_num from alembic_version").fetchall()
        experiments = con.execute("select experiment_id, name, artifact_location, lifecycle_stage from experiments")
        return {"tables": tables, "version": version, "experiments": sorted(experiments)}


def test_a_copied_store_matches_the_one_mlflow_makes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the default experiment's artifact location is relative to the working directory
    made = tmp_path / "made.db"
    MlflowClient(f"sqlite:///{made}").search_experiments()  # MLflow runs its migrations
    copied = tmp_path / "copied.db"
    assert prepare_store(f"sqlite:///{copied}")
    assert template_path().is_file()
    MlflowClient(f"sqlite:///{copied}").search_experiments()
    assert schema(copied) == schema(made)
    tracker = Tracker(f"sqlite:///{copied}", "exp", "job", tags={})
    tracker.log_metrics({"m": 1.0})
    tracker.finish()
    assert tracker.client.get_run(tracker.run_id).data.metrics == {"m": 1.0}


def test_an_existing_store_is_never_replaced(tmp_path):
    db = tmp_path / "mlflow.db"
    db.write_bytes(b"kept")
    assert not prepare_store(f"sqlite:///{db}")
    assert db.read_bytes() == b"kept"


def test_other_stores_are_left_to_mlflow():
    assert sqlite_file("http://127.0.0.1:5000") is None
    assert sqlite_file("sqlite:///:memory:") is None
    assert sqlite_file("sqlite:///db.sqlite?timeout=5") is None
    assert str(sqlite_file("sqlite:////abs/mlflow.db")) == "/abs/mlflow.db"
    assert str(sqlite_file("sqlite:///mlflow.db")) == "mlflow.db"


def test_without_a_usable_template_directory_mlflow_makes_the_store(tmp_path, monkeypatch):
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("")
    monkeypatch.setenv(TEMPLATES_ENV, str(blocked))
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    assert not prepare_store(uri)
    tracker = Tracker(uri, "exp", "job", tags={})
    tracker.finish()
    assert tracker.client.get_run(tracker.run_id).info.status == "FINISHED"
