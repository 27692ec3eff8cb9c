"""Prompt templates: rendering, strict variables, literal data, versions, layout rules."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass

import numpy as np
import pytest
from jinja2 import StrictUndefined, meta
from jinja2.sandbox import SandboxedEnvironment

from refusalbench import prompts
from refusalbench.errors import UserError
from refusalbench.paths import PROMPTS_DIR
from refusalbench.prompts import (
    PromptError,
    declared_version,
    documented_variables,
    get_template,
    render,
    template_hash,
    template_names,
    template_version,
)
from refusalbench.taxonomy import ANSWER_CORRECTLY, REFUSAL_CODES

NAMES = [
    "evaluate_garage",
    "evaluate_garage_confidence",
    "evaluate_nq",
    "evaluate_nq_confidence",
    "generator_garage",
    "generator_nq",
    "generator_nq_compact",
    "judge_garage",
    "judge_nq",
    "verifier_garage",
    "verifier_nq",
    "verifier_nq_compact",
]

LEVERS = [
    {
        "name": "Contextual Information Withholding",
        "instruction": "Delete the sentence that states the fact the query asks about, keeping the rest fluent.",
        "illustration": {
            "query": "When did the bridge open?",
            "context": "The bridge spans the river and carries two lanes.",
            "answer": "REFUSE_INFO_MISSING_IN_CONTEXT",
        },
    },
    {
        "name": "Entity Erasure",
        "instruction": "Replace the answer entity with a vague placeholder so it cannot be recovered.",
        "illustration": {
            "query": "Who designed the tower?",
            "context": "The tower was designed by a well-known engineer.",
            "answer": "REFUSE_INFO_MISSING_IN_CONTEXT",
        },
    },
]

NQ_GEN = {
    "perturbation_class": "P-MissingInfo",
    "intensity": "HIGH",
    "target": "Context",
    "original_query": "who designed the eiffel tower in paris",
    "original_context": (
        "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris. It is named after the "
        "engineer Gustave Eiffel, whose company designed and built the tower for the 1889 World's Fair."
    ),
    "original_answers": ["Gustave Eiffel", "Maurice Koechlin"],
    "levers": LEVERS,
    "intensity_criterion": "Information essential to any answer is completely absent.",
    "ground_truth": "REFUSE_INFO_MISSING_IN_CONTEXT",
}
NQ_OUTPUT = {
    "perturbed_query": NQ_GEN["original_query"],
    "perturbed_context": "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris.",
    "lever_selected": "Contextual Information Withholding",
    "implementation_reasoning": "Removed the sentence naming the designer.",
    "intensity_achieved": "HIGH",
}
SIGNAL = [
    "Metformin is the usual first-line medicine for type 2 diabetes in adults.",
    "Guidelines recommend starting metformin at diagnosis unless kidney function is poor.",
]
NOISE = [
    "Insulin was first isolated in 1921 in Toronto.",
    "Regular exercise improves insulin sensitivity.",
    "Type 1 diabetes is an autoimmune condition.",
]
GARAGE_GEN = {
    "perturbation_class": "P-Contradiction",
    "intensity": "MEDIUM",
    "target": "Context",
    "original_query": "What is the first-line drug for type 2 diabetes?",
    "signal_passages": SIGNAL,
    "noise_passages": NOISE,
    "original_answers": ["Metformin is the first-line drug for adults with type 2 diabetes."],
    "levers": LEVERS,
    "intensity_criterion": "Authoritative sources conflict directly on the core fact.",
    "ground_truth": "REFUSE_CONTRADICTORY_CONTEXT",
    "garage_strategy": "Edit exactly one noise passage so that it contradicts the signal passages.",
}
GARAGE_OUTPUT = {
    "perturbed_query": GARAGE_GEN["original_query"],
    "perturbed_signal_passages": [],
    "perturbed_noise_passages": [{"passage": "N2", "perturbed_text": "Sulfonylureas, not metformin, come first."}],
    "lever_selected": "Entity Erasure",
    "implementation_reasoning": "Rewrote N2 so that it names a different first-line drug.",
    "intensity_achieved": "MEDIUM",
}
PASSAGES = [*SIGNAL, *NOISE]

SAMPLES: dict[str, dict] = {
    "generator_nq": NQ_GEN,
    "verifier_nq": {**NQ_GEN, "generator_output": NQ_OUTPUT},
    "generator_nq_compact": NQ_GEN,
    "verifier_nq_compact": {**NQ_GEN, "generator_output": NQ_OUTPUT},
    "generator_garage": GARAGE_GEN,
    "verifier_garage": {**GARAGE_GEN, "generator_output": GARAGE_OUTPUT},
    "evaluate_nq": {"query": NQ_GEN["original_query"], "context": NQ_GEN["original_context"]},
    "evaluate_nq_confidence": {"query": NQ_GEN["original_query"], "context": NQ_GEN["original_context"]},
    "evaluate_garage": {"query": GARAGE_GEN["original_query"], "passages": PASSAGES},
    "evaluate_garage_confidence": {"query": GARAGE_GEN["original_query"], "passages": PASSAGES},
    "judge_nq": {
        "query": NQ_GEN["original_query"],
        "response": "Gustave Eiffel's company designed it.",
        "reference_answers": ["Gustave Eiffel", "Maurice Koechlin"],
    },
    "judge_garage": {
        "query": GARAGE_GEN["original_query"],
        "reference_answer": GARAGE_GEN["original_answers"][0],
        "response": "Metformin [1][2].",
        "passages": PASSAGES,
        "relevant": [True, True, False, False, False],
    },
}
QUERY_OF = {name: sample.get("query", sample.get("original_query")) for name, sample in SAMPLES.items()}


def test_template_names_are_the_contract_set():
    assert template_names() == NAMES


def test_environment_is_sandboxed_and_strict():
    assert isinstance(prompts._ENV, SandboxedEnvironment)
    assert prompts._ENV.undefined is StrictUndefined
    assert prompts._ENV.autoescape is False
    assert prompts._ENV.keep_trailing_newline is True


def test_prompt_error_is_a_user_error():
    assert issubclass(PromptError, UserError)


@pytest.mark.parametrize("name", NAMES)
def test_header_documents_exactly_the_used_variables(name):
    source = (PROMPTS_DIR / f"{name}.j2").read_text(encoding="utf-8")
    used = meta.find_undeclared_variables(prompts._ENV.parse(source)) - set(prompts._ENV.globals)
    assert set(documented_variables(name)) == used
    assert set(SAMPLES[name]) == used
    assert get_template(name).version >= 1


@pytest.mark.parametrize("name", NAMES)
def test_renders_with_documented_variables(name):
    text = render(name, **SAMPLES[name])
    assert QUERY_OF[name] in text
    assert "{{" not in text and "{%" not in text and "{#" not in text
    assert render(name, **SAMPLES[name]) == text


@pytest.mark.parametrize("name", NAMES)
def test_missing_variable_is_a_prompt_error_naming_it(name):
    for variable in documented_variables(name):
        values = {k: v for k, v in SAMPLES[name].items() if k != variable}
        with pytest.raises(PromptError) as info:
            render(name, **values)
        assert variable in str(info.value) and name in str(info.value)


def test_unexpected_variable_and_none_value_are_errors():
    with pytest.raises(PromptError, match="expected_rag_behavior"):
        render("judge_nq", **SAMPLES["judge_nq"], expected_rag_behavior="ANSWER_CORRECTLY")
    with pytest.raises(PromptError, match="context"):
        render("evaluate_nq", query="q", context=None)


def test_unknown_template_is_a_prompt_error():
    with pytest.raises(PromptError, match="no_such_template"):
        render("no_such_template")
    with pytest.raises(PromptError):
        template_version("../pyproject")


INJECTIONS = ["{{ 7 * 7 }}", "{% for x in range(3) %}loop{% endfor %}", "{# hidden #}", "{{ fail('x') }}"]


def _inject(value, payload):
    if isinstance(value, str):
        return f"{value} {payload}"
    if isinstance(value, list):
        return [_inject(v, payload) for v in value]
    if isinstance(value, dict):
        return {k: _inject(v, payload) for k, v in value.items()}
    return value


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("payload", INJECTIONS)
def test_template_syntax_inside_data_stays_literal(name, payload):
    keep = {"perturbation_class", "intensity", "ground_truth", "target"}  # validated taxonomy values
    values = {k: (v if k in keep else _inject(v, payload)) for k, v in SAMPLES[name].items()}
    text = render(name, **values)
    assert payload in text
    assert "49" not in text and "looploop" not in text


@pytest.mark.parametrize("name", NAMES)
def test_version_and_hash_are_stable_and_match_the_source(name):
    source = (PROMPTS_DIR / f"{name}.j2").read_text(encoding="utf-8")
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    assert template_hash(name) == digest
    version = get_template(name).version
    assert template_version(name) == f"{name}@{version}:{digest[:8]}"
    assert re.fullmatch(r"[a-z_]+@\d+:[0-9a-f]{8}", template_version(name))
    assert template_version(name) == template_version(name)
    assert declared_version(name) == template_version(name)  # the cheap form provenance records


def test_versions_and_hashes_differ_per_template():
    assert len({template_hash(n) for n in NAMES}) == len(NAMES)
    assert len({template_version(n) for n in NAMES}) == len(NAMES)


@pytest.mark.parametrize(
    "name", ["evaluate_nq", "evaluate_garage", "evaluate_nq_confidence", "evaluate_garage_confidence"]
)
def test_evaluate_prompts_list_all_codes_before_the_item(name):
    sample = SAMPLES[name]
    text = render(name, **sample)
    query_at = text.index(sample["query"])
    item_data = sample.get("context") or sample["passages"][0]
    assert query_at < text.index(item_data)
    for code in REFUSAL_CODES:
        assert code in text
        assert text.index(code) < query_at
    assert "INSTRUCTIONS" in text and text.index("INSTRUCTIONS") < query_at
    assert text.rstrip().endswith("ANSWER:")
    if name.endswith("_confidence"):
        assert "CONFIDENCE:" in text and text.index("CONFIDENCE:") < query_at
    else:
        assert "CONFIDENCE" not in text
    # The fixed part is a byte-identical prefix across items (prompt-prefix caching).
    other = render(name, **{**sample, "query": "a different question"})
    prefix = text[:query_at]
    assert other.startswith(prefix)


def test_evaluate_garage_numbers_passages_from_one():
    text = render("evaluate_garage", query="q", passages=np.array(["  alpha  ", "beta"]))
    assert "[1] alpha\n\n[2] beta\n" in text
    assert "No search results provided." in render("evaluate_garage", query="q", passages=[])


def test_garage_generator_labels_match_the_output_schema():
    text = render("generator_garage", **GARAGE_GEN)
    shown = re.findall(r"^Passage ([SN]\d+):$", text, flags=re.M)
    assert shown == ["S1", "S2", "N1", "N2", "N3"]
    schema = text[text.index("OUTPUT (valid JSON only") :]
    assert "signal passages S1, S2; noise passages N1, N2, N3." in schema
    assert '{"passage": "S1", "perturbed_text"' in schema
    assert '{"passage": "N1", "perturbed_text"' in schema
    assert "original_index" not in text and "S0" not in text and "N0" not in text
    without_noise = render("generator_garage", **{**GARAGE_GEN, "noise_passages": []})
    assert "[None provided]" in without_noise and '"perturbed_noise_passages": [],' in without_noise


def test_ambiguity_block_only_for_ambiguity():
    base = {
        **GARAGE_GEN,
        "perturbation_class": "P-Ambiguity",
        "target": "Query/Context",
        "ground_truth": "REFUSE_AMBIGUOUS_QUERY",
    }
    assert "AMBIGUITY REQUIREMENT" in render("generator_garage", **base)
    assert "unavoidable" in render("verifier_garage", **base, generator_output=GARAGE_OUTPUT)
    low = render("generator_garage", **{**base, "intensity": "LOW", "ground_truth": ANSWER_CORRECTLY})
    assert "resolvable" in low
    assert "AMBIGUITY REQUIREMENT" not in render("generator_garage", **GARAGE_GEN)


def _constraint(text: str) -> str:
    start = text.index("ANSWER CONSTRAINT")
    return text[start : text.index("AVAILABLE LEVERS")]


def test_nq_answer_constraint_variants():
    low = {**NQ_GEN, "intensity": "LOW", "ground_truth": ANSWER_CORRECTLY}
    variants = {
        ("LOW", 1): _constraint(render("generator_nq", **{**low, "original_answers": ["Gustave Eiffel"]})),
        ("LOW", 2): _constraint(render("generator_nq", **low)),
        ("HIGH", 1): _constraint(render("generator_nq", **{**NQ_GEN, "original_answers": "Gustave Eiffel"})),
        ("HIGH", 2): _constraint(render("generator_nq", **NQ_GEN)),
    }
    assert len(set(variants.values())) == 4
    assert ANSWER_CORRECTLY in variants[("LOW", 1)] and ANSWER_CORRECTLY in variants[("LOW", 2)]
    assert "REFUSE_INFO_MISSING_IN_CONTEXT" in variants[("HIGH", 1)]
    assert "at least one" in variants[("LOW", 2)].lower() and "none of" in variants[("HIGH", 2)].lower()
    # A bare string is one answer, not a list of characters.
    bare = render("generator_nq", **{**NQ_GEN, "original_answers": "Gustave Eiffel"})
    assert 'Original answer(s): "Gustave Eiffel"\n' in bare
    assert '"Gustave Eiffel" OR "Maurice Koechlin"' in render("generator_nq", **NQ_GEN)


def test_verifier_checklists_and_output_fields():
    nq = render("verifier_nq", **SAMPLES["verifier_nq"])
    garage = render("verifier_garage", **SAMPLES["verifier_garage"])
    items = [
        "LEVER FIDELITY",
        "INTENSITY ACCURACY",
        "TARGET COMPLIANCE",
        "UNCERTAINTY INDUCTION",
        "IMPLEMENTATION QUALITY",
        "ANSWER CONSTRAINT:",
        "RAG BEHAVIOUR PREDICTION",
        "REFUSAL CLASS ALIGNMENT",
    ]
    for item in items:
        assert item in nq and item in garage
    assert "STRATEGY COMPLIANCE" in garage and "STRATEGY COMPLIANCE" not in nq
    assert re.search(r"^8\. REFUSAL CLASS ALIGNMENT", nq, flags=re.M)
    assert re.search(r"^9\. REFUSAL CLASS ALIGNMENT", garage, flags=re.M)
    booleans = [
        "lever_correctly_implemented",
        "intensity_correctly_achieved",
        "target_correctly_modified",
        "uncertainty_successfully_induced",
        "implementation_quality_sound",
        "answer_constraint_satisfied",
        "ground_truth_alignment",
        "refusal_class_correct",
    ]
    for key in ["verification_result", *booleans]:
        assert f'"{key}":' in nq and f'"{key}":' in garage
    assert '"strategy_compliance":' in garage
    low = {"intensity": "LOW", "ground_truth": ANSWER_CORRECTLY}
    for text in (
        nq,
        garage,
        render("verifier_nq", **{**SAMPLES["verifier_nq"], **low}),
        render("verifier_garage", **{**SAMPLES["verifier_garage"], **low}),
    ):
        for section in ("VERIFICATION CHECKLIST", "CRITICAL TEST", "REFUSAL CLASS TEST", "FAILURE INDICATORS"):
            assert f"\n\n{section}" in text  # sections never run into the previous line


def test_verifiers_see_only_the_perturbation_fields():
    declared = {
        "expected_rag_behavior": "SELF_DECLARED_LABEL",
        "answer_constraint_satisfied": "SELF_CLAIM",
        "parsing_successful": True,
    }
    nq = render("verifier_nq", **{**NQ_GEN, "generator_output": {**NQ_OUTPUT, **declared}})
    garage = render("verifier_garage", **{**GARAGE_GEN, "generator_output": {**GARAGE_OUTPUT, **declared}})
    for text in (nq, garage):
        assert "SELF_DECLARED_LABEL" not in text and "SELF_CLAIM" not in text and "parsing_successful" not in text
    assert '"passage": "N2"' in garage
    with pytest.raises(PromptError, match="lever_selected"):
        render("verifier_nq", **{**NQ_GEN, "generator_output": {"perturbed_query": "q"}})


def test_generator_output_json_is_not_html_escaped():
    output = {**NQ_OUTPUT, "perturbed_context": "a < b && c > d 'quoted' — ünïcode"}
    text = render("verifier_nq", **{**NQ_GEN, "generator_output": output})
    assert json.dumps(output["perturbed_context"], ensure_ascii=False) in text


def test_taxonomy_values_are_validated():
    with pytest.raises(PromptError, match="ground_truth"):
        render("generator_nq", **{**NQ_GEN, "ground_truth": ANSWER_CORRECTLY})
    with pytest.raises(PromptError, match="low"):
        render("generator_nq", **{**NQ_GEN, "intensity": "low"})
    with pytest.raises(PromptError, match="P-Unknown"):
        render("generator_nq", **{**NQ_GEN, "perturbation_class": "P-Unknown"})


def test_empty_inputs_are_rejected():
    with pytest.raises(PromptError, match="levers"):
        render("generator_nq", **{**NQ_GEN, "levers": []})
    with pytest.raises(PromptError, match="original_answers"):
        render("generator_nq", **{**NQ_GEN, "original_answers": ["", "  "]})
    with pytest.raises(PromptError, match="signal_passages"):
        render("generator_garage", **{**GARAGE_GEN, "signal_passages": []})


@dataclass(frozen=True)
class _Illustration:
    query: str
    context: str
    answer: str


@dataclass(frozen=True)
class _Lever:
    name: str
    instruction: str
    illustration: _Illustration


def test_lever_objects_and_numpy_lists_render():
    lever = _Lever(
        "Entity Erasure",
        "Blank out the entity.",
        _Illustration("Who?", "Someone did it.", "REFUSE_INFO_MISSING_IN_CONTEXT"),
    )
    text = render("generator_nq", **{**NQ_GEN, "levers": [lever], "original_answers": np.array(["Gustave Eiffel"])})
    assert "1. Entity Erasure: Blank out the entity." in text
    assert "answer REFUSE_INFO_MISSING_IN_CONTEXT" in text
    with pytest.raises(PromptError, match="query"):
        render("generator_nq", **{**NQ_GEN, "levers": [{"name": "x", "instruction": "y", "illustration": "flat"}]})


JUDGE_FORBIDDEN = re.compile(r"expected|ground|truth|label|gold|gt\b|behavio", re.I)


@pytest.mark.parametrize("name", ["judge_nq", "judge_garage"])
def test_judges_never_receive_the_expected_label(name):
    assert not [v for v in documented_variables(name) if JUDGE_FORBIDDEN.search(v)]
    text = render(name, **SAMPLES[name])
    assert ANSWER_CORRECTLY not in text
    assert "EXPECTED" not in text.upper()
    for code in REFUSAL_CODES:  # the judge lists every code, not one privileged expected code
        assert text.count(code) >= 1


def test_judge_nq_output_and_references():
    text = render("judge_nq", **SAMPLES["judge_nq"])
    assert '"classification"' in text and '"quality_score"' in text and '"explanation"' in text
    for score in "12345":
        assert re.search(rf"^{score} = ", text, flags=re.M)
    assert "- Gustave Eiffel\n- Maurice Koechlin" in text
    none = render("judge_nq", **{**SAMPLES["judge_nq"], "reference_answers": []})
    assert "None provided" in none


def test_judge_garage_output_and_relevant_passages():
    text = render("judge_garage", **{**SAMPLES["judge_garage"], "relevant": [False, True, False, True, False]})
    for key in ("classification", "eligibility", "factuality_all", "factuality_relevant", "explanation"):
        assert f'"{key}"' in text
    assert "directly answer the query): [2][4]\n" in text
    assert "[5] Type 1 diabetes" in text
    none = render("judge_garage", **{**SAMPLES["judge_garage"], "relevant": [False] * 5})
    assert "none; any factual claim" in none
    with pytest.raises(PromptError, match="relevant"):
        render("judge_garage", **{**SAMPLES["judge_garage"], "relevant": [True]})
    with pytest.raises(PromptError, match="relevant"):
        render("judge_garage", **{**SAMPLES["judge_garage"], "relevant": ["YES", "NO", "NO", "NO", "NO"]})


@pytest.fixture
def prompts_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(prompts, "PROMPTS_DIR", tmp_path)
    get_template.cache_clear()
    yield tmp_path
    get_template.cache_clear()


def test_malformed_template_files_are_clear_errors(prompts_dir):
    (prompts_dir / "no_header.j2").write_text("Hello {{ who }}\n", encoding="utf-8")
    (prompts_dir / "wrong_vars.j2").write_text(
        "{# name: wrong_vars; version: 1; variables: a #}\n{{ b }}\n", encoding="utf-8"
    )
    (prompts_dir / "bad_syntax.j2").write_text(
        "{# name: bad_syntax; version: 1; variables: a #}\n{% if a %}\n", encoding="utf-8"
    )
    (prompts_dir / "good.j2").write_text("{# name: good; version: 3; variables: a #}\n[{{ a }}]\n", encoding="utf-8")
    with pytest.raises(PromptError, match="must start with"):
        get_template("no_header")
    with pytest.raises(PromptError, match="documents"):
        get_template("wrong_vars")
    with pytest.raises(PromptError, match="syntax error"):
        get_template("bad_syntax")
    assert render("good", a="x") == "[x]\n"
    assert template_version("good").startswith("good@3:")
