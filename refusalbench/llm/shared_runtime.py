"""One local model server per machine, shared by every process that uses the same model.

Concurrent runs and sweep jobs that use the same embedded model find each other through two files
in the runtime directory (``$REFUSALBENCH_RUNTIME_DIR``, default ``~/.cache/refusalbench/runtime``),
named after the server's identity: ``KEY.lock`` (an ``flock`` held only while the state is read or
changed) and ``KEY.json`` (the server's address, its process group and the ids of the processes
using it). The first user starts the server; later users add their process id; each user removes
its id when done, and the last one stops the server. Users that died without saying so (SIGKILL)
are pruned by the next user and by the server's supervisor, which stops the server once no user
process is alive, so nothing is left running.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import json
import logging
import os
import signal
import threading
import time
from pathlib import Path
from typing import Callable, Iterator, Optional

from refusalbench.llm.servers import ManagedServer, http_get_json
from refusalbench.llm.supervisor import pid_alive

log = logging.getLogger(__name__)

RUNTIME_ENV = "REFUSALBENCH_RUNTIME_DIR"
STOP_WAIT_S = 15.0


def runtime_dir() -> Path:
    return Path(os.environ.get(RUNTIME_ENV) or Path.home() / ".cache" / "refusalbench" / "runtime")


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive ``flock`` on `path` (created if missing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def read_state(path: Path) -> Optional[dict]:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def write_state(path: Path, state: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(state))
    os.replace(tmp, path)


class SharedServer:
    """This process's use of a shared server: ``api_base``, ``served_name``; ``stop()`` ends the use."""

    def __init__(self, key: str, state: dict, server: Optional[ManagedServer]) -> None:
        self.key = key
        self.api_base: str = state["api_base"]
        self.served_name: str = state["served_name"]
        self.pgid: int = state["pgid"]
        self.server = server  # set in the process that started it
        self.proc = server.proc if server is not None else None
        self._released = False
        self._lock = threading.Lock()
        atexit.register(self.stop)

    @property
    def started_here(self) -> bool:
        return self.server is not None

    def stop(self) -> None:
        """Stop using the server; the last user stops it. Idempotent."""
        with self._lock:
            if self._released:
                return
            self._released = True
        atexit.unregister(self.stop)
        state_path, lock_path = _paths(self.key)
        with locked(lock_path):
            state = read_state(state_path)
            if state is None or state.get("pgid") != self.pgid:
                return  # already gone (stopped by its supervisor)
            users = [p for p in state["users"] if pid_alive(p)]
            with contextlib.suppress(ValueError):
                users.remove(os.getpid())
            if users:
                write_state(state_path, {**state, "users": users})
                log.info(
                    "left the shared %s server at %s running for %d other user(s)",
                    state["kind"],
                    self.api_base,
                    len(users),
                )
                return
            state_path.unlink(missing_ok=True)
        # outside the lock: the supervisor may be waiting for it while the server stops
        _stop_group(self.pgid, self.server)

    def __enter__(self) -> SharedServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _paths(key: str) -> tuple[Path, Path]:
    d = runtime_dir()
    return d / f"{key}.json", d / f"{key}.lock"


def _stop_group(pgid: int, server: Optional[ManagedServer]) -> None:
    if server is not None:
        server.stop()
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_WAIT_S
    while pid_alive(pgid) and time.monotonic() < deadline:
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def acquire(key: str, kind: str, launch: Callable[[Path, Path], ManagedServer]) -> SharedServer:
    """Use the running server `key` if there is one, else start it with ``launch(state_path, lock_path)``.

    `launch` must return a ready ManagedServer whose supervisor watches `state_path` for live users.
    """
    state_path, lock_path = _paths(key)
    with locked(lock_path):
        state = read_state(state_path)
        if (
            state is not None
            and pid_alive(state["pgid"])
            and http_get_json(state["api_base"].rsplit("/v1", 1)[0] + "/health") is not None
        ):
            state["users"] = [p for p in state["users"] if pid_alive(p)] + [os.getpid()]
            write_state(state_path, state)
            log.info("using the shared %s server at %s (%d users)", kind, state["api_base"], len(state["users"]))
            return SharedServer(key, state, None)
        if state is not None:  # a stale record: its server is gone
            state_path.unlink(missing_ok=True)
        server = launch(state_path, lock_path)
        atexit.unregister(server.stop)  # other processes may still use it when this one exits
        state = {
            "kind": kind,
            "api_base": server.api_base,
            "served_name": server.served_name,
            "pgid": server.pgid,
            "users": [os.getpid()],
        }
        write_state(state_path, state)
        return SharedServer(key, state, server)
