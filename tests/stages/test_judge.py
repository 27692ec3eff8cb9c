"""The judge stage: deterministic end to end, the LLM judge through the test server, reruns."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from refusalbench.config import EvaluateConfig, JudgeConfig
from refusalbench.errors import UserError
from refusalbench.judging import judge_prompt
from refusalbench.stages import evaluate, judge
from tests.support.configs import model_cfg_for
from tests.support.evaluation import (
    GARAGE_REPLIES,
    NQ_EXPECTED_RULE,
    NQ_REPLIES,
    close_contexts,  # noqa: F401 (autouse fixture)
    garage_benchmark,
    make_ctx,
    marker_of,
    nq_benchmark,
    scripted,
)

JUDGE_NAME = "judge-model"


def _evaluated(server):
    return [b for b in server.requests if b.get("model") == "test-model"]


def _judged(server):
    return [b for b in server.requests if b.get("model") == JUDGE_NAME]


def _labels_by_marker(ctx) -> pd.DataFrame:
    lab = ctx.read_table("labels")
    lab.index = lab["id"].str.replace("RB-", "", regex=False)
    return lab


def _evaluate(tmp_path, server, benchmark=None, judge_cfg=None, multi=False, **kw):
    server.set_responder(_router(GARAGE_REPLIES if multi else NQ_REPLIES))
    ctx = make_ctx(
        tmp_path,
        model_cfg_for(server),
        judge_cfg,
        benchmark=benchmark if benchmark is not None else (garage_benchmark() if multi else nq_benchmark()),
        multi=multi,
        **kw,
    )
    evaluate.run(ctx)
    return ctx


def _router(replies, judge_fn=None):
    """Evaluated-model requests get the scripted replies; judge requests go to `judge_fn`."""
    evaluated = scripted(replies)

    def respond(body):
        if body.get("model") == JUDGE_NAME:
            return judge_fn(body)
        return evaluated(body)

    return respond


def _judge_verdict(body) -> str:
    """A judge that reads the RESPONSE block of its prompt and grades it."""
    prompt = body["messages"][0]["content"]
    response = prompt.rsplit('RESPONSE:\n"""\n', 1)[1].rsplit('\n"""', 1)[0]
    if "cannot answer" in response or "not able to say" in response:
        return json.dumps(
            {
                "classification": "REFUSE_FALSE_PREMISE_IN_QUERY",
                "quality_score": None,
                "explanation": "declines in plain language",
            }
        )
    if "grounding" in prompt or "SEARCH RESULTS" in prompt:
        return json.dumps(
            {
                "classification": "answer_attempt",
                "eligibility": 1,
                "factuality_all": 1,
                "factuality_relevant": 1,
                "explanation": "supported",
            }
        )
    score = 5 if "Paris" in response or "Obama" in response else 2
    return (
        "Here is my verdict:\n```json\n"
        + json.dumps({"classification": "answer_attempt", "quality_score": score, "explanation": "graded"})
        + "\n```"
    )


def test_deterministic_end_to_end(tmp_path, test_server):
    ctx = _evaluate(tmp_path, test_server)
    n_eval = len(_evaluated(test_server))
    judge.run(ctx)
    lab = _labels_by_marker(ctx)
    for marker, label in NQ_EXPECTED_RULE.items():
        assert lab.loc[marker, "predicted_label"] == label and lab.loc[marker, "label_source"] == "rule"
    assert "evaluation call failed" in lab.loc["e1", "judge_reason"]
    # plain-language refusals are recognised offline and get the code their reason words fit
    assert lab.loc["r3", "predicted_label"] == "REFUSE_INFO_MISSING_IN_CONTEXT"
    assert lab.loc["r3", "label_source"] == "detector" and "plain-language refusal" in lab.loc["r3", "judge_reason"]
    assert lab.loc["a1", "answer_correct"] and lab.loc["a1", "answer_em"] and lab.loc["a1", "answer_f1"] == 1.0
    assert not lab.loc["a2", "answer_correct"] and lab.loc["a2", "answer_f1"] < 0.5
    assert lab.loc["a3", "answer_correct"] and not lab.loc["a3", "answer_em"]  # F1 4/7 >= 0.5
    assert pd.isna(lab.loc["r1", "answer_correct"]) and pd.isna(lab.loc["r1", "answer_f1"])
    for col in (
        "predicted_label",
        "label_source",
        "answer_correct",
        "answer_quality_score",
        "answer_f1",
        "answer_em",
        "eligibility",
        "factuality_all",
        "factuality_relevant",
        "confidence",
        "judge_reason",
        "raw_output",
        "model",
    ):
        assert col in lab.columns
    assert (lab["judge"] == "deterministic").all()
    assert len(_evaluated(test_server)) == n_eval  # judging never calls the evaluated model
    # a stricter threshold flips the partial match
    ctx.cfg.judge = JudgeConfig(f1_threshold=0.9)
    judge.run(ctx)
    assert not _labels_by_marker(ctx).loc["a3", "answer_correct"]


def test_judge_needs_outputs(tmp_path, test_server):
    ctx = make_ctx(tmp_path, model_cfg_for(test_server))
    with pytest.raises(UserError, match="evaluate stage first"):
        judge.run(ctx)


def test_llm_judge_path(tmp_path, test_server, monkeypatch):
    judge_cfg = JudgeConfig(kind="llm", model=model_cfg_for(test_server, name=JUDGE_NAME))
    ctx = _evaluate(tmp_path, test_server, judge_cfg=judge_cfg)
    test_server.set_responder(_router(NQ_REPLIES, _judge_verdict))
    n_eval = len(_evaluated(test_server))
    rendered = []
    real_render = judge_prompt.render
    monkeypatch.setattr(
        judge_prompt, "render", lambda name, **kw: rendered.append((name, kw)) or real_render(name, **kw)
    )
    judge.run(ctx)
    lab = _labels_by_marker(ctx)
    assert len(_evaluated(test_server)) == n_eval
    calls = _judged(test_server)
    assert len(calls) == 4  # a1, a2, a3, r3: the rule settled the rest
    assert all(b.get("temperature") == 0 for b in calls)
    assert all((b.get("response_format") or {}).get("type") in ("json_object", "json_schema") for b in calls)
    assert (
        lab.loc["r3", "predicted_label"] == "REFUSE_FALSE_PREMISE_IN_QUERY" and lab.loc["r3", "label_source"] == "judge"
    )
    assert lab.loc["a1", "answer_quality_score"] == 5 and lab.loc["a1", "answer_correct"]
    assert lab.loc["a2", "answer_quality_score"] == 2 and not lab.loc["a2", "answer_correct"]
    assert lab.loc["r1", "label_source"] == "rule"
    assert (lab["judge"] == judge_cfg.model.id).all()
    # the judge is never given the expected label
    bench = nq_benchmark().set_index("id")
    assert {name for name, _ in rendered} == {"judge_nq"}
    for _, kw in rendered:
        assert not {"expected_rag_behavior", "ground_truth", "expected_behavior", "label"} & set(kw)
        gt = bench.loc[bench["perturbed_query"] == kw["query"], "expected_rag_behavior"].iloc[0]
        assert all(gt not in json.dumps(v, default=str) for k, v in kw.items() if k != "response")
    # re-running the judge: everything cached, no call to either model
    test_server.reset()
    judge.run(ctx)
    assert test_server.requests == []
    assert _labels_by_marker(ctx)["predicted_label"].equals(lab["predicted_label"])


def test_llm_judge_reask_then_unscored(tmp_path, test_server):
    judge_cfg = JudgeConfig(kind="llm", model=model_cfg_for(test_server, name=JUDGE_NAME))
    ctx = _evaluate(tmp_path, test_server, benchmark=nq_benchmark().head(3), judge_cfg=judge_cfg)

    def flaky(body):
        marker = marker_of(body)
        if len(body["messages"]) == 1:
            return "I think it is fine." if marker in ("a1", "a2") else _judge_verdict(body)
        assert "could not be read" in body["messages"][-1]["content"]
        assert body["messages"][1] == {"role": "assistant", "content": "I think it is fine."}
        return _judge_verdict(body) if marker == "a1" else "still no json"

    test_server.set_responder(_router(NQ_REPLIES, flaky))
    judge.run(ctx)
    lab = _labels_by_marker(ctx)
    assert len(_judged(test_server)) == 5  # 3 first asks + 2 re-asks
    assert lab.loc["a1", "predicted_label"] == "answer_attempt" and lab.loc["a1", "answer_correct"]
    assert lab.loc["a2", "predicted_label"] == "unscored"
    assert "unreadable after one re-ask" in lab.loc["a2", "judge_reason"]
    assert lab.loc["a3", "predicted_label"] == "answer_attempt"


def test_llm_judge_that_fails_every_call_stops_without_overwriting_labels(tmp_path, test_server):
    judge_cfg = JudgeConfig(kind="llm", model=model_cfg_for(test_server, name=JUDGE_NAME))
    judge_cfg.model.max_retries = 0
    ctx = _evaluate(tmp_path, test_server, benchmark=nq_benchmark().head(1), judge_cfg=judge_cfg)
    ctx.table_path("labels").write_bytes(b"earlier labels")
    test_server.set_responder(_router(NQ_REPLIES, lambda body: {"status": 400, "message": "nope"}))
    with pytest.raises(UserError, match="Every call to the judge model"):
        judge.run(ctx)
    assert ctx.table_path("labels").read_bytes() == b"earlier labels"


def test_llm_judge_multi_passage(tmp_path, test_server, monkeypatch):
    judge_cfg = JudgeConfig(kind="llm", model=model_cfg_for(test_server, name=JUDGE_NAME))
    ctx = _evaluate(tmp_path, test_server, judge_cfg=judge_cfg, multi=True)
    test_server.set_responder(_router(GARAGE_REPLIES, _judge_verdict))
    rendered = []
    real_render = judge_prompt.render
    monkeypatch.setattr(
        judge_prompt, "render", lambda name, **kw: rendered.append((name, kw)) or real_render(name, **kw)
    )
    judge.run(ctx)
    lab = _labels_by_marker(ctx)
    assert lab.loc["g1", "predicted_label"] == "answer_attempt"
    assert (lab.loc["g1", "eligibility"], lab.loc["g1", "factuality_all"], lab.loc["g1", "factuality_relevant"]) == (
        1,
        1,
        1,
    )
    assert lab.loc["g1", "answer_correct"] and pd.isna(lab.loc["g1", "answer_quality_score"])
    assert lab.loc["g2", "predicted_label"] == "REFUSE_OTHER" and lab.loc["g2", "label_source"] == "rule"
    assert lab.loc["g3", "predicted_label"] == "REFUSE_FALSE_PREMISE_IN_QUERY"
    assert pd.isna(lab.loc["g3", "eligibility"])
    name, kw = rendered[0]
    assert name == "judge_garage" and kw["relevant"] == [True, False]
    assert kw["reference_answer"] == "Paris is the capital of France."


def test_deterministic_multi_passage_and_confidence(tmp_path, test_server):
    ctx = _evaluate(tmp_path, test_server, multi=True, evaluate=EvaluateConfig(prompt_variant="confidence"))
    judge.run(ctx)
    lab = _labels_by_marker(ctx)
    # citations are stripped before matching; the reference answer is among the references
    assert lab.loc["g1", "answer_correct"] and lab.loc["g1", "answer_f1"] == pytest.approx(0.75)
    assert lab.loc["g2", "predicted_label"] == "REFUSE_OTHER"
    assert lab["confidence"].isna().all()  # the scripted replies carry no CONFIDENCE line
    assert "no CONFIDENCE line" in lab.loc["g1", "judge_reason"]


def test_confidence_parsed_and_stripped(tmp_path, test_server):
    replies = {"a1": "Paris.\nCONFIDENCE: 90", "r1": "REFUSE_INFO_MISSING_IN_CONTEXT\n**Confidence:** 40%"}
    bench = nq_benchmark()
    bench = bench[bench["id"].isin(["RB-a1", "RB-r1"])]
    test_server.set_responder(scripted(replies))
    ctx = make_ctx(
        tmp_path, model_cfg_for(test_server), benchmark=bench, evaluate=EvaluateConfig(prompt_variant="confidence")
    )
    evaluate.run(ctx)
    judge.run(ctx)
    lab = _labels_by_marker(ctx)
    assert lab.loc["a1", "confidence"] == pytest.approx(0.9) and lab.loc["a1", "answer_text"] == "Paris."
    assert lab.loc["a1", "answer_em"]
    assert lab.loc["r1", "confidence"] == pytest.approx(0.4)
    assert lab.loc["r1", "predicted_label"] == "REFUSE_INFO_MISSING_IN_CONTEXT"


def test_judge_config_errors(tmp_path, test_server):
    # invalid judge settings are rejected when the config is built, before any stage runs
    with pytest.raises(UserError, match="judge.model"):
        JudgeConfig(kind="llm", model=None)
    with pytest.raises(UserError, match="judge.kind"):
        JudgeConfig(kind="magic")
