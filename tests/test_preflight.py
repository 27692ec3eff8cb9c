"""Preflight: every problem of every model of the run, found before any call, in one message."""

from __future__ import annotations

import socket

import pytest
from hydra import compose, initialize_config_dir

from refusalbench.cli import validate
from refusalbench.config import register_configs
from refusalbench.paths import CONF_DIR, PACKAGE_DATA_DIR
from refusalbench.preflight import PreflightError, api_base_problem, models_in_run, preflight, probe_endpoint

register_configs()
SAMPLE = str(PACKAGE_DATA_DIR / "nq_sample.jsonl")
AWS_VARS = (
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_PROFILE",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_BEARER_TOKEN_BEDROCK",
    "AWS_SHARED_CREDENTIALS_FILE",
)


def typed(overrides):
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        return validate(compose("config", overrides=overrides))


@pytest.fixture
def no_credentials(monkeypatch, tmp_path):
    for var in AWS_VARS + ("OPENAI_API_KEY",):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))  # no ~/.aws/credentials


def closed_port_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def test_default_offline_run_passes():
    preflight(typed([]))


def test_every_missing_credential_of_every_stage_is_reported_at_once(no_credentials):
    cfg = typed(["experiment=paper_nq", f"dataset.path={SAMPLE}"])
    roles = {u.role for u in models_in_run(cfg)}
    assert roles == {"generator", "verifier", "evaluated", "judge"}
    with pytest.raises(PreflightError) as err:
        preflight(cfg)
    text = str(err.value)
    assert "AWS" in text and "OPENAI_API_KEY" in text
    for model_id in ("claude-sonnet-4", "gpt-4o", "deepseek-r1", "nova-pro"):
        assert model_id in text
    assert "\n" not in text


def test_credentials_present_pass(no_credentials, monkeypatch):
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIAEXAMPLE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    preflight(typed(["experiment=paper_nq", f"dataset.path={SAMPLE}"]))


def test_reasoning_budget_on_a_model_without_thinking_fails(monkeypatch):
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIAEXAMPLE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret")
    base = ["pipeline=evaluate", "dataset=refusalbench_nq", f"dataset.path={SAMPLE}"]
    with pytest.raises(PreflightError, match="no extended thinking"):
        preflight(typed(base + ["model=claude_3_5_sonnet", "reasoning=budget_1024"]))
    preflight(typed(base + ["model=claude_3_5_sonnet", "reasoning=budget_0"]))
    preflight(typed(base + ["model=claude_sonnet_4", "reasoning=budget_1024"]))


def test_output_tokens_beyond_the_context_size_fail():
    with pytest.raises(PreflightError, match="context_size"):
        preflight(typed(["model.context_size=256"]))


def test_unreachable_endpoint_is_reported(test_server):
    common = [
        "pipeline=evaluate",
        "dataset=refusalbench_nq",
        f"dataset.path={SAMPLE}",
        "model=openai_compatible",
        "model.name=test-model",
    ]
    preflight(typed(common + [f"model.api_base={test_server.url}"]))
    dead = closed_port_url()
    with pytest.raises(PreflightError, match="not reachable"):
        preflight(typed(common + [f"model.api_base={dead}"]))


def test_probe_reports_a_rejected_key():
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer

    class Reject(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(401)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Reject)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        assert "rejected the API key" in probe_endpoint(f"http://127.0.0.1:{server.server_port}/v1", "bad")
    finally:
        server.shutdown()


def test_missing_input_files_are_all_named():
    with pytest.raises(PreflightError) as err:
        preflight(typed(["dataset.path=/no/such/nq.jsonl", "evaluate.benchmark=/no/such/bench.parquet"]))
    assert "dataset.path" in str(err.value) and "evaluate.benchmark" in str(err.value)


def test_rule_based_backend_as_evaluated_model_is_a_user_message():
    with pytest.raises(PreflightError, match="rule-based generator, not a model"):
        preflight(typed(["model.backend=programmatic"]))


def test_dry_run_needs_no_keys(no_credentials):
    preflight(typed(["experiment=paper_nq", f"dataset.path={SAMPLE}", "run.dry_run=true"]))


def test_a_mistyped_file_name_gets_a_suggestion(tmp_path):
    (tmp_path / "questions.jsonl").write_text("{}\n")
    cfg = typed([f"dataset.path={tmp_path / 'questoins.jsonl'}"])
    with pytest.raises(PreflightError, match=r"does not exist .*did you mean '.*questions\.jsonl'\?"):
        preflight(cfg)


def test_a_server_address_must_be_a_url():
    assert api_base_problem("http://127.0.0.1:8000/v1") is None
    assert "not a valid URL" in api_base_problem("http://HOST:PORT/v1")
    assert "not an http(s) URL" in api_base_problem("localhost:8000")
    assert "not reachable" in probe_endpoint("http://HOST:PORT/v1", None)  # no exception escapes the probe
