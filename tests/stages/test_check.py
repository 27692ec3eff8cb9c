"""The check stage on generated candidates: off-target edits, surviving answers, unknown levers."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from refusalbench.config import ModelConfig
from refusalbench.errors import UserError
from refusalbench.levers import load_catalogue
from refusalbench.perturb import PROGRAMMATIC_LEVERS_FILES
from refusalbench.stages import check, generate
from tests.support.generation import (
    ScriptedLayer,
    context_with,
    generator_reply,
    make_cfg,
    multi_base,
    single_base,
    write_base,
)

GEN = {"gpt": ModelConfig(name="openai/gpt-test", id="gpt-test")}


def generate_and_check(tmp_path, responder, base):
    cfg = make_cfg(tmp_path, GEN, {}, source=write_base(tmp_path, base))
    ctx = context_with(cfg, tmp_path / "run", ScriptedLayer(responder))
    generate.run(ctx)
    check.run(ctx)
    return ctx.read_table("checked").set_index(["perturbation_class", "intensity", "source_id"])


def test_good_candidates_pass(tmp_path):
    checked = generate_and_check(tmp_path, lambda m, c: generator_reply(m[0]["content"]), single_base())
    assert checked["check_ok"].all(), checked.loc[~checked["check_ok"], "check_reason"].tolist()


def test_off_target_edits_caught(tmp_path):
    def responder(messages, cfg):
        prompt = messages[0]["content"]
        reply = json.loads(generator_reply(prompt, fence=False))
        if "P-FalsePremise perturbation" in prompt:
            reply["perturbed_context"] += " Extra sentence."  # FalsePremise may not touch the context
        if "P-MissingInfo perturbation at HIGH" in prompt:
            reply["perturbed_context"] = "It was Gustave EIFFEL, surely."  # answer survives
        if "P-Contradiction perturbation at LOW" in prompt:
            reply["perturbed_query"] = "Who really designed it?"  # Contradiction may not touch the query
        if "P-Ambiguity perturbation at LOW" in prompt:
            reply["perturbed_query"] = reply["perturbed_context"] = None
            return json.dumps({k: v for k, v in reply.items() if v is not None})  # invalid: missing fields
        if "P-Ambiguity perturbation at HIGH" in prompt:
            reply["perturbed_query"] = prompt.split('Original query: "')[1].split('"')[0]  # nothing changed
        return json.dumps(reply)

    checked = generate_and_check(tmp_path, responder, single_base())
    reason = checked["check_reason"]
    assert "byte-identical" in reason[("P-FalsePremise", "MEDIUM", "q1")]
    assert "still present" in reason[("P-MissingInfo", "HIGH", "q1")]
    assert "query unchanged" in reason[("P-Contradiction", "LOW", "q2")]
    assert reason[("P-Ambiguity", "LOW", "q1")].startswith("generation failed")
    assert reason[("P-Ambiguity", "HIGH", "q1")] == "nothing was changed"
    assert checked.loc[("P-GranularityMismatch", "LOW", "q1"), "check_ok"]


def test_multi_passage_kinds_and_counts(tmp_path):
    def responder(messages, cfg):
        prompt = messages[0]["content"]
        reply = json.loads(generator_reply(prompt, fence=False))
        if "P-Contradiction perturbation at HIGH" in prompt:
            reply["perturbed_noise_passages"].append({"passage": "N2", "perturbed_text": "second noise edit"})
        if "P-MissingInfo perturbation at LOW" in prompt:
            reply["perturbed_noise_passages"] = [{"passage": "N3", "perturbed_text": "noise edit"}]
        return json.dumps(reply)

    checked = generate_and_check(tmp_path, responder, multi_base())
    reason = checked["check_reason"]
    assert "exactly one noise passage, edited 2" in reason[("P-Contradiction", "HIGH", "q1")]
    assert "only signal passages" in reason[("P-MissingInfo", "LOW", "q1")]
    assert checked.loc[("P-Contradiction", "MEDIUM", "q1"), "check_ok"]
    assert checked.loc[("P-EpistemicMismatch", "HIGH", "q2"), "check_ok"]


def test_check_needs_candidates(tmp_path):
    cfg = make_cfg(tmp_path, GEN, {})
    with pytest.raises(UserError, match="generate stage first"):
        check.run(context_with(cfg, tmp_path / "empty"))


def _epistemic_row(candidate_id, source_id, query, context="The song was released in 1983."):
    return {
        "candidate_id": candidate_id,
        "source_id": source_id,
        "perturbation_class": "P-EpistemicMismatch",
        "intensity": "MEDIUM",
        "generation_ok": True,
        "original_query": f"when was it released ({source_id})",
        "perturbed_query": query,
        "original_context": context,
        "perturbed_context": context,
        "original_answers": ["1983"],
        "lever_selected": "Forecast without Model",
    }


def test_the_same_item_from_two_questions_is_kept_once():
    same = 'Will the song "Holiday Road" still be widely known fifty years from now?'
    rows = [
        _epistemic_row("c1", "q1", same),
        _epistemic_row("c2", "q2", same),  # another question on the same passage: the same item again
        _epistemic_row("c3", "q3", 'Will the song "Holiday Road" still be played in fifty years?'),
    ]
    checked = check.check_table(pd.DataFrame(rows), load_catalogue(PROGRAMMATIC_LEVERS_FILES)).set_index("candidate_id")
    assert checked.loc["c1", "check_ok"] and checked.loc["c3", "check_ok"]
    assert not checked.loc["c2", "check_ok"]
    assert "the same item as candidate c1 of question q1" in checked.loc["c2", "check_reason"]
