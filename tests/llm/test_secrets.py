"""The API key is read from the environment at call time and never written or logged."""

from __future__ import annotations

import logging

import pytest

from refusalbench.llm import CallSpec
from tests.support.configs import model_cfg_for

KEY = "sk-test-SECRET-4f9a2b7c1d"


def every_file_text(root):
    return "".join(p.read_text(errors="replace") for p in root.rglob("*") if p.is_file())


@pytest.mark.parametrize("transport", ["http", "litellm"])
def test_key_is_used_but_never_written_or_logged(make_layer, test_server, tmp_path, monkeypatch, caplog, transport):
    monkeypatch.setenv("RB_TEST_API_KEY", KEY)
    caplog.set_level(logging.DEBUG)
    cfg = model_cfg_for(test_server, api_key_env="RB_TEST_API_KEY", transport=transport, max_retries=1)
    faults = {
        "q0": {"status": 401, "echo_auth": True},  # fails at once, the key echoed back
        "q1": {"status": 500, "echo_auth": True},
    }  # retried, then given up
    test_server.set_responder(lambda body: faults.get(body["messages"][0]["content"], "fine"))
    specs = [CallSpec(key=str(i), messages=[{"role": "user", "content": f"q{i}"}]) for i in range(4)]
    layer = make_layer()
    out = layer.run(cfg, specs, role="generator")
    layer.close()
    assert [c.ok for c in out] == [False, False, True, True] and test_server.request_count == 5
    assert all(f"Bearer {KEY}" == h.get("Authorization") for h in test_server.headers)
    errors = " ".join(c.error for c in out if c.error)
    assert "***" in errors and KEY not in errors
    assert (tmp_path / "run" / "usage.json").exists()
    written = every_file_text(tmp_path)
    assert "test-model" in written and KEY not in written
    assert KEY not in caplog.text


def test_key_is_read_at_call_time(make_layer, test_server, monkeypatch):
    cfg = model_cfg_for(test_server, api_key_env="RB_TEST_API_KEY")
    layer = make_layer(mode="off")
    monkeypatch.setenv("RB_TEST_API_KEY", "first-key-0001")
    layer.run(cfg, [CallSpec(key="a", messages=[{"role": "user", "content": "a"}])], role="generator")
    monkeypatch.setenv("RB_TEST_API_KEY", "second-key-0002")
    layer.run(cfg, [CallSpec(key="a", messages=[{"role": "user", "content": "a"}])], role="generator")
    assert [h["Authorization"] for h in test_server.headers] == ["Bearer first-key-0001", "Bearer second-key-0002"]


def test_local_server_without_key_env_gets_a_dummy_key(layer, test_server):
    layer.run(model_cfg_for(test_server), [CallSpec(key="a", messages=[{"role": "user", "content": "a"}])], "judge")
    assert test_server.headers[0]["Authorization"] == "Bearer EMPTY"
