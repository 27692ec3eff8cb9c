"""The embedded local model: a GGUF file served by llama.cpp (the ``xllamacpp`` wheel) on 127.0.0.1.

:func:`start` resolves the model file (``model.path`` or a pinned ``gguf_source``, see
:mod:`refusalbench.llm.model_files`) and returns this process's use of the machine's one server for
that model (:mod:`refusalbench.llm.shared_runtime`): a running server started by another run or
sweep job is reused, otherwise :mod:`refusalbench.llm.llamacpp_child` is started under a
:class:`~refusalbench.llm.servers.ManagedServer`. The server has ``parallel`` slots
(= ``max_concurrency``), ``threads`` (default: the CPUs this process may use, see
:mod:`refusalbench.llm.cpus`), and llama.cpp's busy-wait polling off unless the server leaves CPUs
to spare, so that processes sharing the machine are not starved by a spinning server.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Optional

from refusalbench.errors import UserError
from refusalbench.llm import llamacpp_child
from refusalbench.llm.cpus import available_cpus
from refusalbench.llm.servers import ManagedServer, new_log_path
from refusalbench.llm.shared_runtime import SharedServer, acquire

BUSY_POLL = 50  # llama.cpp's default busy-wait level, used only when CPUs are left over


def default_threads() -> int:
    """The CPUs this process may use (affinity mask, cgroup quota)."""
    return available_cpus()


def build_command(
    model_file: Path, served_name: str, address_file: Path, *, context_size: int, threads: Optional[int], parallel: int
) -> list[str]:
    """The child command line (run by path in isolated mode, so no package ``__init__`` is imported)."""
    threads = threads or default_threads()
    poll = BUSY_POLL if threads < available_cpus() else 0
    return [
        sys.executable,
        "-I",
        str(Path(llamacpp_child.__file__).resolve()),
        "--model",
        str(model_file),
        "--alias",
        served_name,
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--address-file",
        str(address_file),
        "--ctx-size",
        str(context_size),
        "--threads",
        str(threads),
        "--parallel",
        str(parallel),
        "--poll",
        str(poll),
    ]


def server_key(model_file: Path, model_cfg) -> str:
    """What makes two uses the same server: the file and every setting the server is started with."""
    ident = {
        "file": str(Path(model_file).resolve()),
        "name": model_cfg.name,
        "ctx": model_cfg.context_size,
        "threads": model_cfg.threads or default_threads(),
        "parallel": model_cfg.max_concurrency,
    }
    return "embedded-" + hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()[:16]


def start(model_cfg, log_dir: Optional[Path] = None) -> SharedServer:
    """This process's use of the embedded server for ``model_cfg`` (started if none is running)."""
    from refusalbench.llm.model_files import resolve_model_file

    try:
        found = importlib.util.find_spec("xllamacpp") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise UserError(
            "The embedded backend needs the xllamacpp package (the llama.cpp runtime); install it with "
            "`pip install xllamacpp` or reinstall refusalbench."
        )
    model_file = resolve_model_file(model_cfg)

    def launch(state_path: Path, lock_path: Path) -> ManagedServer:
        return _launch(model_cfg, model_file, log_dir, ["--users", str(state_path), "--lock", str(lock_path)])

    return acquire(server_key(model_file, model_cfg), "embedded", launch)


def _launch(model_cfg, model_file: Path, log_dir: Optional[Path], supervisor_args: list[str]) -> ManagedServer:
    fd, address_name = tempfile.mkstemp(prefix="refusalbench-embedded-", suffix=".addr", dir=log_dir)
    os.close(fd)
    address_file = Path(address_name)
    address_file.unlink()  # the child creates it when it listens
    cmd = build_command(
        model_file,
        model_cfg.name,
        address_file,
        context_size=model_cfg.context_size,
        threads=model_cfg.threads,
        parallel=model_cfg.max_concurrency,
    )
    server = ManagedServer(
        cmd, kind="embedded", log_path=new_log_path("embedded", log_dir), grace_s=10.0, supervisor_args=supervisor_args
    )

    def discover() -> Optional[str]:
        try:
            return json.loads(address_file.read_text())["base_url"]
        except (OSError, ValueError, KeyError):
            return None

    try:
        server.wait_ready(model_cfg.startup_timeout, discover=discover, served_name=model_cfg.name)
    finally:
        address_file.unlink(missing_ok=True)
    return server
