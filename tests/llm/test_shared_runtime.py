"""One server per machine: users share it, the last one stops it, dead users are pruned (stand-in server)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from refusalbench.llm import shared_runtime
from refusalbench.llm.cpus import available_cpus, cgroup_cpu_limit
from refusalbench.llm.servers import ManagedServer, free_port, http_get_json
from tests.llm.test_servers import FAKE_VLLM, _alive, _wait_dead

pytestmark = pytest.mark.integration  # child processes


# A second process using the shared server; prints its api_base once it holds a use.
USER = textwrap.dedent("""
    import sys, time
    from refusalbench.llm import shared_runtime
    def refuse(state, lock):
        raise SystemExit("no server to share")
    use = shared_runtime.acquire(sys.argv[1], "fake", refuse)
    print(use.api_base, flush=True)
    time.sleep(300)
""")


@pytest.fixture
def launch(tmp_path, monkeypatch):
    monkeypatch.setenv(shared_runtime.RUNTIME_ENV, str(tmp_path / "runtime"))
    monkeypatch.setenv("FAKE_VLLM_INFO", str(tmp_path / "info.json"))
    script = tmp_path / "fake_vllm.py"
    script.write_text(FAKE_VLLM)
    started = []

    def start(state: Path, lock: Path) -> ManagedServer:
        port = free_port()
        cmd = [sys.executable, str(script), "serve", "m", "--host", "127.0.0.1", "--port", str(port)]
        server = ManagedServer(
            cmd,
            kind="fake",
            log_path=tmp_path / "server.log",
            grace_s=5,
            supervisor_args=["--users", str(state), "--lock", str(lock)],
        )
        started.append(server.wait_ready(20, base_url=f"http://127.0.0.1:{port}"))
        return started[-1]

    start.started = started
    return start


def healthy(api_base: str) -> bool:
    return http_get_json(api_base.rsplit("/v1", 1)[0] + "/health") is not None


def spawn_user(key: str) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    proc = subprocess.Popen([sys.executable, "-c", USER, key], stdout=subprocess.PIPE, text=True, env=env)
    return proc, proc.stdout.readline().strip()


def test_users_share_one_server_and_the_last_stops_it(launch):
    a = shared_runtime.acquire("k1", "fake", launch)
    b = shared_runtime.acquire("k1", "fake", launch)
    assert len(launch.started) == 1 and a.started_here and not b.started_here and a.api_base == b.api_base
    a.stop()
    assert healthy(b.api_base)  # b still uses it
    b.stop()
    assert _wait_dead([launch.started[0].proc.pid])
    c = shared_runtime.acquire("k1", "fake", launch)  # a fresh start after the last user left
    assert len(launch.started) == 2 and c.started_here
    c.stop()


def test_a_second_process_keeps_the_server_and_its_death_stops_it(launch):
    first = shared_runtime.acquire("k2", "fake", launch)
    proc, api_base = spawn_user("k2")
    try:
        assert api_base == first.api_base
        first.stop()  # the starter is done; the other process still uses the server
        time.sleep(1.5)
        assert healthy(api_base)
        proc.send_signal(signal.SIGKILL)  # the last user dies without saying so
        proc.wait()
        assert _wait_dead([launch.started[0].proc.pid])  # the supervisor notices and stops the server
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_stale_record_is_replaced(launch):
    a = shared_runtime.acquire("k3", "fake", launch)
    os.killpg(a.pgid, signal.SIGKILL)  # the server dies under its users
    assert _wait_dead([a.pgid]) and not _alive(a.pgid)
    b = shared_runtime.acquire("k3", "fake", launch)
    assert b.started_here and b.api_base != a.api_base and healthy(b.api_base)
    b.stop()
    a.stop()


def test_cpus_follow_affinity_and_cgroup_quota(tmp_path):
    assert 1 <= available_cpus() <= len(os.sched_getaffinity(0))
    quota = tmp_path / "cpu.max"
    quota.write_text("150000 100000\n")
    assert cgroup_cpu_limit(quota) == 1.5
    quota.write_text("max 100000\n")
    assert cgroup_cpu_limit(quota) is None
    assert cgroup_cpu_limit(tmp_path / "missing") is None
