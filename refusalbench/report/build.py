"""`build_report`: metrics of one or many runs → ``report.md`` + CSV tables + PNG figures."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Optional

import pandas as pd

from refusalbench.metrics.official import convention_differences
from refusalbench.metrics.prepare import RULE
from refusalbench.report import plots, rq3, tables
from refusalbench.report.collect import expand
from refusalbench.report.glossary import SAME_NUMBER_AS, glossary_markdown
from refusalbench.report.notes import reading_notes
from refusalbench.report.paper import comparison_table, load_paper_numbers
from refusalbench.taxonomy import INTENSITIES

log = logging.getLogger(__name__)

HEADLINE_COLUMNS = [
    ("refusal_accuracy", "refusal acc."),
    ("answer_accuracy", "answer acc."),
    ("calibrated_refusal_score", "CRS"),
    ("false_refusal_rate", "FRR"),
    ("missed_refusal_rate", "MRR"),
    ("detection_f1", "detection F1"),
    ("category_accuracy", "category acc."),
    ("hierarchical_refusal_score", "HRS"),
]


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")[:80] or "run"


def _csv(df: pd.DataFrame, out: Path, name: str, written: list[Path]) -> Path:
    path = out / name
    df.to_csv(path, index=False)
    written.append(path)
    return path


def build_report(
    metrics_by_run: dict[str, dict], out_dir: str | Path, paper_numbers: bool = True, paper_file: Optional[Path] = None
) -> Path:
    """Write the report of `metrics_by_run` ({run label: metrics JSON object}) into `out_dir`.

    Returns the path of ``report.md``. Figures and CSV files sit beside it.
    """
    out = Path(out_dir)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    runs = expand(metrics_by_run)
    written: list[Path] = []
    md: list[str] = ["# RefusalBench report", ""]
    head = rq3.add_params(tables.headline(runs))
    duplicates = [c for c in head.columns if any(c == d or c.startswith(d + "_ci_") for d in SAME_NUMBER_AS)]
    head = head.drop(columns=duplicates)  # one number, one name (see the glossary)
    _csv(head, out, "headline.csv", written)
    first_meta = next(iter(runs.values()), {}).get("meta", {})
    benchmarks = sorted({str(m.get("meta", {}).get("benchmark")) for m in runs.values()})
    conventions = sorted({str(m.get("meta", {}).get("convention") or "strict") for m in runs.values()})
    md += [
        f"{len(runs)} run(s) on {', '.join(benchmarks)}. Intervals: 95% percentile bootstrap over source questions "
        f"({first_meta.get('n_resamples')} resamples, seed {first_meta.get('seed')}); "
        "Wilson intervals in the CSV files. "
        f"Scoring convention: {', '.join(conventions)} (see the last section; the comparison with the paper's "
        "numbers always uses the official convention).",
        "",
        "## Headline metrics (best refusal accuracy first)",
        "",
    ]
    md += relabel_warnings(head, runs)
    if not head.empty:
        view = pd.DataFrame({"run": head["run"], "n": head["n"]})
        for key, label in HEADLINE_COLUMNS:
            view[label] = tables.with_interval(head, key)
        view["truncated"], view["unscored"] = head["truncated"], head["unscored"]
        md += [tables.to_markdown(view), ""]
        notes = reading_notes(runs)
        for note in notes[2:-1]:
            log.info("report: %s", note.removeprefix("- "))
        md += notes
        md += _figure(
            plots.ranking(head, out / "figures" / "refusal_accuracy_ranking.png"),
            out,
            "Refusal-accuracy ranking",
            written,
        )
        md += _figure(
            plots.dashboard(head, out / "figures" / "calibrated_refusal_dashboard.png"),
            out,
            "Calibrated-refusal dashboard",
            written,
        )
        md += _figure(
            plots.detection_vs_categorisation(head, out / "figures" / "detection_vs_categorisation.png"),
            out,
            "Detection vs categorisation",
            written,
        )

    differ = pd.DataFrame([{"run": run, **row} for run, m in runs.items() for row in convention_differences(m)])
    if not differ.empty:
        _csv(differ, out, "convention_differences.csv", written)
        md += [
            "### Where the scoring conventions differ",
            "",
            "Headline metrics whose strict and official values differ by more than the half-width of the reported "
            "interval: both are shown.",
            "",
            tables.to_markdown(differ),
            "",
        ]

    paired = tables.paired_differences(runs, head)
    if not paired.empty:
        _csv(paired, out, "paired_differences.csv", written)
        view = paired[paired["metric"].isin(["refusal_accuracy", "calibrated_refusal_score"])]
        md += [
            "## Paired differences against the best run",
            "",
            "Difference = run − reference on the same items (paired bootstrap).",
            "",
            tables.to_markdown(view),
            "",
        ]

    intensity = tables.refusal_rate_by_intensity(runs)
    if not intensity.empty:
        _csv(intensity, out, "refusal_rate_by_intensity.csv", written)
        wide = intensity.pivot(index="run", columns="intensity", values="refusal_rate")
        wide = wide.reindex(columns=[i for i in INTENSITIES if i in wide.columns]).reset_index()
        md += ["## Refusal rate by intensity (all items; LOW = false-refusal rate)", "", tables.to_markdown(wide), ""]
        md += _figure(
            plots.intensity_curves(intensity, out / "figures" / "refusal_rate_by_intensity.png"),
            out,
            "Refusal rate by intensity",
            written,
        )

    heat = tables.class_intensity(runs)
    heat_n = tables.class_intensity(runs, field="n")
    if heat:
        md += [
            "## Refusal rate per class × intensity",
            "",
            "LOW items are answerable, so a refusal there is a false refusal (left panel, lower is better); at "
            "MEDIUM and HIGH a refusal is due (right panel, higher is better). n = items per cell.",
            "",
        ]
        for run, frame in heat.items():
            fig = plots.heatmap(
                frame,
                out / "figures" / f"class_intensity_{_slug(run)}.png",
                f"Refusal rate: {run}",
                counts=heat_n.get(run),
            )
            md += _figure(fig, out, run, written)
    _csv(tables.breakdown_long(runs), out, "breakdowns.csv", written)

    dist = tables.response_distribution(runs)
    _csv(dist, out, "response_distribution.csv", written)
    md += ["## Response distribution (share of items)", "", tables.to_markdown(dist), ""]

    md += ["## Confusion matrices (expected × predicted, row-normalised)", ""]
    for run, m in runs.items():
        matrix = m.get("confusion_matrix")
        if matrix:
            counts = pd.DataFrame(matrix["counts"], index=matrix["rows"], columns=matrix["columns"])
            counts.to_csv(out / f"confusion_{_slug(run)}.csv")
            written.append(out / f"confusion_{_slug(run)}.csv")
            md += _figure(
                plots.confusion(matrix, out / "figures" / f"confusion_{_slug(run)}.png", f"Confusion: {run}"),
                out,
                run,
                written,
            )

    calib = tables.calibration(runs)
    if not calib.empty:
        _csv(calib, out, "calibration.csv", written)
        md += ["## Calibration of stated confidence", "", tables.to_markdown(calib), ""]
        for run, m in runs.items():
            c = m.get("calibration") or {}
            if c.get("available"):
                fig = plots.reliability(
                    c["reliability_10bin"], out / "figures" / f"reliability_{_slug(run)}.png", f"Reliability: {run}"
                )
                md += _figure(fig, out, run, written)

    mp = tables.multi_passage(runs)
    if not mp.empty:
        _csv(mp, out, "multi_passage.csv", written)
        md += [
            "## Multi-passage (GaRAGe) answer quality",
            "",
            "`raf_flag`: the original code's relevance-aware factuality flag; "
            "`raf_eligible`: the GaRAGe paper's version (eligible and factual on relevant passages).",
            "",
            tables.to_markdown(mp),
            "",
        ]

    if not head.empty:
        curve = plots.thinking_budget(head, out / "figures" / "thinking_budget.png")
        if curve is not None:
            md += ["## Thinking-budget curves", ""] + _figure(curve, out, "Thinking budget", written)
    rq3_md, rq3_files = rq3.sections(runs, head, out)
    md += rq3_md
    written += rq3_files

    if paper_numbers:
        comparison = comparison_table(runs, load_paper_numbers(paper_file))
        _csv(comparison, out, "paper_comparison.csv", written)
        md += ["## Beside the paper's reported numbers", ""]
        if comparison.empty:
            md += ["No run matches a model of the paper's reported numbers.", ""]
        else:
            md += [
                tables.to_markdown(
                    comparison,
                    [
                        "run",
                        "paper_model",
                        "paper_metric",
                        "ours",
                        "ours_ci_low",
                        "ours_ci_high",
                        "paper",
                        "paper_location",
                        "note",
                    ],
                ),
                "",
            ]

    rules = {str(m.get("meta", {}).get("truncated_unscored_rule_text") or RULE) for m in runs.values()}
    md += ["## Scoring convention and the rule for truncated, unscored and ERROR responses", ""]
    for rule in sorted(rules):
        md += [rule, ""]
    md += glossary_markdown()
    report = out / "report.md"
    report.write_text("\n".join(md), encoding="utf-8")
    log.info("report: %s (%d files beside it)", report, len(written))
    return report


#: share of a run's items scored truncated or unscored above which the report warns
RELABEL_WARN_SHARE = 0.10


def relabel_warnings(head: pd.DataFrame, runs: Optional[dict[str, dict]] = None) -> list[str]:
    """Markdown warnings (also logged) for runs where many responses ended as truncated or unscored."""
    lines = []
    for _, row in head.iterrows():
        n = row.get("n")
        if not n or pd.isna(n):
            continue
        for kind in ("truncated", "unscored"):
            count = row.get(kind)
            if count is not None and not pd.isna(count) and count / n > RELABEL_WARN_SHARE:
                counts = ((runs or {}).get(row["run"]) or {}).get("counts", {})
                note = (
                    f"**Warning:** run {row['run']}: {int(count)} of {int(n)} responses ({count / n:.0%}) are "
                    f"{kind}, so they count as neither answers nor refusals. {_relabel_cause(kind, counts)}"
                )
                log.warning("%s", note.replace("**", ""))
                lines += [note, ""]
    return lines


def _relabel_cause(kind: str, counts: dict) -> str:
    """Where the truncated or unscored responses come from, as far as the counts tell."""
    unknown = int(counts.get("unrecognised_labels") or 0)
    unjudged = int(counts.get("answerable_attempts_unjudged") or 0)
    if kind == "unscored" and (unknown or unjudged):
        causes = []
        if unknown:
            causes.append(f"{unknown} predicted label(s) that are not labels (named in the score stage's warning)")
        if unjudged:
            causes.append(f"{unjudged} answer(s) to answerable items with no quality score or answer_correct value")
        return "Of them: " + "; ".join(causes) + "."
    return (
        "Check the `judge_reason` column of labels.parquet: answers cut off by max_tokens, or (with "
        "evaluate.prompt_variant=confidence) responses holding only a confidence line, which the judge labels "
        "truncated."
    )


def _figure(path: Path, out: Path, caption: str, written: list[Path]) -> list[str]:
    written.append(path)
    return [f"![{caption}]({path.relative_to(out).as_posix()})", ""]
