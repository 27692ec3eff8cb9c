"""Managed backends (embedded, vllm_managed): started once per model, routed as OpenAI-compatible,
stopped at close (also on failure). A stand-in `start_managed` points at the test server."""

from __future__ import annotations

import dataclasses
import types

import pytest

from refusalbench.config import ModelConfig
from refusalbench.llm import CallSpec


class FakeServer:
    def __init__(self, url):
        self.api_base = url
        self.served_name = "served-model"
        self.stopped = 0

    def stop(self):
        self.stopped += 1


@pytest.fixture
def fake_servers(test_server, monkeypatch):
    started = []

    def start_managed(cfg, log_dir=None):
        started.append(FakeServer(test_server.url))
        return started[-1]

    import refusalbench.llm.managed as real  # noqa: F401 - make sure the attribute path exists

    monkeypatch.setattr("refusalbench.llm.managed.start_managed", start_managed)
    return started


def cfg(backend="embedded", **kw):
    return ModelConfig(name="local-model", backend=backend, path="/models/x.gguf", max_tokens=32, temperature=0.0, **kw)


def one(text="q"):
    return [CallSpec(key="k", messages=[{"role": "user", "content": text}])]


@pytest.mark.parametrize("backend", ["embedded", "vllm_managed"])
def test_started_once_routed_and_stopped(make_layer, test_server, fake_servers, backend):
    layer = make_layer()
    a = cfg(backend)
    layer.run(a, one("a"), role="evaluated")
    layer.run(dataclasses.replace(a, temperature=0.7), one("b"), role="judge")  # sampling change: same server
    assert len(fake_servers) == 1
    assert [b["model"] for b in test_server.requests] == ["served-model", "served-model"]
    layer.close()
    assert fake_servers[0].stopped == 1


def test_stopped_when_the_block_fails(make_layer, test_server, fake_servers):
    with pytest.raises(RuntimeError):
        with make_layer() as layer:
            layer.run(cfg(), one(), role="evaluated")
            raise RuntimeError("stage failed")
    assert fake_servers[0].stopped == 1


def test_cache_key_ignores_the_server_address(make_layer, test_server, fake_servers):
    first = make_layer()
    first.run(cfg(), one(), role="evaluated")
    first.close()
    second = make_layer()
    [c] = second.run(cfg(), one(), role="evaluated")  # a new server (new port), same model file
    assert c.cached and test_server.request_count == 1
    other = dataclasses.replace(cfg(), path="/models/other.gguf")
    assert second.cache_key(other, one()[0]) != second.cache_key(cfg(), one()[0])


def test_dry_run_starts_no_server(make_layer, fake_servers):
    [c] = make_layer(dry_run=True).run(cfg(), one(), role="evaluated")
    assert c.error == "dry_run" and not fake_servers


def test_fully_cached_run_starts_no_server(make_layer, test_server, fake_servers):
    make_layer().run(cfg(), one(), role="evaluated")
    assert len(fake_servers) == 1
    [c] = make_layer().run(cfg(), one(), role="evaluated")
    assert c.cached and len(fake_servers) == 1


def test_missing_managed_module_is_a_user_error(make_layer, monkeypatch):
    import sys

    from refusalbench.errors import UserError

    monkeypatch.setitem(sys.modules, "refusalbench.llm.managed", types.ModuleType("refusalbench.llm.managed"))
    with pytest.raises(UserError, match="managed-server"):
        make_layer().run(cfg(), one(), role="evaluated")
