"""The evaluate stage against the local OpenAI-compatible test server."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

from refusalbench.config import EvaluateConfig, ReasoningConfig
from refusalbench.errors import UserError
from refusalbench.stages import evaluate
from tests.support.configs import model_cfg_for
from tests.support.evaluation import (
    GARAGE_REPLIES,
    NQ_ITEMS,
    NQ_REPLIES,
    close_contexts,  # noqa: F401 (autouse fixture)
    garage_benchmark,
    make_ctx,
    marker_of,
    nq_benchmark,
    scripted,
)


def _evaluated_requests(server) -> list[dict]:
    return [b for b in server.requests if b.get("model") == "test-model"]


def test_outputs_columns_and_values(tmp_path, test_server):
    test_server.set_responder(scripted(NQ_REPLIES))
    ctx = make_ctx(tmp_path, model_cfg_for(test_server), benchmark=nq_benchmark())
    evaluate.run(ctx)
    out = ctx.read_table("outputs")
    assert len(out) == len(NQ_ITEMS)
    for col in (
        "id",
        "perturbation_class",
        "intensity",
        "expected_rag_behavior",
        "original_answers",
        *evaluate.OUTPUT_COLUMNS,
    ):
        assert col in out.columns, col
    by_id = out.set_index("id")
    assert by_id.loc["RB-a1", "raw_output"] == "Paris."
    assert by_id.loc["RB-r1", "raw_output"] == "**REFUSE_INFO_MISSING_IN_CONTEXT**"
    assert bool(by_id.loc["RB-t1", "truncated"]) and by_id.loc["RB-t1", "finish_reason"] == "length"
    # a failed call keeps its row, with the error recorded
    assert isinstance(by_id.loc["RB-e1", "error"], str) and by_id.loc["RB-e1", "error"]
    assert by_id["error"].drop("RB-e1").isna().all()
    assert (out["model"] == ctx.cfg.model.id).all()
    assert out["reasoning_budget"].isna().all() and out["reasoning_effort"].isna().all()
    assert out["prompt_version"].str.startswith("evaluate_nq@").all()
    assert (out["prompt_variant"] == "default").all()
    # the prompt carries the perturbed query and context, never the expected label
    body = next(b for b in test_server.requests if marker_of(b) == "r1")
    prompt = body["messages"][0]["content"]
    assert "Question [r1]?" in prompt and "Perturbed context for r1." in prompt
    assert "original context r1" not in prompt
    assert ctx.outputs["outputs"].endswith("outputs.parquet")


def test_interrupted_rerun_repeats_no_finished_call(tmp_path, test_server):
    test_server.set_responder(scripted(NQ_REPLIES))
    bench = nq_benchmark()
    first = make_ctx(
        tmp_path, model_cfg_for(test_server), benchmark=bench, evaluate=EvaluateConfig(limit=3), run_name="r1"
    )
    evaluate.run(first)  # "interrupted" after the first three items
    assert len(_evaluated_requests(test_server)) == 3
    test_server.reset()
    test_server.set_responder(scripted(NQ_REPLIES))
    again = make_ctx(tmp_path, model_cfg_for(test_server), benchmark=bench, run_name="r2")
    evaluate.run(again)
    sent = sorted(marker_of(b) for b in _evaluated_requests(test_server))
    assert sent == sorted(m for m, *_ in NQ_ITEMS[3:])  # only the unfinished items are asked
    out = again.read_table("outputs").set_index("id")
    assert out.loc[["RB-a1", "RB-a2", "RB-a3"], "cached"].all()
    # the failed and truncated items are not cached: a third run asks exactly those again
    test_server.reset()
    test_server.set_responder(scripted(NQ_REPLIES))
    evaluate.run(make_ctx(tmp_path, model_cfg_for(test_server), benchmark=bench, run_name="r3"))
    assert sorted(marker_of(b) for b in _evaluated_requests(test_server)) == ["e1", "t1"]


def test_limit_replicates_reasoning_and_confidence_variant(tmp_path, test_server):
    test_server.set_responder(lambda body: "Paris.\nCONFIDENCE: 80")
    ev = EvaluateConfig(limit=2, replicates=2, prompt_variant="confidence")
    ctx = make_ctx(tmp_path, model_cfg_for(test_server), benchmark=nq_benchmark(), evaluate=ev)
    ctx.cfg.reasoning = ReasoningConfig(budget_tokens=0)
    evaluate.run(ctx)
    out = ctx.read_table("outputs")
    assert len(out) == 4
    assert sorted(out["replicate"].tolist()) == [0, 0, 1, 1]
    assert list(out["id"].unique()) == ["RB-a1", "RB-a2"]
    assert (out["reasoning_budget"] == 0).all()
    assert out["prompt_version"].str.startswith("evaluate_nq_confidence@").all()
    assert "CONFIDENCE" in test_server.requests[0]["messages"][0]["content"]


def test_multi_passage_prompt(tmp_path, test_server):
    test_server.set_responder(scripted(GARAGE_REPLIES))
    ctx = make_ctx(tmp_path, model_cfg_for(test_server), benchmark=garage_benchmark(), multi=True)
    evaluate.run(ctx)
    out = ctx.read_table("outputs")
    assert out["prompt_version"].str.startswith("evaluate_garage@").all()
    assert list(out["grounding"].iloc[0]) == ["Paris is the capital of France (g1).", "Noise passage."]
    prompt = next(b for b in test_server.requests if marker_of(b) == "g1")["messages"][0]["content"]
    assert "[1] Paris is the capital of France (g1)." in prompt and "[2] Noise passage." in prompt


def test_benchmark_sources(tmp_path, test_server):
    test_server.set_responder(scripted(NQ_REPLIES))
    path = tmp_path / "bench.jsonl"
    nq_benchmark().head(2).to_json(path, orient="records", lines=True)
    ctx = make_ctx(
        tmp_path, model_cfg_for(test_server), benchmark=nq_benchmark(), evaluate=EvaluateConfig(benchmark=str(path))
    )
    evaluate.run(ctx)  # the explicit file wins over the run directory's benchmark
    assert len(ctx.read_table("outputs")) == 2
    empty = make_ctx(tmp_path, model_cfg_for(test_server), run_name="empty")
    empty.cfg.dataset.kind = "nq"
    with pytest.raises(UserError, match="no benchmark"):
        evaluate.run(empty)


def test_bad_benchmark_and_config(tmp_path, test_server):
    bad = nq_benchmark().drop(columns=["perturbed_context"])
    with pytest.raises(UserError, match="perturbed_context"):
        evaluate.run(make_ctx(tmp_path, model_cfg_for(test_server), benchmark=bad, run_name="a"))
    dup = pd.concat([nq_benchmark().head(1)] * 2)
    with pytest.raises(UserError, match="duplicate"):
        evaluate.run(make_ctx(tmp_path, model_cfg_for(test_server), benchmark=dup, run_name="b"))
    with pytest.raises(UserError, match="prompt_variant"):
        evaluate.run(
            make_ctx(
                tmp_path,
                model_cfg_for(test_server),
                benchmark=nq_benchmark(),
                run_name="c",
                evaluate=EvaluateConfig(prompt_variant="cot"),
            )
        )
    assert not test_server.requests


def test_all_calls_failed_is_a_user_error(tmp_path, test_server):
    test_server.set_responder(lambda body: {"status": 401, "message": "no key"})
    ctx = make_ctx(tmp_path, model_cfg_for(test_server), benchmark=nq_benchmark().head(2))
    with pytest.raises(UserError, match="Every call"):
        evaluate.run(ctx)
    assert ctx.read_table("outputs")["error"].notna().all()  # still written, with the errors


def test_model_cfg_gets_run_reasoning(tmp_path, test_server, monkeypatch):
    seen = {}
    ctx = make_ctx(tmp_path, model_cfg_for(test_server), benchmark=nq_benchmark().head(1))
    ctx.cfg.reasoning = ReasoningConfig(effort="low")

    class FakeLayer:
        dry_run = False

        def run(self, model_cfg, specs, role, desc=""):
            from refusalbench.llm import Completion

            seen.update(model=model_cfg, role=role, specs=specs)
            return [Completion(key=s.key, text="Paris.") for s in specs]

        def close(self):
            pass

    ctx._llm = FakeLayer()
    evaluate.run(ctx)
    assert seen["role"] == "evaluated"
    assert seen["model"].reasoning == ReasoningConfig(effort="low")
    assert dataclasses.replace(seen["model"], reasoning=ReasoningConfig()) == dataclasses.replace(
        ctx.cfg.model, reasoning=ReasoningConfig()
    )
    assert ctx.read_table("outputs")["reasoning_effort"].tolist() == ["low"]
