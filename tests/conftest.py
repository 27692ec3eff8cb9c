"""Shared fixtures. `test_server`: the OpenAI-compatible test server (tests/llm_server.py)."""

from __future__ import annotations

import pytest

from tests.llm_server import LLMTestServer


def pytest_configure(config):
    # LiteLLM's lazily imported types emit pydantic schema warnings that concern no test
    config.addinivalue_line("filterwarnings", "ignore:.*using the `ReadOnly` qualifier:UserWarning")


@pytest.fixture(scope="session")
def _llm_test_server():
    server = LLMTestServer().start()
    yield server
    server.stop()


@pytest.fixture
def test_server(_llm_test_server):
    """The running test server, reset (no requests, no script, default responder) for each test."""
    _llm_test_server.reset()
    yield _llm_test_server
    _llm_test_server.reset()


@pytest.fixture(scope="session", autouse=True)
def _mlflow_store_templates(tmp_path_factory):
    """New SQLite tracking stores are copied from a template made once per test session, not from ~/.cache."""
    from refusalbench.tracking.sqlite_store import TEMPLATES_ENV

    mp = pytest.MonkeyPatch()
    mp.setenv(TEMPLATES_ENV, str(tmp_path_factory.mktemp("mlflow-templates")))
    yield
    mp.undo()
