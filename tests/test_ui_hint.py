"""The end-of-run MLflow hint works as printed: absolute store path, the environment's mlflow, the URL."""

from __future__ import annotations

import sys
from pathlib import Path

from refusalbench.ui_hint import absolute_store_uri, mlflow_ui_hint


def test_relative_sqlite_store_becomes_absolute(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert absolute_store_uri("sqlite:///mlflow.db") == f"sqlite:///{tmp_path.resolve() / 'mlflow.db'}"
    assert absolute_store_uri("sqlite:////data/x.db") == "sqlite:////data/x.db"
    assert absolute_store_uri("http://host:5000") == "http://host:5000"


def test_hint_names_the_environments_mlflow_and_the_url(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", "/nonexistent")  # the venv is not on PATH, as after `make demo`
    hint = mlflow_ui_hint("sqlite:///mlflow.db")
    command = hint.split()[0]
    beside = Path(sys.executable).parent / "mlflow"
    assert command == (str(beside) if beside.is_file() else "mlflow")
    assert f"--backend-store-uri sqlite:///{tmp_path.resolve()}/mlflow.db" in hint
    assert "http://127.0.0.1:5000" in hint
