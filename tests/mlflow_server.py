"""A real `mlflow server` for tests: SQLite backend store, proxied artifact store, loopback only."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Optional


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class MlflowServer:
    """`with MlflowServer(root) as server:` runs `mlflow server` on 127.0.0.1 at `server.uri`."""

    def __init__(self, root: Path, port: Optional[int] = None, startup_timeout: float = 120.0) -> None:
        self.root = Path(root)
        self.port = port or free_port()
        self.startup_timeout = startup_timeout
        self.proc: Optional[subprocess.Popen] = None
        self.log_path = self.root / "mlflow-server.log"

    @property
    def uri(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> MlflowServer:
        self.root.mkdir(parents=True, exist_ok=True)
        cmd = [
            sys.executable,
            "-m",
            "mlflow",
            "server",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--workers",
            "1",
            "--backend-store-uri",
            f"sqlite:///{self.root / 'server.db'}",
            "--artifacts-destination",
            str(self.root / "artifacts"),
            "--serve-artifacts",
        ]
        env = {k: v for k, v in os.environ.items() if not k.startswith("MLFLOW_")}
        # offline and lean: LiteLLM (imported by the server) must not fetch its price map; no GenAI job runner
        env.update(
            LITELLM_LOCAL_MODEL_COST_MAP="True", LITELLM_TELEMETRY="False", MLFLOW_SERVER_ENABLE_JOB_EXECUTION="false"
        )
        log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            cmd, cwd=self.root, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                log_tail = self.log_path.read_text()[-2000:]
                raise RuntimeError(f"mlflow server exited with {self.proc.returncode}: {log_tail}")
            try:
                with urllib.request.urlopen(f"{self.uri}/health", timeout=2) as resp:
                    if resp.status == 200:
                        return self
            except OSError:
                time.sleep(0.5)
        self.stop()
        log_tail = self.log_path.read_text()[-2000:]
        raise RuntimeError(f"mlflow server did not answer within {self.startup_timeout:.0f} s: {log_tail}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, 15)  # the server and its worker processes (its own session)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, 9)
                self.proc.wait()
        self.proc = None

    def __enter__(self) -> MlflowServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
