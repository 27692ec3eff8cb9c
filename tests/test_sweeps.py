"""A real multirun through the joblib launcher: one MLflow parent run, one child per job, and a
second identical invocation that skips every completed job without calling a model."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "stages"))
import rb_eval_helpers as h  # noqa: E402

pytestmark = pytest.mark.integration  # subprocess runs of the CLI

pytest.importorskip("hydra_plugins.hydra_joblib_launcher")

FAKE_KEY = "sk-sweep-FAKE-0123456789abcdefABCDEF"


JOBLIB = ["hydra/launcher=joblib", "hydra.launcher.n_jobs=2"]


def run_sweep(tmp_path: Path, server, bench: Path, launcher=JOBLIB, models="model-a,model-b") -> subprocess.CompletedProcess:
    cmd = [
        sys.executable, "-m", "refusalbench", "-m", "name=sweeptest", *launcher,
        "pipeline=evaluate", "dataset=refusalbench_nq", f"dataset.path={bench}",
        "model=openai_compatible", f"model.api_base={server.url}", "model.api_key_env=SWEEP_TEST_API_KEY",
        f"model.name={models}", "reasoning=budget_0,budget_1024",
        "judge=deterministic", "score.n_resamples=100",
        f"cache.dir={tmp_path / 'cache'}", f"tracking.uri=sqlite:///{tmp_path / 'mlflow.db'}",
    ]
    env = {**os.environ, "SWEEP_TEST_API_KEY": FAKE_KEY}
    return subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=600, env=env)


def test_joblib_sweep_parent_children_and_resume(tmp_path, test_server):
    from mlflow.tracking import MlflowClient

    test_server.set_responder(h.scripted(h.NQ_REPLIES))
    bench = tmp_path / "bench.jsonl"
    h.nq_benchmark().to_json(bench, orient="records", lines=True)

    first = run_sweep(tmp_path, test_server, bench)
    assert first.returncode == 0, first.stderr[-3000:]
    calls = len(test_server.requests)
    assert calls == 4 * len(h.NQ_ITEMS)

    client = MlflowClient(f"sqlite:///{tmp_path / 'mlflow.db'}")
    exp = client.get_experiment_by_name("refusalbench")
    runs = client.search_runs([exp.experiment_id])
    parents = [r for r in runs if "mlflow.parentRunId" not in r.data.tags]
    children = [r for r in runs if "mlflow.parentRunId" in r.data.tags]
    assert len(parents) == 1 and len(children) == 4
    assert {c.data.tags["mlflow.parentRunId"] for c in children} == {parents[0].info.run_id}
    assert {c.data.tags["reasoning_budget"] for c in children} == {"0", "1024"}
    for child in children:
        assert "refusal_accuracy" in child.data.metrics and "refusal_accuracy_ci_low" in child.data.metrics
        assert child.info.status == "FINISHED"
        names = {a.path for a in client.list_artifacts(child.info.run_id)}
        assert {"metrics.json", "labels.parquet", "report", "hydra", "config_resolved.json"} <= names
    parent_artifacts = {a.path for a in client.list_artifacts(parents[0].info.run_id)}
    assert "report" in parent_artifacts
    sweep_dir = tmp_path / "multirun" / "sweeptest"
    assert (sweep_dir / "report" / "report.md").exists()
    assert len(list(sweep_dir.rglob("DONE"))) == 4

    # the fake key appears nowhere in the tracking store, the artifacts or the run directories
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert FAKE_KEY.encode() not in path.read_bytes(), path

    second = run_sweep(tmp_path, test_server, bench)
    assert second.returncode == 0, second.stderr[-3000:]
    assert len(test_server.requests) == calls  # no model call at all
    assert (second.stdout + second.stderr).count("skipping completed job") == 4


def test_basic_launcher_sweep(tmp_path, test_server):
    from mlflow.tracking import MlflowClient

    test_server.set_responder(h.scripted(h.NQ_REPLIES))
    bench = tmp_path / "bench.jsonl"
    h.nq_benchmark().to_json(bench, orient="records", lines=True)
    proc = run_sweep(tmp_path, test_server, bench, launcher=[], models="model-a")
    assert proc.returncode == 0, proc.stderr[-3000:]
    client = MlflowClient(f"sqlite:///{tmp_path / 'mlflow.db'}")
    runs = client.search_runs([client.get_experiment_by_name("refusalbench").experiment_id])
    children = [r for r in runs if "mlflow.parentRunId" in r.data.tags]
    assert len(runs) == 3 and len(children) == 2
    assert all("refusal_accuracy" in c.data.metrics for c in children)


def test_a_failed_job_does_not_stop_the_sweep(tmp_path, test_server):
    test_server.set_responder(h.scripted(h.NQ_REPLIES))
    bench = tmp_path / "bench.jsonl"
    h.nq_benchmark().to_json(bench, orient="records", lines=True)
    cmd = [sys.executable, "-m", "refusalbench", "-m", "name=failtest", "pipeline=evaluate", "dataset=refusalbench_nq",
           f"dataset.path={bench}", "model=openai_compatible", "model.name=m", "model.max_retries=0", "model.timeout=5",
           f"model.api_base=http://127.0.0.1:9/v1,{test_server.url}", "judge=deterministic", "score.n_resamples=50",
           f"cache.dir={tmp_path / 'cache'}", "tracking=off"]
    proc = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr[-3000:]  # the sweep completes, and says a job failed
    assert "not reachable" in proc.stderr and "1 of 2 jobs failed" in proc.stderr
    assert len(list((tmp_path / "multirun" / "failtest").rglob("DONE"))) == 1
