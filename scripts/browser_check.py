"""What a user sees in the MLflow UI after a sweep, checked in headless Chromium (`make test-browser`).

Runs a 2 models x 2 reasoning budgets sweep against the local test server (tests/llm_server.py), logging
to a real `mlflow server`, then opens the UI in the system's Chromium (Debian packages `chromium`,
`chromium-driver`) through Playwright — which never downloads a browser of its own here — and saves

  1. docs/mlflow_sweep_runs.png      the experiment page, the sweep's parent run expanded into its jobs
  2. docs/mlflow_run_report.png      one job's report artifact (report/report.md)

Not part of CI: it needs Chromium and takes about a minute. Usage: python scripts/browser_check.py [--out DIR]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "stages")]

from llm_server import LLMTestServer  # noqa: E402
from mlflow_server import MlflowServer  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT = {"width": 1440, "height": 800}


def run_sweep(work: Path, llm_url: str, tracking_uri: str) -> None:
    import rb_eval_helpers as h

    bench = work / "bench.jsonl"
    h.nq_benchmark().to_json(bench, orient="records", lines=True)
    cmd = [
        sys.executable,
        "-m",
        "refusalbench",
        "-m",
        "name=budget-study",
        "hydra/launcher=joblib",
        "hydra.launcher.n_jobs=2",
        "pipeline=evaluate",
        "dataset=refusalbench_nq",
        f"dataset.path={bench}",
        "model=openai_compatible",
        f"model.api_base={llm_url}",
        "model.name=model-a,model-b",
        "reasoning=budget_0,budget_1024",
        "judge=deterministic",
        "score.n_resamples=200",
        f"cache.dir={work / 'cache'}",
        "tracking=server",
        f"tracking.uri={tracking_uri}",
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(cmd, cwd=work, capture_output=True, text=True, env=env, timeout=900)
    if proc.returncode != 0:
        raise SystemExit(f"the sweep failed:\n{proc.stderr[-3000:]}")


def screenshots(uri: str, out: Path, profile: Path) -> list[Path]:
    from mlflow.tracking import MlflowClient
    from playwright.sync_api import sync_playwright

    client = MlflowClient(uri)
    exp = client.get_experiment_by_name("refusalbench")
    runs = client.search_runs([exp.experiment_id])
    parent = next(r for r in runs if "mlflow.parentRunId" not in r.data.tags)
    child = sorted((r for r in runs if "mlflow.parentRunId" in r.data.tags), key=lambda r: r.info.run_name)[0]
    written = [out / "mlflow_sweep_runs.png", out / "mlflow_run_report.png"]
    with sync_playwright() as pw:
        browser = pw.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS, viewport=VIEWPORT
        )
        page = browser.new_page()
        page.set_default_timeout(120_000)  # the UI is slow to load on a busy machine
        page.goto(f"{uri}/#/experiments/{exp.experiment_id}/runs")
        page.get_by_text(parent.info.run_name, exact=True).first.wait_for()
        tidy_ui(page)
        # the tag columns show model and budget in full where the nested run names are cut off
        metrics = ["refusal_accuracy", "answer_accuracy", "calibrated_refusal_score"]
        show_columns(page, [*metrics, "model", "reasoning_budget"], hide=["Dataset", "Models"])
        page.locator("button[data-component-id*='runnamecellrenderer']").first.click()  # expand the parent
        page.get_by_text(child.info.run_name, exact=True).first.wait_for()
        page.wait_for_timeout(1000)
        page.screenshot(path=str(written[0]))

        page.goto(f"{uri}/#/experiments/{exp.experiment_id}/runs/{child.info.run_id}/artifacts/report/report.md")
        page.get_by_text("Headline metrics").first.wait_for()
        page.wait_for_timeout(1000)
        page.screenshot(path=str(written[1]))
        browser.close()
    return written


def tidy_ui(page) -> None:
    """Show the classic tracking view (not the GenAI one) and close the assistant side panel."""
    page.get_by_text("Model training", exact=True).first.click()
    page.wait_for_timeout(1000)
    close = page.locator("[aria-label='Close']")
    if close.count() and close.first.is_visible():
        close.first.click()


def show_columns(page, names: list[str], hide: list[str]) -> None:
    """Tick metric and tag columns (and untick empty attribute columns) in the runs table's Columns menu."""
    page.get_by_text("Columns", exact=True).first.click()
    node = "xpath=//span[contains(@class, 'tree-title')][normalize-space(.)='{}']"  # search highlights split the text
    for name in hide:
        page.locator(node.format(name)).first.click()
    search = page.get_by_placeholder("Search columns")
    for name in names:
        search.fill(name)
        page.wait_for_timeout(700)  # the tree filters after a debounce
        page.locator(node.format(name)).first.click()
    page.keyboard.press("Escape")
    page.wait_for_timeout(500)


def demo_responder(h):
    """The scripted replies for model-a; model-b refuses whatever it is asked, so the two rows differ."""
    scripted = h.scripted(h.NQ_REPLIES)

    def respond(body: dict):
        if body.get("model", "").endswith("model-b"):
            return "**REFUSE_INFO_MISSING_IN_CONTEXT**"
        return scripted(body)

    return respond


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="where the screenshots go (default docs/)")
    parser.add_argument("--uri", help="screenshot this running MLflow server (holding a sweep) instead of making one")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        raise SystemExit(
            f"{CHROMIUM} is missing: apt-get install chromium chromium-driver (or run `make test-browser`)"
        )
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="rb-browser-") as tmp:
        work = Path(tmp)
        if args.uri:
            paths = screenshots(args.uri, args.out, work / "chromium-profile")
            for path in paths:
                print(f"wrote {path} ({path.stat().st_size // 1024} KiB)")
            return
        llm = LLMTestServer().start()
        import rb_eval_helpers as h

        llm.set_responder(demo_responder(h))
        try:
            with MlflowServer(work / "mlflow") as server:
                run_sweep(work, llm.url, server.uri)
                paths = screenshots(server.uri, args.out, work / "chromium-profile")
        finally:
            llm.stop()
    for path in paths:
        print(f"wrote {path} ({path.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
