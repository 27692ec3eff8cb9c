"""A tiny benchmark, scripted replies and run contexts for the evaluate and judge stage tests."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Callable, Optional

import pandas as pd
import pytest

from refusalbench.config import CacheConfig, DatasetConfig, EvaluateConfig, JudgeConfig, ModelConfig, RefusalBenchConfig
from refusalbench.context import RunContext
from refusalbench.taxonomy import ground_truth

# (marker, class, intensity, original answers, evaluated-model reply)
NQ_ITEMS = [
    ("a1", "P-MissingInfo", "LOW", ["Paris"], "Paris."),
    ("a2", "P-Contradiction", "LOW", ["1912"], "It sank in 1915."),
    ("a3", "P-Ambiguity", "LOW", ["Barack Obama"], "The president was Barack Hussein Obama."),
    ("r1", "P-MissingInfo", "HIGH", ["Lyon"], "**REFUSE_INFO_MISSING_IN_CONTEXT**"),
    ("r2", "P-Ambiguity", "MEDIUM", ["Rome"], "Answer: `refuse_other`."),
    ("r3", "P-FalsePremise", "HIGH", ["Oslo"], "I cannot answer this: the passage never says the bridge was built."),
    ("t1", "P-GranularityMismatch", "HIGH", ["Bern"], {"content": "", "finish_reason": "length"}),
    ("e1", "P-EpistemicMismatch", "MEDIUM", ["Kyiv"], {"status": 400, "message": "bad request for test"}),
]
NQ_EXPECTED_RULE = {"r1": "REFUSE_INFO_MISSING_IN_CONTEXT", "r2": "REFUSE_OTHER", "t1": "truncated", "e1": "unscored"}


def nq_benchmark(items=NQ_ITEMS) -> pd.DataFrame:
    rows = []
    for marker, cls, intensity, answers, _ in items:
        rows.append(
            dict(
                id=f"RB-{marker}",
                source_id=f"src-{marker[0]}",
                generator_model="gpt",
                perturbation_class=cls,
                intensity=intensity,
                expected_rag_behavior=ground_truth(cls, intensity),
                lever_selected="lever",
                original_query=f"original question {marker}?",
                original_context=f"original context {marker}.",
                original_answers=answers,
                perturbed_query=f"Question [{marker}]?",
                perturbed_context=f"Perturbed context for {marker}.",
                implementation_reasoning="r",
            )
        )
    return pd.DataFrame(rows)


# (marker, intensity, evaluated-model reply) of the multi-passage items, all P-MissingInfo
GARAGE_ITEMS = [
    ("g1", "LOW", "Paris is the capital [1]."),
    ("g2", "HIGH", "REFUSE_OTHER"),
    ("g3", "LOW", "I am not able to say from these results."),
]


def garage_benchmark() -> pd.DataFrame:
    rows = []
    for marker, intensity, _ in GARAGE_ITEMS:
        cls = "P-MissingInfo"
        rows.append(
            dict(
                id=f"RB-{marker}",
                source_id=f"src-{marker}",
                generator_model="claude",
                perturbation_class=cls,
                intensity=intensity,
                expected_rag_behavior=ground_truth(cls, intensity),
                lever_selected="lever",
                original_query="q",
                original_context=None,
                original_answers=["Paris"],
                perturbed_query=f"Question [{marker}]?",
                perturbed_context=None,
                implementation_reasoning="r",
                query=f"Question [{marker}]?",
                grounding=[f"Paris is the capital of France ({marker}).", "Noise passage."],
                reference_answer="Paris is the capital of France.",
                signal_indices=[0],
                noise_indices=[1],
                relevant=[True, False],
                domain="Geography",
            )
        )
    return pd.DataFrame(rows)


GARAGE_REPLIES = {marker: reply for marker, _, reply in GARAGE_ITEMS}


def marker_of(body: dict) -> Optional[str]:
    text = body["messages"][0]["content"]
    m = re.search(r"Question \[(\w+)\]\?", text)
    return m.group(1) if m else None


def scripted(replies: dict) -> Callable[[dict], object]:
    """A responder giving each item's scripted reply (found by the [marker] in its query)."""

    def respond(body: dict):
        return replies[marker_of(body)]

    return respond


_OPEN: list[RunContext] = []


@pytest.fixture(autouse=True)
def close_contexts():
    """Close every context a test made (the model-call layer holds HTTP sessions)."""
    yield
    while _OPEN:
        _OPEN.pop().close()


NQ_REPLIES = {marker: reply for marker, *_, reply in NQ_ITEMS}


def make_ctx(
    tmp_path: Path,
    model: ModelConfig,
    judge: Optional[JudgeConfig] = None,
    *,
    evaluate: Optional[EvaluateConfig] = None,
    benchmark: Optional[pd.DataFrame] = None,
    run_name: str = "run",
    multi: bool = False,
) -> RunContext:
    """A run context in tmp_path/run_name with a shared cache; writes `benchmark` as the run's benchmark."""
    run_dir = tmp_path / run_name
    run_dir.mkdir(parents=True, exist_ok=True)
    cfg = RefusalBenchConfig(
        dataset=DatasetConfig(kind="refusalbench_garage" if multi else "refusalbench_nq", multi_passage=multi),
        model=dataclasses.replace(model, max_retries=0),
        judge=judge or JudgeConfig(),
        cache=CacheConfig(dir=str(tmp_path / "cache")),
        evaluate=evaluate or EvaluateConfig(),
    )
    ctx = RunContext(cfg=cfg, run_dir=run_dir)
    _OPEN.append(ctx)
    if benchmark is not None:
        ctx.write_table("benchmark", benchmark)
    return ctx
