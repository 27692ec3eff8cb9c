"""The end-of-run hint for opening the MLflow UI, runnable as printed from any directory."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

DEFAULT_UI_URL = "http://127.0.0.1:5000"


def absolute_store_uri(uri: str) -> str:
    """A ``sqlite:///relative.db`` URI made absolute (so the hint works from another directory)."""
    prefix = "sqlite:///"
    if uri.startswith(prefix) and not uri.startswith(prefix + "/"):
        return prefix + str(Path(uri[len(prefix) :]).expanduser().resolve())
    return uri


def mlflow_command() -> str:
    """The `mlflow` executable of the running interpreter's environment (it may not be on PATH)."""
    beside = Path(sys.executable).parent / "mlflow"
    if beside.is_file():
        return str(beside) if shutil.which("mlflow") != str(beside) else "mlflow"
    return "mlflow"


def mlflow_ui_hint(uri: str) -> str:
    """One line: the command that opens this store in the MLflow UI, and the URL it serves."""
    if uri.startswith(("http://", "https://")):
        return f"open {uri} in a browser (the tracking server's own UI)"
    return f"{mlflow_command()} ui --backend-store-uri {absolute_store_uri(uri)}   then open {DEFAULT_UI_URL}"
