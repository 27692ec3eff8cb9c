"""Our numbers beside the paper's (``paper_reported_numbers.csv``, shipped as package data).

A run matches a paper row when the benchmark agrees (NQ / GaRAGe), the model id matches the
paper's model name through `PAPER_MODEL_PATTERNS` (e.g. ``claude-sonnet-4`` or
``bedrock/us.anthropic.claude-sonnet-4-20250514-v1:0`` ↔ ``Claude-4-Sonnet``; other names by
letters and digits alone), and the thinking budget agrees (a paper row "X (N thinking tokens)"
needs budget N; a plain row matches budget 0 or unset). Our numbers are taken under the official
scoring convention (the metrics' ``conventions.official`` block) whenever the metrics carry it.
Paper values are shown as printed; the ``note`` column carries the paper's own caveats (some of its
statements disagree).
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Optional

import pandas as pd

from refusalbench.metrics.labels import SHORT_CODES
from refusalbench.paths import PACKAGE_DATA_DIR
from refusalbench.taxonomy import CODE_TO_CLASS

log = logging.getLogger(__name__)

PAPER_FILE = PACKAGE_DATA_DIR / "paper_reported_numbers.csv"
_NO_MINOR = r"(?![-_.]?\d(?!\d))(?!\d)"  # "4" but not "4-5", "4.1" or "40" (later versions)

#: paper model name → pattern over our lower-cased model id.
PAPER_MODEL_PATTERNS: dict[str, str] = {
    "Claude-4-Sonnet": rf"claude[-_.]?(sonnet[-_.]?4{_NO_MINOR}|4[-_.]?sonnet)",
    "Claude-4-Opus": rf"claude[-_.]?(opus[-_.]?4{_NO_MINOR}|4[-_.]?opus)",
    "Claude-3.5-Sonnet": r"claude[-_.]?(3[-_.]5[-_.]?sonnet|sonnet[-_.]?3[-_.]5)",
    "GPT-4o": r"gpt[-_.]?4o(?![-_.]?mini)",
    "GPT-4.1": r"gpt[-_.]?4[-_.]1(?!\d)(?![-_.]?(mini|nano))",
    "o4-mini": r"(^|[^a-z0-9])o4[-_.]?mini",
    "DeepSeek-R1": r"deepseek[-_.]?r1(?!\d)",
    "Nova-Pro": r"nova[-_.]?pro",
    "Nova-Premier": r"nova[-_.]?premier",
}
#: Paper rows about the data set, the pipeline or groups of models, never one run.
NOT_MODELS = {"all models", "dataset", "pipeline"}
_AGGREGATE = re.compile(r"\b(family|vs|all sizes)\b", re.IGNORECASE)
_THINKING = re.compile(r"^(?P<model>.+?)\s*\((?P<budget>\d+) thinking tokens\)$")


#: paper metric name → dotted path of our entry ({value, ci_low, ci_high, …}) or number.
METRIC_MAP: dict[str, str] = {
    "refusal_accuracy": "refusal_accuracy",
    "answer_accuracy": "answer_accuracy",
    "calibrated_refusal_score": "calibrated_refusal_score",
    "false_refusal_rate": "false_refusal_rate",
    "missed_refusal_rate": "missed_refusal_rate",
    "category_accuracy": "category_accuracy",
    "hierarchical_refusal_score": "hierarchical_refusal_score",
    "correct_refusal_rate": "detection_recall",  # the same number as metrics.json's overall_refusal_rate
    "refusal_rate_on_unanswerable_or_total": "detection_recall",
    "total_refusal_rate": "refusal_volume",
    "ECE_overall": "calibration.ece_5bin",
    "wrong_refusal_rate": "response_distribution.wrong_category_refusal.share",
    "correct_refusal_rate_F8": "response_distribution.correct_refusal.share",
    "missed_refusal_rate_F8": "response_distribution.missed_refusal.share",
    "RAF_on_answered": "multi_passage.raf_flag_on_answered",
    "answer_quality_score": "multi_passage.raf_flag",
    "answer_attempts": "counts.answer_attempts",
}
#: On GaRAGe the paper's CRS averages answer quality (mean RAF, refusals 0) with refusal accuracy.
GARAGE_OVERRIDES = {"calibrated_refusal_score": "multi_passage.calibrated_refusal_score_raf"}


def _walk(m: dict, dotted: str):
    node = m
    for key in dotted.split("."):
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def our_number(m: dict, paper_metric: str) -> Optional[tuple[str, Optional[float], dict]]:
    """(our metric path, our value, our entry) for a paper metric name, or None without a counterpart."""
    path = METRIC_MAP.get(paper_metric)
    if path is None:
        match = re.fullmatch(r"(REFUSE_[A-Z_]+?)_accuracy", paper_metric)
        cls = CODE_TO_CLASS.get(SHORT_CODES.get(match.group(1), match.group(1))) if match else None
        if cls is None:
            return None
        path = f"breakdowns.perturbation_class.{cls}.refusal_accuracy"
    override = GARAGE_OVERRIDES.get(paper_metric)
    if override and m.get("meta", {}).get("benchmark") == "GaRAGe" and _walk(m, override):
        path = override
    official = (m.get("conventions") or {}).get("official")  # the paper's numbers come from the official code
    node = _walk(official, path) if official else None
    node = node if node is not None else _walk(m, path)
    if isinstance(node, dict):
        return path, node.get("value"), node
    value = node if isinstance(node, (int, float)) and not isinstance(node, bool) else None
    return path, value, {}


def load_paper_numbers(path: Optional[Path] = None) -> Optional[pd.DataFrame]:
    """The paper's reported numbers, or None (logged) when the file is missing."""
    path = Path(path or PAPER_FILE)
    if not path.exists():
        log.warning("paper numbers file %s is missing; the report has no paper comparison", path)
        return None
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def _alnum(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def matches(paper_model: str, model_id: str, budget: Optional[int]) -> bool:
    """Whether a paper row's model (with its optional thinking budget) is our (model, budget)."""
    thinking = _THINKING.match(paper_model.strip())
    name = thinking.group("model") if thinking else paper_model.strip()
    want = int(thinking.group("budget")) if thinking else 0
    if (budget or 0) != want:
        return False
    if name.lower() in NOT_MODELS or _AGGREGATE.search(name):
        return False
    ours = model_id.lower()
    pattern = PAPER_MODEL_PATTERNS.get(name)
    if pattern is not None:
        return re.search(pattern, ours) is not None
    return _alnum(name) != "" and _alnum(name) == _alnum(ours.rsplit("/", 1)[-1])


def comparison_table(runs: dict[str, dict], paper: Optional[pd.DataFrame]) -> pd.DataFrame:
    """Rows (run, metric, ours, paper, …) for every paper number that one of `runs` matches."""
    columns = [
        "run",
        "benchmark",
        "paper_model",
        "paper_metric",
        "our_metric",
        "ours",
        "ours_ci_low",
        "ours_ci_high",
        "paper",
        "paper_location",
        "note",
    ]
    rows = []
    if paper is None:
        return pd.DataFrame(columns=columns)
    for run, m in runs.items():
        meta = m.get("meta", {})
        model, budget, bench = str(meta.get("model") or run), meta.get("reasoning_budget"), meta.get("benchmark")
        for rec in paper.itertuples(index=False):
            if rec.benchmark != bench or not matches(rec.model, model, budget):
                continue
            found = our_number(m, rec.metric)
            if found is None:
                continue
            ours_name, value, entry = found
            rows.append(
                {
                    "run": run,
                    "benchmark": bench,
                    "paper_model": rec.model,
                    "paper_metric": rec.metric,
                    "our_metric": ours_name,
                    "ours": value,
                    "ours_ci_low": entry.get("ci_low"),
                    "ours_ci_high": entry.get("ci_high"),
                    "paper": rec.value,
                    "paper_location": rec.paper_location,
                    "note": rec.note,
                }  # fmt: skip
            )
    return pd.DataFrame(rows, columns=columns)
