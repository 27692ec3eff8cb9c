"""The paper's views as PNG files (matplotlib, Agg backend: no display needed).

Each function draws one figure from report tables or a metrics object and returns the path.
"""

from __future__ import annotations

import warnings

import math
from pathlib import Path
from typing import Optional

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

DPI = 120


def _save(fig, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():  # crowded figures (many runs) cannot always be tightened; save them as they are
        warnings.simplefilter("ignore", UserWarning)
        fig.tight_layout()
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    return path


def _err(values, lows, highs) -> np.ndarray:
    v = np.asarray(values, dtype=float)
    lo = np.asarray([np.nan if x is None else x for x in lows], dtype=float)
    hi = np.asarray([np.nan if x is None else x for x in highs], dtype=float)
    return np.nan_to_num(np.vstack([v - lo, hi - v]), nan=0.0).clip(min=0)


def ranking(head: pd.DataFrame, path: Path, metric: str = "refusal_accuracy") -> Path:
    """Horizontal bars of `metric` per run, best at the top, with bootstrap intervals."""
    data = head[head[metric].notna()].sort_values(metric)
    fig, ax = plt.subplots(figsize=(7, 0.9 + 0.35 * max(len(data), 1)))
    ax.barh(data["run"], data[metric], xerr=_err(data[metric], data[f"{metric}_ci_low"], data[f"{metric}_ci_high"]), color="#4c72b0", capsize=3)
    ax.set_xlim(0, 1)
    ax.set_xlabel(metric.replace("_", " "))
    ax.set_title("Refusal-accuracy ranking (95% clustered bootstrap)")
    return _save(fig, path)


def _scatter(head: pd.DataFrame, x: str, y: str, path: Path, title: str, iso_mean: bool = False) -> Path:
    data = head[head[x].notna() & head[y].notna()]
    fig, ax = plt.subplots(figsize=(6.5, 6))
    if iso_mean:
        grid = np.linspace(0, 1, 101)
        for level in (0.2, 0.4, 0.6, 0.8):
            line = 2 * level - grid
            keep = (line >= 0) & (line <= 1)
            ax.plot(grid[keep], line[keep], ls=":", color="grey", lw=0.8)
            ax.annotate(f"CRS {level:.1f}", (min(1.0, 2 * level) - 0.02, max(0.0, 2 * level - 1) + 0.02), fontsize=7, color="grey", ha="right")
    ax.errorbar(data[x], data[y], xerr=_err(data[x], data[f"{x}_ci_low"], data[f"{x}_ci_high"]), yerr=_err(data[y], data[f"{y}_ci_low"], data[f"{y}_ci_high"]), fmt="o", capsize=2)
    for _, row in data.iterrows():
        ax.annotate(str(row["run"]), (row[x], row[y]), textcoords="offset points", xytext=(4, 4), fontsize=7)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel(x.replace("_", " "))
    ax.set_ylabel(y.replace("_", " "))
    ax.set_title(title)
    return _save(fig, path)


def dashboard(head: pd.DataFrame, path: Path) -> Path:
    """Calibrated-refusal dashboard: answer accuracy (x) vs refusal accuracy (y), iso-CRS lines."""
    return _scatter(head, "answer_accuracy", "refusal_accuracy", path, "Calibrated-refusal dashboard", iso_mean=True)


def detection_vs_categorisation(head: pd.DataFrame, path: Path) -> Path:
    return _scatter(head, "detection_f1", "category_accuracy", path, "Detection (F1) vs categorisation (category accuracy)")


def confusion(matrix: dict, path: Path, title: str) -> Path:
    """Row-normalised expected × predicted heatmap with counts in the cells."""
    shares = np.array([[np.nan if v is None else v for v in row] for row in matrix["row_normalised"]], dtype=float)
    counts = np.array(matrix["counts"])
    fig, ax = plt.subplots(figsize=(11, 5.2))
    ax.imshow(np.nan_to_num(shares), cmap="Blues", vmin=0, vmax=1, aspect="auto")
    short = lambda s: s.replace("REFUSE_", "R_")  # noqa: E731
    ax.set_xticks(range(len(matrix["columns"])), [short(c) for c in matrix["columns"]], rotation=40, ha="right", fontsize=7)
    ax.set_yticks(range(len(matrix["rows"])), [short(r) for r in matrix["rows"]], fontsize=7)
    for i in range(counts.shape[0]):
        for j in range(counts.shape[1]):
            if counts[i, j]:
                ax.text(j, i, f"{shares[i, j]:.2f}\n({counts[i, j]})", ha="center", va="center", fontsize=6, color="white" if shares[i, j] > 0.6 else "black")
    ax.set_xlabel("predicted")
    ax.set_ylabel("expected")
    ax.set_title(title)
    return _save(fig, path)


def intensity_curves(table: pd.DataFrame, path: Path) -> Path:
    """Refusal rate (all items) at LOW / MEDIUM / HIGH, one line per run."""
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for run, part in table.groupby("run", sort=False):
        ax.errorbar(part["intensity"], part["refusal_rate"], yerr=_err(part["refusal_rate"], part["ci_low"], part["ci_high"]), marker="o", capsize=2, label=str(run))
    ax.set_ylim(0, 1)
    ax.set_ylabel("refusal rate (all items)")
    ax.set_title("Refusal rate by intensity (LOW = false refusals)")
    ax.legend(fontsize=7, loc="best")
    return _save(fig, path)


def heatmap(frame: pd.DataFrame, path: Path, title: str) -> Path:
    """Class × intensity heatmap of a rate (NaN cells left blank)."""
    fig, ax = plt.subplots(figsize=(5.5, 4))
    values = frame.to_numpy(dtype=float)
    ax.imshow(np.ma.masked_invalid(values), cmap="viridis", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(frame.shape[1]), list(frame.columns))
    ax.set_yticks(range(frame.shape[0]), list(frame.index), fontsize=8)
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            if not math.isnan(values[i, j]):
                ax.text(j, i, f"{values[i, j]:.2f}", ha="center", va="center", fontsize=8, color="white" if values[i, j] < 0.5 else "black")
    ax.set_title(title)
    return _save(fig, path)


def thinking_budget(head: pd.DataFrame, path: Path) -> Optional[Path]:
    """Refusal and answer accuracy against the reasoning budget, for models with ≥ 2 budgets."""
    data = head[head["reasoning_budget"].notna()]
    models = [m for m, part in data.groupby("model") if part["reasoning_budget"].nunique() >= 2]
    if not models:
        return None
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for model in models:
        part = data[data["model"] == model].sort_values("reasoning_budget")
        for metric, style in (("refusal_accuracy", "-o"), ("answer_accuracy", "--s")):
            if part[metric].notna().any():
                ax.errorbar(part["reasoning_budget"], part[metric], yerr=_err(part[metric], part[f"{metric}_ci_low"], part[f"{metric}_ci_high"]), fmt=style, capsize=2, label=f"{model}: {metric.replace('_', ' ')}")
    ax.set_ylim(0, 1)
    ax.set_xlabel("thinking budget (tokens)")
    ax.set_title("Thinking-budget curves")
    ax.legend(fontsize=7)
    return _save(fig, path)


def reliability(bins: list[dict], path: Path, title: str) -> Path:
    """Reliability diagram: per-bin accuracy vs mean stated confidence, with the diagonal."""
    fig, ax = plt.subplots(figsize=(5, 5))
    ax.plot([0, 1], [0, 1], ls=":", color="grey")
    filled = [b for b in bins if b["n"]]
    centres = [(b["low"] + b["high"]) / 2 for b in filled]
    widths = [b["high"] - b["low"] for b in filled]
    ax.bar(centres, [b["accuracy"] for b in filled], width=widths, edgecolor="black", alpha=0.7, label="accuracy")
    ax.plot([b["mean_confidence"] for b in filled], [b["accuracy"] for b in filled], "o", color="darkred", label="(mean confidence, accuracy)")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("stated confidence")
    ax.set_ylabel("accuracy")
    ax.set_title(title)
    ax.legend(fontsize=7)
    return _save(fig, path)
