"""What the command line says and returns: one paragraph and status 2 per user mistake, a truthful
status for sweeps with failed jobs, and SIGTERM ending the tracked run as KILLED."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

import tests.support.evaluation as h
from refusalbench.overrides import override_problems

REPO = Path(__file__).resolve().parents[1]


def cli(args, cwd, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "refusalbench", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        **kw,
    )


def test_misspelt_group_gets_one_paragraph_with_a_suggestion_and_status_2(tmp_path):
    proc = cli(["modle=x", "reasoning=budget1024"], tmp_path)
    assert proc.returncode == 2
    err = proc.stderr.strip()
    assert "did you mean 'model'?" in err and "did you mean 'budget_1024'?" in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err and "+modle" not in err
    assert not (tmp_path / "outputs").exists()


def test_override_checks_cover_options_and_nested_keys():
    found = override_problems(
        [
            "model=gpt_4",
            "generators.models.gpt.temprature=0.1",
            "select.per_stratum=3",
            "model.extra_params.anything=1",
            "hydra.launcher.n_jobs=2",
            "experiment=null",
        ]
    )
    assert len(found) == 2
    assert "did you mean 'gpt_4o'?" in found[0] or "did you mean 'gpt_4_1'?" in found[0]
    assert "did you mean 'temperature'?" in found[1]


def test_rule_based_backends_are_not_model_options(tmp_path):
    proc = cli(["model=programmatic"], tmp_path)
    assert proc.returncode == 2 and "unknown option 'programmatic' for config group 'model'" in proc.stderr
    assert "it is an option of another group: generators=programmatic" in proc.stderr
    help_text = cli(["--help"], tmp_path).stdout
    model_section = help_text.split("model:", 1)[1].split("pipeline:", 1)[0]
    assert "programmatic" not in model_section and "structural" not in model_section
    assert "score.predictions" in help_text and "model_predicted_type" in help_text


def test_data_typo_leaves_no_run_directory_and_no_tracked_run(tmp_path):
    proc = cli(["dataset.path=/no/such/questions.jsonl"], tmp_path)
    assert proc.returncode == 2
    assert "dataset.path" in proc.stderr and "does not exist" in proc.stderr
    assert not (tmp_path / "outputs").exists() and not (tmp_path / "mlflow.db").exists()


def test_a_user_error_is_printed_once(tmp_path):
    proc = cli(["cache.mode=sometimes", f"hydra.run.dir={tmp_path / 'run'}"], tmp_path)
    assert proc.returncode == 2
    assert (proc.stdout + proc.stderr).count("cache.mode") == 1


def _predictions(path: Path) -> Path:
    rows = [
        ("ANSWER_CORRECTLY", "ANSWER_CORRECTLY"),
        ("REFUSE_INFO_MISSING_IN_CONTEXT", "REFUSE_MISSING"),
        ("ANSWER_CORRECTLY", "REFUSE_AMBIGUOUS_QUERY"),
        ("REFUSE_AMBIGUOUS_QUERY", "ANSWER_CORRECTLY"),
    ] * 5
    pd.DataFrame(rows, columns=["ground_truth_label", "model_predicted_type"]).assign(
        answer_correct=True, source_qid=[f"q{i}" for i in range(20)]
    ).to_csv(path, index=False)
    return path


def test_sweep_with_a_failed_job_exits_1_and_its_parent_run_is_failed(tmp_path):
    from mlflow.tracking import MlflowClient

    good = _predictions(tmp_path / "good.csv")
    proc = cli(
        [
            "-m",
            "name=partly",
            "pipeline=score",
            f"score.predictions={good},{tmp_path / 'missing.csv'}",
            "score.n_resamples=20",
            f"tracking.uri=sqlite:///{tmp_path / 'mlflow.db'}",
        ],
        tmp_path,
    )
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert "1 of 2 jobs failed" in proc.stderr and "missing.csv" in proc.stderr
    client = MlflowClient(f"sqlite:///{tmp_path / 'mlflow.db'}")
    runs = client.search_runs([client.get_experiment_by_name("refusalbench").experiment_id])
    parents = [r for r in runs if r.data.tags.get("refusalbench.kind") == "sweep"]
    assert len(parents) == 1 and parents[0].info.status == "FAILED"
    assert parents[0].data.tags["refusalbench.failed_jobs"] == "1 of 2"


def test_sigterm_marks_the_tracked_run_killed(tmp_path, test_server):
    from mlflow.tracking import MlflowClient

    test_server.set_responder(lambda body: {"content": "slow answer", "latency": 20})
    bench = tmp_path / "bench.jsonl"
    h.nq_benchmark().to_json(bench, orient="records", lines=True)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    args = [
        "pipeline=evaluate",
        "dataset=refusalbench_nq",
        f"dataset.path={bench}",
        "model=openai_compatible",
        "model.name=m",
        f"model.api_base={test_server.url}",
        "cache=off",
        f"tracking.uri=sqlite:///{tmp_path / 'mlflow.db'}",
        f"hydra.run.dir={tmp_path / 'run'}",
    ]
    proc = subprocess.Popen(
        [sys.executable, "-m", "refusalbench", *args],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not test_server.requests and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
        assert test_server.requests, "the run never reached the model"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=180)  # a loaded 2-core machine can take over a minute to close the run
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143, err[-2000:]
    client = MlflowClient(f"sqlite:///{tmp_path / 'mlflow.db'}")
    (run,) = client.search_runs([client.get_experiment_by_name("refusalbench").experiment_id])
    assert run.info.status == "KILLED"


def test_wrong_value_types_are_user_errors_not_hydra_tracebacks(tmp_path):
    found = override_problems(
        [
            "select.per_stratum=abc",
            "run.dry_run=yes",
            "seed=1.5",
            "model.temperature=0",
            "dataset.n_base=null",
            "select.seed=${seed}",
        ]
    )
    assert found == [
        "'select.per_stratum' must be an integer, got 'abc'",
        "'run.dry_run' must be true or false, got 'yes'",
        "'seed' must be an integer, got 1.5",
    ]
    proc = cli(["select.per_stratum=abc"], tmp_path)
    assert proc.returncode == 2 and "must be an integer" in proc.stderr and "HYDRA_FULL_ERROR" not in proc.stderr


def test_sigterm_stops_a_managed_model_server(tmp_path):
    state = tmp_path / "fake"
    state.mkdir()
    bench = tmp_path / "bench.jsonl"
    h.nq_benchmark().to_json(bench, orient="records", lines=True)
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "FAKE_VLLM_DIR": str(state),
        "REFUSALBENCH_VLLM_COMMAND": f"{sys.executable} {Path(__file__).parent / 'fake_vllm.py'}",
    }
    args = [
        "pipeline=evaluate",
        "dataset=refusalbench_nq",
        f"dataset.path={bench}",
        "model=vllm_managed",
        "model.name=m",
        "model.startup_timeout=60",
        "cache=off",
        "tracking=off",
        f"hydra.run.dir={tmp_path / 'run'}",
    ]
    proc = subprocess.Popen(
        [sys.executable, "-m", "refusalbench", *args],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not (state / "requests").exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
        assert (state / "requests").exists(), proc.communicate(timeout=5)[1][-2000:] if proc.poll() is not None else ""
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=180)  # a loaded 2-core machine can take over a minute to close the run
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143, err[-2000:]
    server_pid = int((state / "pid").read_text())
    deadline = time.monotonic() + 15
    while _alive(server_pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _alive(server_pid), "the managed server outlived the run"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "zombie" in status.read_text())


def test_composition_error_inside_a_preset_is_one_paragraph_with_status_2(tmp_path):
    questions = tmp_path / "nq.jsonl"
    questions.write_text('{"question": "q", "answers": ["a"], "ctxs": [{"title": "t", "text": "a"}]}\n')
    proc = cli(
        [
            "experiment=paper_nq",
            f"dataset.path={questions}",
            "generators.models.gtp.max_tokens=100",
            "run.dry_run=true",
        ],
        tmp_path,
    )
    assert proc.returncode == 2, proc.stderr[-2000:]
    err = proc.stderr.strip()
    assert len(err.splitlines()) == 1 and err.startswith("refusalbench: error: The configuration cannot be composed")
    assert "did you mean 'gpt'?" in err and "HYDRA_FULL_ERROR" not in err and "+generators" not in err
    assert not (tmp_path / "outputs").exists()


def test_a_dry_run_sweep_plans_every_job_and_reports_no_failure(tmp_path):
    good = _predictions(tmp_path / "good.csv")
    proc = cli(
        [
            "-m",
            "pipeline=score",
            f"score.predictions={good}",
            "score.n_resamples=10,20",
            "run.dry_run=true",
            f"tracking.uri=sqlite:///{tmp_path / 'mlflow.db'}",
        ],
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "jobs failed" not in proc.stderr
    assert len(list((tmp_path / "multirun").rglob("estimate.json"))) == 2
    assert not (tmp_path / "mlflow.db").exists()  # a dry run logs no MLflow run, not even a sweep parent


def test_missing_score_columns_are_found_before_tracking(tmp_path):
    predictions = tmp_path / "preds.csv"
    predictions.write_text("id,model_output,label\n1,x,ANSWER_CORRECTLY\n")
    proc = cli(
        ["pipeline=score", f"score.predictions={predictions}", f"tracking.uri=sqlite:///{tmp_path / 'mlflow.db'}"],
        tmp_path,
    )
    assert proc.returncode == 2
    assert "'predicted_label': one of" in proc.stderr and "'expected_rag_behavior': one of" in proc.stderr
    assert not (tmp_path / "outputs").exists() and not (tmp_path / "mlflow.db").exists()


def test_a_placeholder_server_address_is_a_user_error(tmp_path):
    proc = cli(["model=openai_compatible", "model.name=NAME", "model.api_base=http://HOST:PORT/v1"], tmp_path)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "api_base 'http://HOST:PORT/v1' is not a valid URL" in proc.stderr and "Traceback" not in proc.stderr


def test_a_stage_without_its_input_table_stops_before_tracking(tmp_path):
    store = f"tracking.uri=sqlite:///{tmp_path / 'mlflow.db'}"
    proc = cli(["pipeline=score", store], tmp_path)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "labels.parquet, which does not exist: set score.predictions=FILE" in proc.stderr
    rejudge = cli(["pipeline.stages=[judge,score,report]", f"hydra.run.dir={tmp_path / 'old'}", store], tmp_path)
    assert rejudge.returncode == 2 and "run the evaluate stage first" in rejudge.stderr
    assert not (tmp_path / "outputs").exists() and not (tmp_path / "old").exists()
    assert not (tmp_path / "mlflow.db").exists()


def test_a_dataset_without_its_file_names_the_kind_plainly(tmp_path):
    proc = cli(["dataset=nq"], tmp_path)
    assert proc.returncode == 2 and "dataset kind 'nq' needs dataset.path=FILE" in proc.stderr
