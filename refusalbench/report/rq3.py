"""RQ3 views of the report: model-scale series, alignment-stage groups and per-domain breakdowns.

Each view is found in the runs themselves, from the model id (``meta.model``, else the run label):

* scale — runs of one family (the id without its parameter-count token such as ``7B``) at ≥ 2 sizes;
* alignment — runs whose ids differ only by stage tokens (SFT, DPO, RLHF, PPO, Instruct, Base,
  preferred); an id without any such token counts as ``base``;
* domain — runs whose metrics carry a ``domain`` breakdown (GaRAGe's ``domain`` column).

Series and groups are kept apart by reasoning budget and benchmark. `sections` writes the CSV
files and figures of the views that have data and returns their Markdown.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Optional

import numpy as np
import pandas as pd

from refusalbench.metrics.compare import DEFAULT_COMPARED, compare_runs
from refusalbench.report import tables
from refusalbench.report.figure_cache import cached_figure
from refusalbench.report.plots import RATE_AXIS, _err, _save, pyplot

SIZE = re.compile(r"(?<![A-Za-z0-9.])(\d+(?:\.\d+)?)\s?[bB](?![A-Za-z0-9])")
STAGES = ("base", "sft", "instruct", "rlhf", "ppo", "dpo", "preferred")  # earliest first
_SEP = re.compile(r"([-_/\s]+)")
SCALE_METRICS = ("refusal_accuracy", "answer_accuracy", "calibrated_refusal_score")
ALIGNMENT_METRICS = (
    "refusal_accuracy",
    "answer_accuracy",
    "detection_f1",
    "category_accuracy",
    "calibrated_refusal_score",
)
DOMAIN_METRICS = ("refusal_accuracy", "answer_accuracy", "calibrated_refusal_score")
SHORT = {
    "refusal_accuracy": "refusal acc.",
    "answer_accuracy": "answer acc.",
    "detection_f1": "detection F1",
    "category_accuracy": "category acc.",
    "calibrated_refusal_score": "CRS",
}


# --- parsing model ids -------------------------------------------------------------------------


def parse_size(model_id: str) -> Optional[tuple[float, str]]:
    """(parameter count in billions, family) of an id such as ``Qwen2.5-0.5B-Instruct``, or None."""
    match = SIZE.search(str(model_id))
    if match is None:
        return None
    rest = str(model_id)[: match.start()] + str(model_id)[match.end() :]
    family = re.sub(r"([-_/\s])[-_/\s]+", r"\1", rest).strip("-_/ ")
    return float(match.group(1)), family


def parse_stage(model_id: str) -> tuple[str, str]:
    """(stage, id without its stage tokens); the stage is ``base`` when the id names none."""
    parts = _SEP.split(str(model_id))
    stage = [w for w in parts[0::2] if w.lower() in STAGES]
    kept = ""
    for k in range(0, len(parts), 2):
        if parts[k] and parts[k].lower() not in STAGES:
            kept += (parts[k - 1] if kept else "") + parts[k]
    return ("-".join(stage) or "base"), kept


def _stage_rank(stage: str) -> int:
    return max(STAGES.index(w.lower()) for w in stage.split("-"))


def _suffix(row, several_benchmarks: bool) -> str:
    budget = row.get("reasoning_budget")
    text = "" if budget is None or pd.isna(budget) else f" [budget {int(budget)}]"
    return text + (f" ({row.get('benchmark')})" if several_benchmarks else "")


def _model_id(row) -> str:
    model = row.get("model")
    return str(model) if model is not None and not (isinstance(model, float) and math.isnan(model)) else str(row["run"])


def add_params(head: pd.DataFrame) -> pd.DataFrame:
    """`head` with a ``params_b`` column (billions, parsed from the model id) after ``model``, when any parses."""
    if head.empty:
        return head
    sizes = [(parse_size(_model_id(row)) or (math.nan, ""))[0] for _, row in head.iterrows()]
    if all(math.isnan(s) for s in sizes):
        return head
    out = head.copy()
    out.insert(list(out.columns).index("model") + 1 if "model" in out else 1, "params_b", sizes)
    return out


# --- tables -------------------------------------------------------------------------------------


def scale_table(head: pd.DataFrame) -> pd.DataFrame:
    """One row per (family series, size) for series with ≥ 2 sizes; metrics with bootstrap intervals."""
    several = head["benchmark"].nunique(dropna=False) > 1 if not head.empty else False
    rows = []
    for _, row in head.iterrows():
        parsed = parse_size(_model_id(row))
        if parsed is None:
            continue
        size, family = parsed
        rows.append(
            {
                "family": family + _suffix(row, several),
                "params_b": size,
                "run": row["run"],
                **_with_intervals(row, SCALE_METRICS),
            }
        )
    table = pd.DataFrame(rows, columns=["family", "params_b", "run", *_interval_columns(SCALE_METRICS)])
    if table.empty:
        return table
    table = table.drop_duplicates(["family", "params_b"])
    keep = table.groupby("family")["params_b"].transform("nunique") >= 2
    return table[keep].sort_values(["family", "params_b"]).reset_index(drop=True)


def _interval_columns(metrics) -> list[str]:
    """Each metric followed by its interval bounds, as headline tables name them."""
    return [f"{m}{suffix}" for m in metrics for suffix in ("", "_ci_low", "_ci_high")]


def _with_intervals(row, metrics) -> dict:
    return {col: row[col] for col in _interval_columns(metrics)}


def alignment_table(head: pd.DataFrame) -> pd.DataFrame:
    """Runs in groups (≥ 2 stages of one model), earliest stage first; metrics with intervals."""
    several = head["benchmark"].nunique(dropna=False) > 1 if not head.empty else False
    rows = []
    for _, row in head.iterrows():
        stage, base = parse_stage(_model_id(row))
        rows.append(
            {
                "group": base + _suffix(row, several),
                "stage": stage,
                "run": row["run"],
                **_with_intervals(row, ALIGNMENT_METRICS),
            }
        )
    table = pd.DataFrame(rows, columns=["group", "stage", "run", *_interval_columns(ALIGNMENT_METRICS)])
    if table.empty:
        return table
    table["_rank"] = table["stage"].map(_stage_rank)
    keep = table.groupby("group")["stage"].transform(lambda s: s.str.lower().nunique()) >= 2
    table = table[keep].sort_values(["group", "_rank", "run"], kind="stable")
    return table.drop(columns="_rank").reset_index(drop=True)


def alignment_differences(runs: dict[str, dict], groups: pd.DataFrame) -> pd.DataFrame:
    """Each later stage minus the group's earliest stage (paired bootstrap), where both runs carry cluster sums."""
    columns = ["group", "run", "reference", "metric", "difference", "ci_low", "ci_high", "p_value", "reason"]
    rows = []
    for group, part in groups.groupby("group", sort=False):
        reference = part["run"].iloc[0]
        for run in part["run"].iloc[1:]:
            if not (runs[run].get("cluster_sums") and runs[reference].get("cluster_sums")):
                continue
            for metric, d in compare_runs(runs[run], runs[reference], DEFAULT_COMPARED).items():
                rows.append(
                    {
                        "group": group,
                        "run": run,
                        "reference": reference,
                        "metric": metric,
                        **{k: d.get(k) for k in columns[4:]},
                    }
                )
    return pd.DataFrame(rows, columns=columns)


def domain_table(runs: dict[str, dict]) -> pd.DataFrame:
    """One row per (run, domain) of the runs' ``domain`` breakdowns: n and metrics with Wilson intervals."""
    rows = []
    for run, m in runs.items():
        for domain, cell in (m.get("breakdowns", {}).get("domain") or {}).items():
            entry = {"run": run, "domain": domain, "n": cell.get("n")}
            for metric in DOMAIN_METRICS:
                e = cell.get(metric) or {}
                entry.update(
                    {
                        metric: e.get("value"),
                        f"{metric}_wilson_low": e.get("wilson_low"),
                        f"{metric}_wilson_high": e.get("wilson_high"),
                    }
                )
            rows.append(entry)
    columns = ["run", "domain", "n"] + [f"{m}{s}" for m in DOMAIN_METRICS for s in ("", "_wilson_low", "_wilson_high")]
    return pd.DataFrame(rows, columns=columns)


def _wide(table: pd.DataFrame, metric: str) -> pd.DataFrame:
    wide = table.pivot(index="run", columns="domain", values=metric)
    order = list(dict.fromkeys(table["run"]))
    return wide.reindex(index=order, columns=list(dict.fromkeys(table["domain"]))).astype(float)


# --- figures ------------------------------------------------------------------------------------


@cached_figure
def scale_plot(table: pd.DataFrame, path: Path) -> Path:
    """One panel per metric: value against parameter count (log x), one line per family."""
    fig, axes = pyplot().subplots(1, len(SCALE_METRICS), figsize=(4.2 * len(SCALE_METRICS), 4), sharey=True)
    ticks: list[float] = []
    for size in sorted(table["params_b"].unique()):
        if not ticks or size / ticks[-1] >= 1.3:  # no overlapping labels (e.g. 7B beside 8B)
            ticks.append(size)
    for ax, metric in zip(axes, SCALE_METRICS):
        for family, part in table.groupby("family", sort=False):
            ax.errorbar(
                part["params_b"],
                part[metric],
                yerr=_err(part[metric], part[f"{metric}_ci_low"], part[f"{metric}_ci_high"]),
                fmt="-o",
                capsize=2,
                label=family,
            )
        ax.set_xscale("log")
        ax.set_xticks(ticks, [f"{s:g}B" for s in ticks], fontsize=7)
        ax.minorticks_off()
        ax.set_ylim(*RATE_AXIS)
        ax.set_xlabel("parameters (billions, log scale)")
        ax.set_title(SHORT[metric])
    axes[0].legend(fontsize=7)
    fig.suptitle("Model scale")
    return _save(fig, path)


@cached_figure
def alignment_plot(table: pd.DataFrame, path: Path) -> Path:
    """Grouped bars (one bar per stage) of the alignment metrics, one panel per group."""
    groups = list(dict.fromkeys(table["group"]))
    fig, axes = pyplot().subplots(len(groups), 1, figsize=(8, 3.6 * len(groups)), squeeze=False)
    x = np.arange(len(ALIGNMENT_METRICS))
    for ax, group in zip(axes[:, 0], groups):
        part = table[table["group"] == group]
        width = 0.8 / len(part)
        for k, (_, row) in enumerate(part.iterrows()):
            values = [row[m] for m in ALIGNMENT_METRICS]
            err = _err(
                values,
                [row[f"{m}_ci_low"] for m in ALIGNMENT_METRICS],
                [row[f"{m}_ci_high"] for m in ALIGNMENT_METRICS],
            )
            ax.bar(
                x + (k - (len(part) - 1) / 2) * width,
                np.nan_to_num(np.asarray(values, dtype=float)),
                width,
                yerr=err,
                capsize=2,
                label=row["stage"],
            )
        ax.set_xticks(x, [SHORT[m] for m in ALIGNMENT_METRICS])
        ax.set_ylim(*RATE_AXIS)
        ax.set_title(group)
        ax.legend(fontsize=7)
    return _save(fig, path)


@cached_figure
def domain_heatmap(frame: pd.DataFrame, path: Path, title: str) -> Path:
    """Run × domain heatmap of a rate (blank where undefined)."""
    values = frame.to_numpy(dtype=float)
    fig, ax = pyplot().subplots(figsize=(1.6 + 1.1 * frame.shape[1], 1.4 + 0.45 * frame.shape[0]))
    ax.imshow(np.ma.masked_invalid(values), cmap="viridis", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(frame.shape[1]), list(frame.columns), rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(frame.shape[0]), list(frame.index), fontsize=8)
    for (i, j), v in np.ndenumerate(values):
        if not math.isnan(v):
            ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=8, color="white" if v < 0.5 else "black")
    ax.set_title(title)
    return _save(fig, path)


# --- the report sections ------------------------------------------------------------------------


def _view(table: pd.DataFrame, first: list[str], metrics: tuple[str, ...]) -> pd.DataFrame:
    view = table[first].copy()
    for metric in metrics:
        view[SHORT[metric]] = tables.with_interval(table, metric)
    return view


def sections(runs: dict[str, dict], head: pd.DataFrame, out: Path) -> tuple[list[str], list[Path]]:
    """Markdown of the RQ3 views that have data, and the CSV/PNG files written for them under `out`."""
    md: list[str] = []
    written: list[Path] = []

    def csv(df: pd.DataFrame, name: str) -> None:
        df.to_csv(out / name, index=False)
        written.append(out / name)

    def figure(path: Path, caption: str) -> None:
        written.append(path)
        md.extend([f"![{caption}]({path.relative_to(out).as_posix()})", ""])

    scale = scale_table(head) if not head.empty else pd.DataFrame()
    if not scale.empty:
        csv(scale, "model_scale.csv")
        md += ["## Model scale", "", "Parameter count parsed from the model id; 95% bootstrap intervals.", ""]
        view = _view(scale, ["family", "params_b", "run"], SCALE_METRICS).assign(
            params_b=scale["params_b"].map(lambda s: f"{s:g}B")
        )
        md += [
            tables.to_markdown(view, headers=["family", "parameters", "run", *(SHORT[m] for m in SCALE_METRICS)]),
            "",
        ]
        figure(scale_plot(scale, out / "figures" / "model_scale.png"), "Model scale")

    groups = alignment_table(head) if not head.empty else pd.DataFrame()
    if not groups.empty:
        csv(groups, "alignment_stages.csv")
        md += [
            "## Alignment stages",
            "",
            "Runs whose model ids differ only by an alignment-stage token; 95% bootstrap intervals.",
            "",
        ]
        md += [tables.to_markdown(_view(groups, ["group", "stage", "run"], ALIGNMENT_METRICS)), ""]
        figure(alignment_plot(groups, out / "figures" / "alignment_stages.png"), "Alignment stages")
        diffs = alignment_differences(runs, groups)
        if not diffs.empty:
            csv(diffs, "alignment_differences.csv")
            md += [
                "Later stage − earliest stage of the group on the same items (paired bootstrap):",
                "",
                tables.to_markdown(diffs),
                "",
            ]

    domains = domain_table(runs)
    if not domains.empty:
        csv(domains, "domain_breakdown.csv")
        md += [
            "## Breakdown by domain",
            "",
            "Point estimates per domain (Wilson intervals in `domain_breakdown.csv`).",
            "",
        ]
        for metric in ("refusal_accuracy", "answer_accuracy"):
            wide = _wide(domains, metric)
            md += [f"**{SHORT[metric]}**", "", tables.to_markdown(wide.reset_index()), ""]
            figure(
                domain_heatmap(wide, out / "figures" / f"domain_{metric}.png", f"{SHORT[metric]} by domain"),
                f"{SHORT[metric]} by domain",
            )
    return md, written
