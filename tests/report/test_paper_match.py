"""Matching our model ids to the paper's model names."""

from __future__ import annotations

import pytest

from refusalbench.report.paper import load_paper_numbers, matches, our_number


@pytest.mark.parametrize(
    "paper, ours, budget, expected",
    [
        ("Claude-4-Sonnet", "claude-sonnet-4", None, True),
        ("Claude-4-Sonnet", "bedrock/us.anthropic.claude-sonnet-4-20250514-v1:0", 0, True),
        ("Claude-4-Sonnet", "claude-sonnet-4-5-20250929", None, False),
        ("Claude-4-Sonnet", "claude-opus-4", None, False),
        ("Claude-4-Sonnet (4096 thinking tokens)", "claude-sonnet-4", 4096, True),
        ("Claude-4-Sonnet (4096 thinking tokens)", "claude-sonnet-4", None, False),
        ("Claude-4-Sonnet", "claude-sonnet-4", 1024, False),
        ("Claude-4-Opus", "bedrock/us.anthropic.claude-opus-4-20250514-v1:0", None, True),
        ("Claude-3.5-Sonnet", "claude-3-5-sonnet-20241022", None, True),
        ("GPT-4o", "openai/gpt-4o-2024-08-06", None, True),
        ("GPT-4o", "gpt-4o-mini", None, False),
        ("GPT-4.1", "gpt-4.1-2025-04-14", None, True),
        ("GPT-4.1", "gpt-4.1-mini", None, False),
        ("o4-mini", "openai/o4-mini-2025-04-16", None, True),
        ("DeepSeek-R1", "bedrock/converse/us.deepseek.r1-v1:0", None, True),
        ("DeepSeek-R1", "deepseek-r1", None, True),
        ("Nova-Premier", "us.amazon.nova-premier-v1:0", None, True),
        ("Qwen1.5-7B-Chat", "Qwen/Qwen1.5-7B-Chat", None, True),
        ("Qwen1.5-7B-Chat", "Qwen/Qwen1.5-4B-Chat", None, False),
        ("all models", "all-models", None, False),
        ("Claude family", "claude-family", None, False),
        ("Llama-3.1-70B vs 8B", "llama-3.1-70b-vs-8b", None, False),
    ],
)
def test_matches(paper, ours, budget, expected):
    assert matches(paper, ours, budget) is expected


def test_packaged_paper_numbers_and_metric_mapping():
    paper = load_paper_numbers()
    assert paper is not None and {"benchmark", "model", "metric", "value"} <= set(paper.columns)
    m = {
        "refusal_accuracy": {"value": 0.5, "ci_low": 0.4},
        "breakdowns": {"perturbation_class": {"P-GranularityMismatch": {"refusal_accuracy": {"value": 0.3}}}},
    }
    assert our_number(m, "refusal_accuracy") == ("refusal_accuracy", 0.5, {"value": 0.5, "ci_low": 0.4})
    assert our_number(m, "REFUSE_GRANULARITY_accuracy")[1] == 0.3
    assert our_number(m, "inter_verifier_kappa_range") is None


def test_missing_paper_file(tmp_path):
    assert load_paper_numbers(tmp_path / "absent.csv") is None
