"""The one paragraph that ends a sweep with failed jobs: every distinct error once, in full."""

from __future__ import annotations

from refusalbench.sweep_outcome import FAILED_MARKER, PLANNED_MARKER, SweepOutcome, collect, now


def _job(root, name, marker=None, text=""):
    job = root / name
    (job / ".hydra").mkdir(parents=True)
    (job / ".hydra" / "config.yaml").write_text("{}\n")
    if marker:
        (job / marker).write_text(text)
    return job


def test_the_same_error_of_many_jobs_is_said_once_and_in_full(tmp_path):
    long_reason = "The run cannot start: " + "a missing key explained at length; " * 12 + "Nothing was run."
    jobs = [_job(tmp_path, f"job{i}", FAILED_MARKER, long_reason) for i in range(3)]
    other = _job(tmp_path, "job3", FAILED_MARKER, "dataset.path: FILE does not exist.")
    text = SweepOutcome(tmp_path, jobs=jobs + [other], failed=jobs + [other]).summary()
    assert text.startswith("4 of 4 jobs failed")
    assert text.count("a missing key explained at length") == 12  # one copy, not cut short
    assert "3 jobs (job0, …)" in text and "job3: dataset.path: FILE does not exist" in text


def test_planned_dry_run_jobs_are_not_failures(tmp_path):
    started = now() - 5
    _job(tmp_path, "planned", PLANNED_MARKER)
    _job(tmp_path, "done", "DONE")
    _job(tmp_path, "broken")
    outcome = collect(tmp_path, started, "DONE")
    assert len(outcome.jobs) == 3 and [j.name for j in outcome.failed] == ["broken"]
