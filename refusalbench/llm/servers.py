"""Model servers started and stopped by the run: the embedded llama.cpp runtime and managed vLLM.

A :class:`ManagedServer` launches a server as a child process in its own process group, waits until it
answers ``GET /health`` and ``GET /v1/models``, and knows the OpenAI-compatible ``api_base`` and the
``served_name`` the server answers to (:func:`refusalbench.llm.managed.start_managed` picks the kind).
``stop()`` terminates the whole group (SIGTERM, then SIGKILL after a grace period); it is idempotent and
also registered with :mod:`atexit`.

The child runs under a small supervisor (:mod:`refusalbench.llm.supervisor`, run as a script) that
shares its process group and watches the parent: if the run dies without stopping it (SIGKILL, a crash),
the supervisor takes the group down, so no server is left holding a port, memory or a GPU.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Callable, Optional, Sequence

log = logging.getLogger(__name__)

POLL_S = 0.2
LOG_TAIL_LINES = 25


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get_json(url: str, timeout: float = 2.0) -> Optional[dict]:
    """GET ``url`` bypassing any proxy; the decoded JSON on HTTP 200, else None."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=timeout) as resp:
            if resp.status != 200:
                return None
            return json.loads(resp.read() or b"{}")
    except (OSError, ValueError, urllib.error.URLError):
        return None


def log_tail(path: Path, lines: int = LOG_TAIL_LINES) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.rstrip().splitlines()[-lines:]) or "(empty log)"


class ManagedServer:
    """A server child process group; use :func:`start_managed` to create one."""

    def __init__(
        self,
        cmd: Sequence[str],
        *,
        kind: str,
        log_path: Path,
        grace_s: float = 10.0,
        env: Optional[dict] = None,
        supervisor_args: Sequence[str] = (),
    ) -> None:
        self.kind = kind
        self.cmd = list(cmd)
        self.log_path = log_path
        self.grace_s = grace_s
        self.api_base: str = ""
        self.served_name: str = ""
        self.startup_s: Optional[float] = None
        self._lock = threading.Lock()
        self._stopped = False
        supervisor = [
            sys.executable,
            "-I",
            str(Path(__file__).with_name("supervisor.py").resolve()),
            "--parent",
            str(os.getpid()),
            *supervisor_args,
            "--",
        ]
        with open(log_path, "ab") as logf:
            self.proc = subprocess.Popen(
                supervisor + self.cmd,
                stdin=subprocess.DEVNULL,
                stdout=logf,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                env=env,
            )
        self.pgid = self.proc.pid  # the supervisor leads its own session and process group
        atexit.register(self.stop)
        log.info("started %s server (pid %d): %s; log %s", kind, self.proc.pid, " ".join(self.cmd), log_path)

    # ---- readiness -----------------------------------------------------------------------------
    def wait_ready(
        self,
        timeout: float,
        base_url: Optional[str] = None,
        discover: Optional[Callable[[], Optional[str]]] = None,
        served_name: Optional[str] = None,
    ) -> ManagedServer:
        """Block until ``/health`` and ``/v1/models`` answer; stop the server and raise on failure.

        ``base_url`` is the server root (``http://127.0.0.1:PORT``); ``discover`` returns it once the
        child has published it (or None while it has not).
        """
        try:
            return self._wait_ready(timeout, base_url, discover, served_name)
        except BaseException:
            self.stop()  # a failed or interrupted start leaves nothing running
            raise

    def _wait_ready(
        self,
        timeout: float,
        base_url: Optional[str],
        discover: Optional[Callable[[], Optional[str]]],
        served_name: Optional[str],
    ) -> ManagedServer:
        from refusalbench.errors import UserError

        start = time.monotonic()
        deadline = start + timeout
        healthy = False
        while True:
            if self.proc.poll() is not None:
                self.stop()
                raise UserError(
                    f"The {self.kind} model server exited with code {self.proc.returncode} before it was "
                    f"ready. Last lines of its log ({self.log_path}):\n{log_tail(self.log_path)}"
                )
            if base_url is None and discover is not None:
                base_url = discover()
            if base_url is not None:
                if not healthy:
                    healthy = http_get_json(f"{base_url}/health") is not None
                if healthy:
                    models = http_get_json(f"{base_url}/v1/models")
                    if models is not None:
                        ids = [m.get("id") for m in models.get("data", []) if isinstance(m, dict)]
                        self.served_name = served_name or (ids[0] if ids else "")
                        self.api_base = f"{base_url}/v1"
                        self.startup_s = time.monotonic() - start
                        log.info(
                            "%s server ready at %s serving %r after %.1f s",
                            self.kind,
                            self.api_base,
                            self.served_name,
                            self.startup_s,
                        )
                        return self
            if time.monotonic() >= deadline:
                self.stop()
                raise UserError(
                    f"The {self.kind} model server did not become ready within {timeout:g} s "
                    f"(model.startup_timeout); it was stopped. Last lines of its log ({self.log_path}):\n"
                    f"{log_tail(self.log_path)}"
                )
            time.sleep(POLL_S)

    # ---- lifecycle -----------------------------------------------------------------------------
    def stop(self) -> None:
        """Terminate the process group: SIGTERM, then SIGKILL after ``grace_s``. Idempotent."""
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
        atexit.unregister(self.stop)
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # the supervisor forwards it to the server
            try:
                self.proc.wait(timeout=self.grace_s)
            except subprocess.TimeoutExpired:
                log.warning("%s server did not stop within %.0f s; killing it", self.kind, self.grace_s)
        # the group may outlive its leader (a grandchild ignoring SIGTERM): make sure it is gone
        _kill_group(self.pgid, signal.SIGKILL)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            log.error("%s server (pid %d) did not exit after SIGKILL", self.kind, self.proc.pid)
        log.info("stopped %s server (pid %d)", self.kind, self.proc.pid)

    def __enter__(self) -> ManagedServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"ManagedServer(kind={self.kind!r}, api_base={self.api_base!r}, served_name={self.served_name!r})"


def _kill_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def new_log_path(kind: str, log_dir: Optional[Path]) -> Path:
    if log_dir is not None:
        log_dir = Path(log_dir)
        log_dir.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f"refusalbench-{kind}-", suffix=".log", dir=log_dir)
    os.close(fd)
    return Path(name)
