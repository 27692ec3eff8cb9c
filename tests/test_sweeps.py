"""Real multiruns through Hydra's launchers (basic, joblib, submitit-local — Slurm's code path — and Ray in
local mode), tracked in a SQLite store or a real `mlflow server`: one MLflow parent run per sweep
directory, one child per job, and reruns that skip completed jobs without calling a model, reuse the
parent and add only the missing children. The submitit and Ray sweeps are in the slow tier."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import tests.support.evaluation as h
from tests.mlflow_server import MlflowServer

pytestmark = pytest.mark.integration  # subprocess runs of the CLI

pytest.importorskip("hydra_plugins.hydra_joblib_launcher")

FAKE_KEY = "sk-sweep-FAKE-0123456789abcdefABCDEF"
DEAD_ENDPOINT = "http://127.0.0.1:9/v1"  # nothing listens: a job that called it would fail

JOBLIB = ["hydra/launcher=joblib", "hydra.launcher.n_jobs=2"]
SUBMITIT_LOCAL = ["hydra/launcher=submitit_local", "hydra.launcher.timeout_min=10"]
RAY_LOCAL = [
    "hydra/launcher=ray",
    "+hydra.launcher.ray.init.num_cpus=2",
    "+hydra.launcher.ray.init.include_dashboard=false",
    "+hydra.launcher.ray.init.object_store_memory=100000000",
]


def run_sweep(
    tmp_path: Path,
    api_base: str,
    bench: Path,
    launcher=JOBLIB,
    models="model-a,model-b",
    tracking_uri: str | None = None,
    name: str = "sweeptest",
) -> subprocess.CompletedProcess:
    cmd = [
        sys.executable,
        "-m",
        "refusalbench",
        "-m",
        f"name={name}",
        *launcher,
        "pipeline=evaluate",
        "dataset=refusalbench_nq",
        f"dataset.path={bench}",
        "model=openai_compatible",
        f"model.api_base={api_base}",
        "model.api_key_env=SWEEP_TEST_API_KEY",
        "model.max_retries=0",
        "model.timeout=10",
        f"model.name={models}",
        "reasoning=budget_0,budget_1024",
        "judge=deterministic",
        "score.n_resamples=100",
        f"cache.dir={tmp_path / 'cache'}",
        *(
            ["tracking=server", f"tracking.uri={tracking_uri}"]
            if tracking_uri
            else [f"tracking.uri=sqlite:///{tmp_path / 'mlflow.db'}"]
        ),
    ]
    env = {**os.environ, "SWEEP_TEST_API_KEY": FAKE_KEY}
    return subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=900, env=env)


def write_bench(tmp_path: Path) -> Path:
    bench = tmp_path / "bench.jsonl"
    h.nq_benchmark().to_json(bench, orient="records", lines=True)
    return bench


def sweep_runs(uri: str):
    """(client, parents, children) of the `refusalbench` experiment, deleted runs excluded."""
    from mlflow.tracking import MlflowClient

    client = MlflowClient(uri)
    runs = client.search_runs([client.get_experiment_by_name("refusalbench").experiment_id])
    parents = [r for r in runs if "mlflow.parentRunId" not in r.data.tags]
    children = [r for r in runs if "mlflow.parentRunId" in r.data.tags]
    return client, parents, children


def assert_one_parent_with(uri: str, n_children: int):
    client, parents, children = sweep_runs(uri)
    assert len(parents) == 1, [p.info.run_name for p in parents]
    assert len(children) == n_children, [c.info.run_name for c in children]
    assert {c.data.tags["mlflow.parentRunId"] for c in children} == {parents[0].info.run_id}
    assert len({c.data.tags["refusalbench.job_key"] for c in children}) == n_children
    assert all(c.info.status == "FINISHED" for c in children)
    return client, parents[0], children


def skips_logged(proc: subprocess.CompletedProcess, tmp_path: Path, since: float) -> int:
    """How many jobs said they skipped: in the launcher's output, or in submitit's per-job logs of this run."""
    text = proc.stdout + proc.stderr
    for log in (tmp_path / "multirun").rglob(".submitit/*/*_log.*"):
        if log.stat().st_mtime >= since:
            text += log.read_text(errors="replace")
    return text.count("skipping completed job")


def assert_resumes_without_model_calls(tmp_path, server, bench, launcher, n_jobs, **kw):
    """A rerun against a dead endpoint: finished jobs are found by their semantic identity and skipped."""
    calls, start = len(server.requests), time.time()
    again = run_sweep(tmp_path, DEAD_ENDPOINT, bench, launcher=launcher, **kw)
    assert again.returncode == 0, again.stderr[-3000:]
    assert len(server.requests) == calls
    assert skips_logged(again, tmp_path, start) == n_jobs


@pytest.mark.slow
def test_a_rerun_adds_missing_jobs_to_the_same_parent_through_submitit(tmp_path, test_server):
    """submitit's local executor runs each job as its own process, the code path of the Slurm launcher."""
    pytest.importorskip("hydra_plugins.hydra_submitit_launcher")
    test_server.set_responder(h.scripted(h.NQ_REPLIES))
    bench = write_bench(tmp_path)
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"

    first = run_sweep(tmp_path, test_server.url, bench, launcher=SUBMITIT_LOCAL, models="model-a")
    assert first.returncode == 0, first.stderr[-3000:]
    assert_one_parent_with(uri, 2)
    start = time.time()
    grown = run_sweep(tmp_path, test_server.url, bench, launcher=SUBMITIT_LOCAL, models="model-a,model-b")
    assert grown.returncode == 0, grown.stderr[-3000:]
    assert skips_logged(grown, tmp_path, start) == 2
    assert len(test_server.requests) == 4 * len(h.NQ_ITEMS)  # model-b's two jobs only
    _, parent, children = assert_one_parent_with(uri, 4)
    assert parent.data.tags["refusalbench.jobs_completed"] == "4"
    assert list((tmp_path / "multirun" / "sweeptest" / ".submitit").iterdir())  # the jobs went through submitit

    assert_resumes_without_model_calls(tmp_path, test_server, bench, SUBMITIT_LOCAL, 4)
    assert_one_parent_with(uri, 4)


def _ray_missing_reason() -> str | None:
    if importlib.util.find_spec("hydra_plugins.hydra_ray_launcher") is None:
        return "hydra-ray-launcher is not installed (pip install 'refusalbench[launchers]')"
    return None


@pytest.mark.slow
@pytest.mark.skipif(_ray_missing_reason() is not None, reason=str(_ray_missing_reason()))
def test_ray_local_sweep_parent_children_and_resume(tmp_path, test_server):
    test_server.set_responder(h.scripted(h.NQ_REPLIES))
    bench = write_bench(tmp_path)
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    first = run_sweep(tmp_path, test_server.url, bench, launcher=RAY_LOCAL)
    assert first.returncode == 0, first.stderr[-3000:]
    assert len(test_server.requests) == 4 * len(h.NQ_ITEMS)
    assert_one_parent_with(uri, 4)
    assert_resumes_without_model_calls(tmp_path, test_server, bench, RAY_LOCAL, 4)
    assert_one_parent_with(uri, 4)


def test_parallel_sweep_against_a_tracking_server(tmp_path, test_server):
    """A joblib sweep (two jobs at a time) logs to a real `mlflow server`; runs, metrics and artifacts are read
    back over HTTP; a rerun against a dead endpoint skips every job; re-judging keeps the old record."""
    test_server.set_responder(h.scripted(h.NQ_REPLIES))
    bench = write_bench(tmp_path)
    with MlflowServer(tmp_path / "server") as server:
        first = run_sweep(tmp_path, test_server.url, bench, tracking_uri=server.uri)
        assert first.returncode == 0, first.stderr[-3000:]
        assert len(test_server.requests) == 4 * len(h.NQ_ITEMS)

        client, parent, children = assert_one_parent_with(server.uri, 4)
        assert parent.info.run_name == "sweep sweeptest"
        assert {c.info.run_name for c in children} == {f"model-{m} [budget {b}]" for m in "ab" for b in (0, 1024)}
        assert {c.data.tags["reasoning_budget"] for c in children} == {"0", "1024"}
        for child in children:
            assert 0.0 <= child.data.metrics["refusal_accuracy"] <= 1.0
            assert "refusal_accuracy_ci_low" in child.data.metrics
            names = {a.path for a in client.list_artifacts(child.info.run_id)}
            assert {"metrics.json", "labels.parquet", "report", "hydra", "config_resolved.json"} <= names
            local = client.download_artifacts(
                child.info.run_id, "metrics.json", str(tmp_path / "dl" / child.info.run_id)
            )
            assert '"refusal_accuracy"' in Path(local).read_text()
        report = Path(client.download_artifacts(parent.info.run_id, "report/report.md", str(tmp_path / "dl")))
        assert "| model-a [budget 1024] |" in report.read_text() and "| model-b [budget 0] |" in report.read_text()
        assert not (tmp_path / "mlflow.db").exists() and not (tmp_path / "mlruns").exists()  # nothing logged locally
        sweep_dir = tmp_path / "multirun" / "sweeptest"
        assert len(list(sweep_dir.rglob("DONE"))) == 4
        assert not any("127.0.0.1" in p.name for p in sweep_dir.iterdir())  # endpoints are not part of job names

        # the fake key appears nowhere: run directories, the server's database and its artifact store
        for path in tmp_path.rglob("*"):
            if path.is_file():
                assert FAKE_KEY.encode() not in path.read_bytes(), path

        assert_resumes_without_model_calls(tmp_path, test_server, bench, JOBLIB, 4, tracking_uri=server.uri)
        assert_one_parent_with(server.uri, 4)
        assert not list(sweep_dir.glob("*/.hydra-*"))  # a skipped job leaves no new record

    # re-judging inside a finished job keeps the record of the run that produced its outputs
    job_dir = next(p.parent for p in sweep_dir.rglob("DONE"))
    before = (job_dir / ".hydra" / "config.yaml").read_bytes()
    rejudge = subprocess.run(
        [
            sys.executable,
            "-m",
            "refusalbench",
            "pipeline.stages=[judge,score,report]",
            f"hydra.run.dir={job_dir}",
            "dataset=refusalbench_nq",
            f"dataset.path={bench}",
            "model=openai_compatible",
            "model.name=model-a",
            f"model.api_base={DEAD_ENDPOINT}",
            "judge=deterministic",
            "score.n_resamples=50",
            "tracking=off",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert rejudge.returncode == 0, rejudge.stderr[-3000:]
    assert (job_dir / ".hydra" / "config.yaml").read_bytes() == before
    records = list(job_dir.glob(".hydra-*"))
    assert len(records) == 1 and "pipeline.stages" in (records[0] / "overrides.yaml").read_text()


def test_basic_launcher_sweep(tmp_path, test_server):
    test_server.set_responder(h.scripted(h.NQ_REPLIES))
    bench = write_bench(tmp_path)
    proc = run_sweep(tmp_path, test_server.url, bench, launcher=[], models="model-a")
    assert proc.returncode == 0, proc.stderr[-3000:]
    _, _, children = assert_one_parent_with(f"sqlite:///{tmp_path / 'mlflow.db'}", 2)
    assert all("refusal_accuracy" in c.data.metrics for c in children)


def test_a_failed_job_does_not_stop_the_sweep_and_its_retry_replaces_it(tmp_path, test_server):
    def broken_for_one_model(body):
        if body["model"].endswith("broken"):
            return {"status": 500, "message": "model unavailable"}
        return h.NQ_REPLIES[h.marker_of(body)]

    test_server.set_responder(broken_for_one_model)
    bench = write_bench(tmp_path)
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    proc = run_sweep(tmp_path, test_server.url, bench, launcher=[], models="broken,working")
    assert proc.returncode == 1, proc.stderr[-3000:]  # the sweep completes, and says jobs failed
    assert "Every call to the evaluated model" in proc.stderr and "2 of 4 jobs failed" in proc.stderr
    assert len(list((tmp_path / "multirun" / "sweeptest").rglob("DONE"))) == 2
    client, parents, children = sweep_runs(uri)
    assert len(parents) == 1 and sorted(c.info.status for c in children) == ["FAILED"] * 2 + ["FINISHED"] * 2

    test_server.set_responder(h.scripted(h.NQ_REPLIES))  # the model is back: the retry completes the sweep
    again = run_sweep(tmp_path, test_server.url, bench, launcher=[], models="broken,working")
    assert again.returncode == 0, again.stderr[-3000:]
    _, _, children = assert_one_parent_with(uri, 4)
    every = client.search_runs([parents[0].info.experiment_id], run_view_type=3)  # 3: active and deleted
    failed = [r for r in every if r.info.status == "FAILED"]
    assert len(failed) == 2 and all(r.info.lifecycle_stage == "deleted" for r in failed)
    assert {r.data.tags["refusalbench.superseded_by"] for r in failed} <= {c.info.run_id for c in children}
