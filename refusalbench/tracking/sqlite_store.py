"""A new SQLite tracking store made by copying an empty one instead of running MLflow's migrations.

MLflow makes a new SQLite store by running its whole chain of schema migrations, several seconds on
a small machine. The outcome is the same for every store one MLflow version makes, so the first
empty store this machine makes (with MLflow's own code) is kept as a template, and each later new
store is a copy of it. The template holds the schema only: MLflow adds its default experiment when
it first opens the copy, as it does for a store it made itself.

Templates live in ``$REFUSALBENCH_MLFLOW_TEMPLATES`` (default ``~/.cache/refusalbench/mlflow``), one
per MLflow version. Whatever goes wrong here only means MLflow makes the store itself.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import uuid
from importlib import metadata
from pathlib import Path
from typing import Optional

log = logging.getLogger(__name__)

TEMPLATES_ENV = "REFUSALBENCH_MLFLOW_TEMPLATES"
SQLITE_PREFIX = "sqlite:///"


def template_dir() -> Path:
    return Path(os.environ.get(TEMPLATES_ENV) or Path.home() / ".cache" / "refusalbench" / "mlflow").expanduser()


def template_path() -> Path:
    return template_dir() / f"empty-store-mlflow-{metadata.version('mlflow')}.db"


def sqlite_file(uri: str) -> Optional[Path]:
    """The database file of a plain ``sqlite:///PATH`` URI (None for any other store or a URI with options)."""
    if not uri.startswith(SQLITE_PREFIX) or "?" in uri:
        return None
    rest = uri[len(SQLITE_PREFIX) :]
    return Path(rest) if rest and rest != ":memory:" else None


def prepare_store(uri: str) -> bool:
    """Make the SQLite store of `uri` from the template when it does not exist yet; True if it was copied."""
    target = sqlite_file(uri)
    if target is None or target.exists():
        return False
    try:
        template = template_path()
        if not template.is_file():
            _make_template(template)
        _copy_new(template, target)
        return True
    except Exception as exc:  # noqa: BLE001 - MLflow then makes the store the usual way
        log.debug("no SQLite store template (%s); MLflow makes the store itself", exc)
        return False


def _make_template(template: Path) -> None:
    """An empty store with MLflow's current schema, made by MLflow's own table creation and migrations."""
    from mlflow.store.db.utils import _initialize_tables, create_sqlalchemy_engine

    template.parent.mkdir(parents=True, exist_ok=True)
    tmp = _partial(template)
    try:
        engine = create_sqlalchemy_engine(f"{SQLITE_PREFIX}{tmp}")
        try:
            _initialize_tables(engine)
        finally:
            engine.dispose()
        os.replace(tmp, template)  # concurrent makers each move a whole file into place
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def _copy_new(template: Path, target: Path) -> None:
    """Copy `template` to `target` unless `target` appears meanwhile (another process made the store)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = _partial(target)
    try:
        shutil.copyfile(template, tmp)
        try:
            os.link(tmp, target)  # fails if target exists: never replaces a store
        except FileExistsError:
            pass
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def _partial(path: Path) -> Path:
    """A fresh name beside `path` for a file being written (created with the usual permissions)."""
    return path.parent / f".{path.name}.{uuid.uuid4().hex}.part"
