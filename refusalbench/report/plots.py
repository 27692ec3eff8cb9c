"""The paper's views as PNG files (matplotlib, Agg backend: no display needed).

Each function draws one figure from report tables or a metrics object and returns the path.
matplotlib is imported on the first figure drawn (it costs a third of a second), and a figure whose
inputs did not change since it was last drawn is copied from the figure cache (`figure_cache`).
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import Optional

import numpy as np
import pandas as pd

from refusalbench.report.figure_cache import cached_figure

DPI = 120
#: axis limits for rates: a little room beyond 0 and 1 so that an interval ending at 1.0 shows its cap
RATE_AXIS = (-0.02, 1.04)


def pyplot():
    """matplotlib's pyplot on the Agg backend, imported on first use."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():  # crowded figures (many runs) cannot always be tightened; save them as they are
        warnings.simplefilter("ignore", UserWarning)
        fig.tight_layout()
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    pyplot().close(fig)
    return path


def _err(values, lows, highs) -> np.ndarray:
    """Error-bar lengths below and above each value (never negative: an interval that does not hold its
    point estimate, possible with a percentile bootstrap, is drawn only on the side it extends to)."""
    v = np.asarray(values, dtype=float)
    lo = np.asarray([np.nan if x is None else x for x in lows], dtype=float)
    hi = np.asarray([np.nan if x is None else x for x in highs], dtype=float)
    return np.nan_to_num(np.vstack([v - lo, hi - v]), nan=0.0).clip(min=0)


@cached_figure
def ranking(head: pd.DataFrame, path: Path, metric: str = "refusal_accuracy") -> Path:
    """Horizontal bars of `metric` per run, best at the top, with bootstrap intervals."""
    data = head[head[metric].notna()].sort_values(metric)
    fig, ax = pyplot().subplots(figsize=(7, 0.9 + 0.35 * max(len(data), 1)))
    ax.barh(
        data["run"],
        data[metric],
        xerr=_err(data[metric], data[f"{metric}_ci_low"], data[f"{metric}_ci_high"]),
        color="#4c72b0",
        capsize=3,
    )
    ax.set_xlim(*RATE_AXIS)
    ax.set_xlabel(metric.replace("_", " "))
    ax.set_title("Refusal-accuracy ranking (95% clustered bootstrap)")
    return _save(fig, path)


def _scatter(head: pd.DataFrame, x: str, y: str, path: Path, title: str, iso_mean: bool = False) -> Path:
    data = head[head[x].notna() & head[y].notna()]
    fig, ax = pyplot().subplots(figsize=(6.5, 6))
    if iso_mean:
        grid = np.linspace(0, 1, 101)
        for level in (0.2, 0.4, 0.6, 0.8):
            line = 2 * level - grid
            keep = (line >= 0) & (line <= 1)
            ax.plot(grid[keep], line[keep], ls=":", color="grey", lw=0.8)
            ax.annotate(
                f"CRS {level:.1f}",
                (min(1.0, 2 * level) - 0.02, max(0.0, 2 * level - 1) + 0.02),
                fontsize=7,
                color="grey",
                ha="right",
            )
    ax.errorbar(
        data[x],
        data[y],
        xerr=_err(data[x], data[f"{x}_ci_low"], data[f"{x}_ci_high"]),
        yerr=_err(data[y], data[f"{y}_ci_low"], data[f"{y}_ci_high"]),
        fmt="o",
        capsize=2,
    )
    for _, row in data.iterrows():
        ax.annotate(str(row["run"]), (row[x], row[y]), textcoords="offset points", xytext=(4, 4), fontsize=7)
    ax.set_xlim(*RATE_AXIS)
    ax.set_ylim(*RATE_AXIS)
    ax.set_xlabel(x.replace("_", " "))
    ax.set_ylabel(y.replace("_", " "))
    ax.set_title(title)
    return _save(fig, path)


@cached_figure
def dashboard(head: pd.DataFrame, path: Path) -> Path:
    """Calibrated-refusal dashboard: answer accuracy (x) vs refusal accuracy (y), iso-CRS lines."""
    return _scatter(head, "answer_accuracy", "refusal_accuracy", path, "Calibrated-refusal dashboard", iso_mean=True)


@cached_figure
def detection_vs_categorisation(head: pd.DataFrame, path: Path) -> Path:
    return _scatter(
        head, "detection_f1", "category_accuracy", path, "Detection (F1) vs categorisation (category accuracy)"
    )


@cached_figure
def confusion(matrix: dict, path: Path, title: str) -> Path:
    """Row-normalised expected × predicted heatmap with counts in the cells."""
    shares = np.array([[np.nan if v is None else v for v in row] for row in matrix["row_normalised"]], dtype=float)
    counts = np.array(matrix["counts"])
    fig, ax = pyplot().subplots(figsize=(11, 5.6))
    image = ax.imshow(np.nan_to_num(shares), cmap="Blues", vmin=0, vmax=1, aspect="auto")
    fig.colorbar(image, ax=ax, label="share of the row (expected label)")
    # the full code names, as in logs, tables and the glossary's class <-> code table
    ax.set_xticks(range(len(matrix["columns"])), list(matrix["columns"]), rotation=40, ha="right", fontsize=6)
    ax.set_yticks(range(len(matrix["rows"])), list(matrix["rows"]), fontsize=6)
    for i in range(counts.shape[0]):
        for j in range(counts.shape[1]):
            if counts[i, j]:
                ax.text(
                    j,
                    i,
                    f"{shares[i, j]:.2f}\n({counts[i, j]})",
                    ha="center",
                    va="center",
                    fontsize=6,
                    color="white" if shares[i, j] > 0.6 else "black",
                )
    ax.set_xlabel("predicted")
    ax.set_ylabel("expected")
    ax.set_title(title)
    return _save(fig, path)


@cached_figure
def intensity_curves(table: pd.DataFrame, path: Path) -> Path:
    """Refusal rate (all items) at LOW / MEDIUM / HIGH, one line per run."""
    fig, ax = pyplot().subplots(figsize=(6.5, 4.5))
    for run, part in table.groupby("run", sort=False):
        ax.errorbar(
            part["intensity"],
            part["refusal_rate"],
            yerr=_err(part["refusal_rate"], part["ci_low"], part["ci_high"]),
            marker="o",
            capsize=2,
            label=str(run),
        )
    ax.set_ylim(*RATE_AXIS)
    ax.set_ylabel("refusal rate (all items)")
    ax.set_title("Refusal rate by intensity (LOW = false refusals)")
    ax.legend(fontsize=7, loc="best")
    return _save(fig, path)


@cached_figure
def heatmap(frame: pd.DataFrame, path: Path, title: str, counts: Optional[pd.DataFrame] = None) -> Path:
    """Class × intensity refusal rates with n per cell and colour bars (NaN cells left blank).

    LOW-intensity items are answerable, so their refusals are false refusals (lower is better); at
    MEDIUM/HIGH a refusal is due (higher is better). The two are drawn in separate panels with their
    own colour scales, never mixed on one scale.
    """
    groups = [
        (cols, label, cmap)
        for cols, label, cmap in (
            ([c for c in frame.columns if c == "LOW"], "false-refusal rate (LOW: answerable; lower is better)", "Reds"),
            (
                [c for c in frame.columns if c != "LOW"],
                "refusal rate (MEDIUM/HIGH: refusal due; higher is better)",
                "Blues",
            ),
        )
        if cols
    ]
    widths = [len(cols) + 0.8 for cols, _, _ in groups]
    fig, axes = pyplot().subplots(
        1, len(groups), figsize=(3.2 + 1.6 * sum(widths), 4.4), squeeze=False, gridspec_kw={"width_ratios": widths}
    )
    for ax, (cols, label, cmap) in zip(axes[0], groups):
        values = frame[cols].to_numpy(dtype=float)
        image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=0, vmax=1, aspect="auto")
        fig.colorbar(image, ax=ax, fraction=0.08, pad=0.04)
        ax.set_title(label, fontsize=8)
        ax.set_xticks(range(len(cols)), cols)
        ax.set_yticks(range(frame.shape[0]), list(frame.index), fontsize=8)
        if ax is not axes[0][0]:
            ax.set_yticklabels([])
        for i in range(values.shape[0]):
            for j, col in enumerate(cols):
                if not math.isnan(values[i, j]):
                    n = "" if counts is None else f"\nn={int(counts.loc[frame.index[i], col])}"
                    ax.text(
                        j,
                        i,
                        f"{values[i, j]:.2f}{n}",
                        ha="center",
                        va="center",
                        fontsize=7,
                        color="white" if values[i, j] > 0.6 else "black",
                    )
    fig.suptitle(title, fontsize=10)
    return _save(fig, path)


@cached_figure
def thinking_budget(head: pd.DataFrame, path: Path) -> Optional[Path]:
    """Refusal and answer accuracy against the reasoning budget, for models with ≥ 2 budgets."""
    data = head[head["reasoning_budget"].notna()]
    models = [m for m, part in data.groupby("model") if part["reasoning_budget"].nunique() >= 2]
    if not models:
        return None
    fig, ax = pyplot().subplots(figsize=(6.5, 4.5))
    for model in models:
        part = data[data["model"] == model].sort_values("reasoning_budget")
        for metric, style in (("refusal_accuracy", "-o"), ("answer_accuracy", "--s")):
            if part[metric].notna().any():
                ax.errorbar(
                    part["reasoning_budget"],
                    part[metric],
                    yerr=_err(part[metric], part[f"{metric}_ci_low"], part[f"{metric}_ci_high"]),
                    fmt=style,
                    capsize=2,
                    label=f"{model}: {metric.replace('_', ' ')}",
                )
    ax.set_ylim(*RATE_AXIS)
    ax.set_xlabel("thinking budget (tokens)")
    ax.set_title("Thinking-budget curves")
    ax.legend(fontsize=7)
    return _save(fig, path)


@cached_figure
def reliability(bins: list[dict], path: Path, title: str) -> Path:
    """Reliability diagram: per-bin accuracy vs mean stated confidence, with the diagonal."""
    fig, ax = pyplot().subplots(figsize=(5, 5))
    ax.plot([0, 1], [0, 1], ls=":", color="grey")
    filled = [b for b in bins if b["n"]]
    centres = [(b["low"] + b["high"]) / 2 for b in filled]
    widths = [b["high"] - b["low"] for b in filled]
    ax.bar(centres, [b["accuracy"] for b in filled], width=widths, edgecolor="black", alpha=0.7, label="accuracy")
    ax.plot(
        [b["mean_confidence"] for b in filled],
        [b["accuracy"] for b in filled],
        "o",
        color="darkred",
        label="(mean confidence, accuracy)",
    )
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("stated confidence")
    ax.set_ylabel("accuracy")
    ax.set_title(title)
    ax.legend(fontsize=7)
    return _save(fig, path)
