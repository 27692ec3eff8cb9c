"""Sweep job identity: directory names and labels come from the overrides that change results."""

from __future__ import annotations

from refusalbench.tracking.job_identity import identity_overrides, job_key, job_label, swept_keys
from refusalbench.tracking.records import discard_new_record, record_subdir

BASE = [
    "pipeline=evaluate",
    "dataset=refusalbench_nq",
    "dataset.path=/data/bench.jsonl",
    "model=openai_compatible",
    "model.name=model-a",
    "reasoning=budget_1024",
    "seed=3",
]


def test_endpoints_keys_and_concurrency_do_not_change_a_jobs_identity():
    one = job_key([*BASE, "model.api_base=http://127.0.0.1:8001/v1", "model.api_key_env=KEY_A", "name=s"])
    other = job_key(
        [
            *BASE,
            "model.api_base=http://10.0.0.5:9999/v1",
            "model.api_key_env=KEY_B",
            "model.max_concurrency=64",
            "model.timeout=30",
            "cache.dir=/elsewhere",
            "tracking.uri=http://h:5000",
            "model.rpm=100",
        ]
    )
    assert one == other
    assert "127.0.0.1" not in one and "KEY_A" not in one


def test_semantic_settings_change_the_identity_and_lead_the_name():
    a = job_key(BASE)
    assert job_key([o.replace("model-a", "model-b") for o in BASE]) != a
    assert job_key([o.replace("budget_1024", "budget_0") for o in BASE]) != a
    assert job_key([o.replace("seed=3", "seed=4") for o in BASE]) != a
    assert job_key([o.replace("/data/bench.jsonl", "/data/other.jsonl") for o in BASE]) != a
    assert a.startswith("model.name@model-a+model@openai_compatible+reasoning@budget_1024")
    assert "=" not in a and "," not in a  # usable unquoted in a Hydra override (hydra.run.dir=…)
    assert "/" not in a and len(a) <= 90
    assert job_key(list(reversed(BASE))) == a  # order on the command line does not matter


def test_identity_keeps_generator_settings_but_drops_their_endpoints():
    kept = identity_overrides(["generators.models.0.temperature=0.7", "generators.models.0.api_base=http://x/v1"])
    assert kept == ["generators.models.0.temperature=0.7"]
    assert job_key([]) == "default"


def test_swept_keys_from_the_command_line_and_sweeper_params():
    keys = swept_keys(["model.name=a,b", "pipeline=evaluate", "seed=range(1,3)"], {"reasoning": "budget_0,budget_1024"})
    assert keys == ["model.name", "reasoning", "seed"]


def test_job_label_names_model_budget_and_other_swept_settings():
    assert job_label("model-a", 1024) == "model-a [budget 1024]"
    assert job_label("model-a", None) == "model-a"
    assert job_label("model-a", 0, BASE, ["model.name", "reasoning", "seed"]) == "model-a [budget 0], seed=3"


def test_a_second_run_in_a_directory_writes_its_record_beside_the_first(tmp_path):
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    assert record_subdir(str(fresh)) == ".hydra"
    old = tmp_path / "old"
    (old / ".hydra").mkdir(parents=True)
    name = record_subdir(str(old))
    assert name.startswith(".hydra-") and record_subdir(str(old)) == name  # stable within a process
    (old / name).mkdir()
    (old / name / "config.yaml").write_text("x: 1\n")
    discard_new_record(old, name)
    assert not (old / name).exists() and (old / ".hydra").is_dir()
    discard_new_record(old, ".hydra")  # the first record is never removed
    assert (old / ".hydra").is_dir()
