"""MLflow tracking: parameters within MLflow's limits, metrics with intervals, artifacts, no secrets."""

from __future__ import annotations

import json

from refusalbench.tracking import flatten, metric_items
from refusalbench.tracking.mlflow_run import Tracker, limits
from refusalbench.tracking.secrets import REDACTED, scrub, scrub_text, secret_values

FAKE_KEY = "sk-test-FAKEKEY-0123456789abcdef0123"


def test_flatten_makes_dotted_keys():
    flat = flatten(
        {"model": {"name": "m", "reasoning": {"budget_tokens": None}}, "stages": ["a", "b"], "panel": [{"x": 1}]}
    )
    assert flat == {
        "model.name": "m",
        "model.reasoning.budget_tokens": "None",
        "stages": '["a", "b"]',
        "panel.0.x": "1",
    }


def test_metric_items_include_bounds_and_prefixed_breakdowns():
    metrics = {
        "refusal_accuracy": {"value": 0.5, "ci_low": 0.4, "ci_high": 0.6, "n": 10},
        "answer_accuracy": {"value": None, "reason": "no quality scores"},
        "breakdowns": {
            "perturbation_class": {"P-Ambiguity": {"refusal_accuracy": {"value": 0.25}}},
            "intensity": {"HIGH": {"refusal_rate": 0.9}},
            "lever_selected": {"Anaphoric 'One' Collision": {"n": 3}},
        },
        "response_distribution": {"truncated": {"count": 1, "share": 0.125}},
    }
    items = metric_items(metrics)
    assert (
        items["refusal_accuracy"] == 0.5
        and items["refusal_accuracy_ci_low"] == 0.4
        and items["refusal_accuracy_n"] == 10
    )
    assert "answer_accuracy" not in items
    assert items["class/P-Ambiguity/refusal_accuracy"] == 0.25
    assert items["intensity/HIGH/refusal_rate"] == 0.9
    assert items["lever/Anaphoric _One_ Collision/n"] == 3
    assert items["response/truncated"] == 0.125


def test_secret_values_come_from_key_like_variables():
    env = {"OPENAI_API_KEY": FAKE_KEY, "HOME": "/root", "MY_TOKEN": "tok-123456", "SHORT_KEY": "1"}
    assert secret_values(env) == [FAKE_KEY, "tok-123456"]
    assert scrub_text(f"key={FAKE_KEY} ok", [FAKE_KEY]) == f"key={REDACTED} ok"
    assert scrub({"a": [f"x{FAKE_KEY}"]}, [FAKE_KEY]) == {"a": [f"x{REDACTED}"]}
    assert REDACTED in scrub_text("sk-abcdefghijklmnopqrstuvwxyz", [])


def test_tracker_logs_within_limits_and_never_stores_a_secret(tmp_path, monkeypatch):
    monkeypatch.setenv("REFUSALBENCH_TEST_API_KEY", FAKE_KEY)
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    batch, val_len, _, _ = limits()
    tracker = Tracker(uri, "exp", "job", tags={"leak": f"value {FAKE_KEY}"})
    params = {f"p{i}": "v" for i in range(batch * 2 + 5)}
    params["long"] = "x" * (val_len + 50)
    params["secret"] = FAKE_KEY
    tracker.log_params(params)
    tracker.log_metrics({"m": 0.5, "nan": float("nan")})
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "config.yaml").write_text(f"api_key: {FAKE_KEY}\n")
    (run_dir / "blob.bin").write_bytes(b"\x00" + FAKE_KEY.encode())
    (run_dir / "metrics.json").write_text(json.dumps({"x": 1}))
    tracker.log_artifacts([run_dir / "config.yaml", run_dir / "blob.bin", run_dir / "metrics.json"])
    tracker.finish()

    run = tracker.client.get_run(tracker.run_id)
    assert len(run.data.params) == len(params)
    assert len(run.data.params["long"]) == val_len
    assert run.data.params["secret"] == REDACTED
    assert run.data.metrics == {"m": 0.5}
    artifacts = {a.path for a in tracker.client.list_artifacts(tracker.run_id)}
    assert artifacts == {"config.yaml", "metrics.json"}  # the binary holding the key was not logged
    for path in tmp_path.rglob("*"):
        if path.is_file() and path.parent != run_dir:
            assert FAKE_KEY.encode() not in path.read_bytes(), path


def test_a_resume_tag_reopens_the_same_run_and_the_ui_shows_source_and_commit(tmp_path):
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    first = Tracker(uri, "exp", "sweep s", tags={"sweep_id": "abc123", "git_commit": "0123abcd"}, resume_tag="sweep_id")
    first.finish()
    again = Tracker(uri, "exp", "sweep s (again)", tags={"sweep_id": "abc123"}, resume_tag="sweep_id")
    assert again.resumed and again.run_id == first.run_id
    run = again.client.get_run(again.run_id)
    assert run.info.status == "RUNNING" and run.info.run_name == "sweep s (again)"
    assert run.data.tags["mlflow.source.name"] == "refusalbench"
    assert run.data.tags["mlflow.source.git.commit"] == "0123abcd"
    other = Tracker(uri, "exp", "sweep t", tags={"sweep_id": "def456"}, resume_tag="sweep_id")
    assert not other.resumed and other.run_id != first.run_id


def test_artifacts_of_several_folders_go_to_the_store_in_one_call(tmp_path, monkeypatch):
    tracker = Tracker(f"sqlite:///{tmp_path / 'mlflow.db'}", "exp", "job", tags={})
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "metrics.json").write_text("{}")
    (tmp_path / "record").mkdir()
    (tmp_path / "record" / "config.yaml").write_text("a: 1\n")
    calls = []
    log = tracker.client.log_artifacts
    monkeypatch.setattr(tracker.client, "log_artifacts", lambda *a, **k: calls.append(a) or log(*a, **k))
    tracker.log_artifacts([tmp_path / "run" / "metrics.json"], more={"hydra": [tmp_path / "record" / "config.yaml"]})
    assert len(calls) == 1
    assert {a.path for a in tracker.client.list_artifacts(tracker.run_id)} == {"metrics.json", "hydra"}
    assert [a.path for a in tracker.client.list_artifacts(tracker.run_id, "hydra")] == ["hydra/config.yaml"]


def test_run_metrics_are_prefixed_by_model_only_when_there_are_several(tmp_path, caplog):
    from refusalbench.config import ScoreConfig
    from refusalbench.metrics.io import save_metrics
    from refusalbench.metrics.models import combine, score_by_model
    from refusalbench.tracking import run_metrics
    from tests.support.scoring import labels_table

    results = score_by_model(labels_table(models=("m-a", "m-b")), settings=ScoreConfig(n_resamples=20))
    one, several, earlier = (tmp_path / name for name in ("one", "several", "earlier"))
    save_metrics(combine({"m-a": results["m-a"]}), one / "metrics.json")
    save_metrics(combine(results), several / "metrics.json")
    save_metrics(results["m-a"], earlier / "metrics.json")  # an earlier version's single-model file
    plain = run_metrics(one)
    assert plain["refusal_accuracy"] == results["m-a"]["refusal_accuracy"]["value"]
    assert "refusal_accuracy_ci_low" in plain and not any("/" in k and k.startswith("m-a") for k in plain)
    assert run_metrics(earlier) == plain
    prefixed = run_metrics(several)
    assert prefixed["m-b/refusal_accuracy"] == results["m-b"]["refusal_accuracy"]["value"]
    assert {k.split("/", 1)[0] for k in prefixed} == {"m-a", "m-b"}
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "metrics.json").write_text(json.dumps({"x": 1}))
    assert run_metrics(tmp_path / "broken") == {} and "no metrics logged to MLflow" in caplog.text
    assert run_metrics(tmp_path / "nothing") == {}


def test_job_tags_fingerprint_the_source_verdicts_the_run_drew_with(tmp_path):
    from hydra import compose, initialize_config_dir

    from refusalbench.cli import validate
    from refusalbench.config import register_configs
    from refusalbench.paths import CONF_DIR
    from refusalbench.tracking import job_tags

    register_configs()
    mine = tmp_path / "verdicts.csv"
    mine.write_text("source_id,passage_id,verdict,notes\nnq-x,passage-y,B,weak\n")
    tags = {}
    for name, override in (
        ("default", []),
        ("off", ["dataset.source_verdicts=null"]),
        ("mine", [f"dataset.source_verdicts={mine}"]),
    ):
        with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
            cfg = validate(compose(config_name="config", overrides=override))
        tags[name] = job_tags(cfg, tmp_path)["source_verdicts_fingerprint"]
    assert tags["off"] == "none" and len({tags["default"], tags["mine"], tags["off"]}) == 3
