"""The compact generator/verifier prompts (`prompts=compact`, the local preset's): content, shared prefix, a run."""

from __future__ import annotations

import json
import re

from refusalbench import taxonomy as tx
from refusalbench.config import ModelConfig
from refusalbench.generation.tasks import Task, generator_template, prompt_variables, verifier_template
from refusalbench.generation.verifier_prompts import verifier_prompt
from refusalbench.levers import load_catalogue
from refusalbench.prompts import render
from refusalbench.stages import check, generate, verify
from tests.support.generation import ANSWER, ScriptedLayer, context_with, make_cfg, single_base, write_base

CATALOGUE = load_catalogue()
BASE = {
    "query": "who designed the eiffel tower",
    "answers": [ANSWER],
    "context": "The Eiffel Tower was designed by Gustave Eiffel's company in 1887 and finished in 1889.",
}


def prompts_for(template: str) -> dict[tuple[str, str], str]:
    out = {}
    for cls, intensity in tx.cells():
        task = Task("c", "s", cls, intensity, "local", None, CATALOGUE.names(cls, intensity), "v", BASE)
        out[(cls, intensity)] = render(template, **prompt_variables(task, CATALOGUE, False))
    return out


def test_compact_generator_prompt_lists_the_levers_without_examples_and_is_shorter():
    compact, full = prompts_for("generator_nq_compact"), prompts_for("generator_nq")
    for (cls, intensity), text in compact.items():
        listed = re.findall(r"^- (.+?): ", text.split("LEVERS", 1)[1], re.M)
        assert listed == CATALOGUE.names(cls, intensity)
        for lever in CATALOGUE.levers(cls, intensity):
            assert lever.instruction in text and lever.illustration["context"] not in text
        assert BASE["context"] in text and f'"{ANSWER}"' in text and tx.ground_truth(cls, intensity) in text
        assert len(text) < 0.65 * len(full[(cls, intensity)])


def test_the_item_comes_before_the_cell_so_the_cells_of_one_question_share_a_prefix():
    prefixes = {text.split("WHAT TO CREATE", 1)[0] for text in prompts_for("generator_nq_compact").values()}
    assert len(prefixes) == 1 and BASE["context"] in prefixes.pop()


def candidate_row(lever: str) -> dict:
    return {
        "candidate_id": "c1",
        "source_id": "s",
        "perturbation_class": "P-MissingInfo",
        "intensity": "HIGH",
        "generator": "local",
        "original_query": BASE["query"],
        "original_answers": BASE["answers"],
        "original_context": BASE["context"],
        "perturbed_query": BASE["query"],
        "perturbed_context": "The Eiffel Tower was designed in 1887 and finished in 1889.",
        "lever_selected": lever,
        "implementation_reasoning": "removed the designer",
        "intensity_achieved": "HIGH",
    }


def test_compact_verifier_prompt_shows_only_the_claimed_lever():
    levers = CATALOGUE.levers("P-MissingInfo", "HIGH")
    text = verifier_prompt(candidate_row(levers[1].name), CATALOGUE, False, "compact")
    assert re.findall(r"^Lever: (.+?): ", text, re.M) == [levers[1].name]
    assert "REFUSE_INFO_MISSING_IN_CONTEXT" in text and "designed in 1887 and finished" in text
    # a claimed name that is not a lever of the cell: every lever of the cell is shown
    text = verifier_prompt(candidate_row("No Such Lever"), CATALOGUE, False, "compact")
    assert len(re.findall(r"^Lever: ", text, re.M)) == len(levers)


def test_multi_passage_data_keeps_the_full_templates():
    assert generator_template(True, "compact") == "generator_garage"
    assert verifier_template(True, "compact") == "verifier_garage"
    assert (generator_template(False, "compact"), verifier_template(False, "compact")) == (
        "generator_nq_compact",
        "verifier_nq_compact",
    )


CHECKLIST_TRUE = {"lever_correctly_implemented": True, "answer_constraint_satisfied": True}


def compact_reply(messages: list, model_cfg, verdict: dict = CHECKLIST_TRUE) -> str:
    """A reply read off a compact prompt: the verifier's `verdict` (PASS when every item is true); generators take
    the first lever and drop the answer."""
    prompt = messages[0]["content"]
    if prompt.startswith("You check test cases"):
        return json.dumps({**verdict, "verification_result": "PASS" if all(verdict.values()) else "FAIL"})
    cls, intensity = re.search(r"Kind of uncertainty: (P-\w+)\. Intensity: (\w+)", prompt).groups()
    context = re.search(r'Passage:\n"""\n(.*?)\n"""', prompt, re.S).group(1)
    query = re.search(r'Query: "(.*)"', prompt).group(1)
    mark = {"LOW": "", "MEDIUM": " really", "HIGH": " truly"}[intensity]
    if cls in ("P-MissingInfo", "P-Contradiction"):
        context = context.replace(ANSWER, "an engineer") + f" Others{mark} disagree."
    elif cls == "P-FalsePremise":
        query = f"Why did{mark} " + query
    else:
        query = f"{query} (roughly{mark})"
    lever = re.findall(r"^- (.+?): ", prompt.split("LEVERS", 1)[1], re.M)[0]
    fields = {"lever_selected": lever, "perturbed_query": query, "perturbed_context": context}
    return json.dumps({**fields, "implementation_reasoning": "one edit", "intensity_achieved": intensity})


def run_compact(tmp_path, responder):
    model = {"local": ModelConfig(name="openai/local-test", id="local-test")}
    cfg = make_cfg(tmp_path, model, dict(model), source=write_base(tmp_path, single_base()))
    cfg.generators.prompts = cfg.verifiers.prompts = "compact"
    layer = ScriptedLayer(responder)
    ctx = context_with(cfg, tmp_path / "run", layer)
    for stage in (generate, check, verify):
        stage.run(ctx)
    return ctx, layer


def test_a_run_with_compact_prompts_generates_and_verifies(tmp_path):
    ctx, layer = run_compact(tmp_path, compact_reply)
    candidates, votes = ctx.read_table("candidates"), ctx.read_table("votes")
    assert len(candidates) == 36 and candidates["generation_ok"].all()
    assert candidates["prompt_version"].str.startswith("generator_nq_compact@").all()
    assert len(votes) == int(ctx.read_table("checked")["check_ok"].sum()) > 0
    assert (votes["verdict"] == "PASS").all() and votes["prompt_version"].str.startswith("verifier_nq_compact@").all()
    assert {spec.response_format for _, spec, _ in layer.requests} == {"json"}


def test_a_compact_fail_vote_gives_the_false_checklist_items_as_its_reason(tmp_path):
    verdict = {
        "lever_correctly_implemented": True,
        "answer_constraint_satisfied": False,
        "ground_truth_alignment": False,
    }
    ctx, _ = run_compact(tmp_path, lambda messages, cfg: compact_reply(messages, cfg, verdict))
    votes = ctx.read_table("votes")
    assert len(votes) > 0 and (votes["verdict"] == "FAIL").all()
    assert (votes["verdict_reason"] == "false: answer_constraint_satisfied, ground_truth_alignment").all()
