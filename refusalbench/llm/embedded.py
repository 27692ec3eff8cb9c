"""The embedded local model: a GGUF file served by llama.cpp (the ``xllamacpp`` wheel) on 127.0.0.1.

Parent side: :func:`start` resolves the model file (``model.path`` or a pinned ``gguf_source``, see
:mod:`refusalbench.llm.model_files`) and launches this module as a child process under
:class:`~refusalbench.llm.servers.ManagedServer`. The child binds an OS-chosen free port and publishes
its address in a small file, so no port can be taken in between.

Child side (``python -m refusalbench.llm.embedded --model FILE ...``): builds llama.cpp's
``CommonParams`` and keeps an ``xllamacpp.Server`` (an OpenAI-compatible HTTP server:
``/health``, ``/v1/models``, ``/v1/chat/completions``) running until SIGTERM or SIGINT. Settings:
per-request context ``context_size`` (the KV cache holds ``context_size × parallel`` tokens),
``threads`` (default: the CPUs available to the run), ``parallel`` slots (= ``max_concurrency``), prompt caching with
KV-shift reuse of matching chunks, the model answering to ``served_name`` (= ``model.name``).
This module imports only the standard library at the top so that the child starts fast.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import tempfile
import threading
from pathlib import Path
from typing import Optional, Sequence

CACHE_REUSE_TOKENS = 256  # minimum matching chunk reused from the KV cache by shifting


def default_threads() -> int:
    """The CPUs this process may run on (respects affinity masks), else the CPU count."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def build_command(model_file: Path, served_name: str, address_file: Path, *, context_size: int,
                  threads: Optional[int], parallel: int) -> list[str]:
    """The child command line (run by path in isolated mode, so no package ``__init__`` is imported)."""
    return [sys.executable, "-I", str(Path(__file__).resolve()),
            "--model", str(model_file), "--alias", served_name, "--host", "127.0.0.1", "--port", "0",
            "--address-file", str(address_file), "--ctx-size", str(context_size),
            "--threads", str(threads or default_threads()), "--parallel", str(parallel)]


def start(model_cfg, log_dir: Optional[Path] = None):
    """Start the embedded server for ``model_cfg``; returns a ready :class:`ManagedServer`."""
    from refusalbench.errors import UserError
    from refusalbench.llm.model_files import resolve_model_file
    from refusalbench.llm.servers import ManagedServer, new_log_path

    try:
        import importlib.util

        found = importlib.util.find_spec("xllamacpp") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise UserError("The embedded backend needs the xllamacpp package (the llama.cpp runtime); install it with "
                        "`pip install xllamacpp` or reinstall refusalbench.")
    model_file = resolve_model_file(model_cfg)
    fd, address_name = tempfile.mkstemp(prefix="refusalbench-embedded-", suffix=".addr", dir=log_dir)
    os.close(fd)
    address_file = Path(address_name)
    address_file.unlink()  # the child creates it when it listens
    cmd = build_command(model_file, model_cfg.name, address_file, context_size=model_cfg.context_size,
                        threads=model_cfg.threads, parallel=model_cfg.max_concurrency)
    server = ManagedServer(cmd, kind="embedded", log_path=new_log_path("embedded", log_dir), grace_s=10.0)

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


# ---- child process ---------------------------------------------------------------------------------
def _params(args: argparse.Namespace):
    import xllamacpp as xlc

    params = xlc.CommonParams()
    params.model.path = args.model
    params.model_alias = {args.alias}
    params.hostnames = [args.host]
    params.port = args.port
    params.n_parallel = args.parallel
    params.n_ctx = args.ctx_size * args.parallel
    params.kv_unified = False  # each slot gets exactly ctx_size tokens
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    params.cache_prompt = True
    params.n_cache_reuse = CACHE_REUSE_TOKENS
    params.ui = False
    return params


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="Serve a GGUF model with llama.cpp on an OpenAI-compatible endpoint.")
    parser.add_argument("--model", required=True, help="GGUF file")
    parser.add_argument("--alias", default="local", help="model name the server answers to")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0: a free port chosen by the OS")
    parser.add_argument("--address-file", help="write {\"base_url\": ...} here once listening")
    parser.add_argument("--ctx-size", type=int, default=4096, help="context tokens per request slot")
    parser.add_argument("--threads", type=int, default=default_threads())
    parser.add_argument("--parallel", type=int, default=1, help="parallel request slots")
    args = parser.parse_args(argv)

    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    import xllamacpp as xlc

    server = xlc.Server(_params(args))  # loads the model and starts listening
    base_url = server.listening_address
    sys.stderr.write(f"embedded: serving {args.model} as {args.alias!r} on {base_url}\n")
    sys.stderr.flush()
    if args.address_file:
        tmp = f"{args.address_file}.tmp"
        with open(tmp, "w") as f:
            json.dump({"base_url": base_url}, f)
        os.replace(tmp, args.address_file)
    while not stop.wait(1.0):
        pass
    del server  # stops the HTTP server and frees the model
    return 0


if __name__ == "__main__":
    sys.exit(main())
