"""vLLM models: served by a running ``vllm serve``, or started and stopped by the run (managed).

Served (``model=vllm_served``): nothing is started; the call layer reaches the running server
through LiteLLM's hosted-vLLM route (``model.name=hosted_vllm/MODEL``) or the OpenAI-compatible
route with ``model.api_base=http://HOST:PORT/v1``.

Managed (``backend: vllm_managed``, ``model=vllm_managed``): :func:`start` runs
``vllm serve NAME --host 127.0.0.1 --port PORT SERVE_ARGS`` in its own process group (see
:class:`~refusalbench.llm.servers.ManagedServer`), waits for ``GET /health`` and then
``GET /v1/models`` within ``model.startup_timeout``, and stops it at the end of the run or on any
failure. ``served_name`` is the id the server lists (``--served-model-name`` if given in
``serve_args``, else NAME). A ``hosted_vllm/`` or ``openai/`` prefix on ``model.name`` is dropped
from the ``serve`` argument. The environment variable ``REFUSALBENCH_VLLM_COMMAND`` replaces the
``vllm`` executable (shell-style words, e.g. ``python -m my_fake_server``); the tests use it to run
an OpenAI-compatible stand-in without a GPU. Needs the ``vllm`` extra: ``pip install 'refusalbench[vllm]'``.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import Optional

from refusalbench.errors import UserError

COMMAND_ENV = "REFUSALBENCH_VLLM_COMMAND"
ROUTE_PREFIXES = ("hosted_vllm/", "openai/")
STOP_GRACE_S = 30.0


def serve_model_name(name: str) -> str:
    """The model argument of ``vllm serve``: ``model.name`` without a LiteLLM route prefix."""
    for prefix in ROUTE_PREFIXES:
        if name.startswith(prefix):
            return name[len(prefix) :]
    return name


def vllm_executable() -> list[str]:
    """The command that runs the vLLM CLI: ``$REFUSALBENCH_VLLM_COMMAND``, else the installed ``vllm``."""
    override = os.environ.get(COMMAND_ENV, "").strip()
    if override:
        return shlex.split(override)
    try:
        installed = importlib.util.find_spec("vllm") is not None
    except (ImportError, ValueError):
        installed = False
    beside = Path(sys.executable).parent / "vllm"
    if beside.is_file() and installed:
        return [str(beside)]
    found = shutil.which("vllm")
    if found and installed:
        return [found]
    if installed:
        return [sys.executable, "-m", "vllm.entrypoints.cli.main"]
    raise UserError(
        "backend=vllm_managed needs vLLM, which is not installed in this environment. Install the optional "
        "extra with `pip install 'refusalbench[vllm]'` (Linux with a CUDA GPU), or serve the model "
        "elsewhere and use model=vllm_served with model.api_base pointing at it."
    )


def build_command(model_cfg, port: int) -> list[str]:
    return [
        *vllm_executable(),
        "serve",
        serve_model_name(model_cfg.name),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        *[str(a) for a in model_cfg.serve_args],
    ]


def _served_name_arg(serve_args: list) -> Optional[str]:
    args = [str(a) for a in serve_args]
    for i, arg in enumerate(args):
        if arg.startswith("--served-model-name="):
            return arg.split("=", 1)[1].split()[0] or None
        if arg == "--served-model-name" and i + 1 < len(args):
            return args[i + 1]
    return None


def start(model_cfg, log_dir: Optional[Path] = None):
    """Start ``vllm serve`` for ``model_cfg``; returns a ready :class:`ManagedServer`."""
    from refusalbench.llm.servers import ManagedServer, free_port, new_log_path

    port = free_port()
    cmd = build_command(model_cfg, port)
    server = ManagedServer(cmd, kind="vllm", log_path=new_log_path("vllm", log_dir), grace_s=STOP_GRACE_S)
    return server.wait_ready(
        model_cfg.startup_timeout,
        base_url=f"http://127.0.0.1:{port}",
        served_name=_served_name_arg(model_cfg.serve_args),
    )
