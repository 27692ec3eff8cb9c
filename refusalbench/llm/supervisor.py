"""The supervisor of a managed model server (run as a script, standard library only).

``python -I supervisor.py --parent PID -- CMD...`` runs CMD in the supervisor's own process group,
forwards SIGTERM and SIGINT to it, and takes the whole group down when the parent process goes away
(SIGKILL, a crash), so no server is left holding a port, memory or a GPU.

A shared server (see :mod:`refusalbench.llm.shared_runtime`) adds ``--users STATE --lock LOCK``:
once the STATE file exists, the server belongs to the processes listed in it, not to the parent,
and the supervisor stops it when none of them is alive any more.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import threading
from typing import Sequence


def pid_alive(pid: int) -> bool:
    """True for a running process (a zombie waiting to be reaped counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def users_gone(state_path: str, lock_path: str) -> bool:
    """Whether no process listed in the shared server's state file is alive (the file is removed then)."""
    with open(lock_path, "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            try:
                with open(state_path) as f:
                    users = json.load(f).get("users", [])
            except FileNotFoundError:
                return True  # the last user removed it and is stopping the server
            except ValueError:
                return False
            if any(pid_alive(int(p)) for p in users):
                return False
            os.unlink(state_path)
            return True
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def supervise(argv: Sequence[str]) -> int:
    """Run ``argv`` after ``--parent PID [--users STATE --lock LOCK] --``; stop the group when unowned."""
    args = list(argv)
    cmd = args[args.index("--") + 1 :]
    args = args[: args.index("--")]
    parent = int(args[args.index("--parent") + 1])
    state = args[args.index("--users") + 1] if "--users" in args else None
    lock = args[args.index("--lock") + 1] if "--lock" in args else None
    shared = False
    child = subprocess.Popen(cmd)
    stopping = threading.Event()

    def forward(signum: int, _frame: object) -> None:
        stopping.set()
        if child.poll() is None:
            child.send_signal(signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    while child.poll() is None:
        shared = shared or (state is not None and os.path.exists(state))
        if shared:
            gone = not stopping.is_set() and users_gone(state, lock)  # type: ignore[arg-type]
        else:
            gone = not stopping.is_set() and os.getppid() != parent
        if gone:
            sys.stderr.write("supervisor: no process uses the server any more; stopping it\n")
            stopping.set()
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            os.killpg(0, signal.SIGTERM)
            try:
                child.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(0, signal.SIGKILL)
        try:
            child.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            pass
    return child.returncode if child.returncode >= 0 else 128 - child.returncode


if __name__ == "__main__":
    sys.exit(supervise(sys.argv[1:]))
