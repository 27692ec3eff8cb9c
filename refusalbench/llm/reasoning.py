"""One normalised reasoning setting, mapped per provider; reasoning traces kept apart from answers.

`ReasoningConfig(budget_tokens, effort, answer_allowance)` becomes:

- Anthropic / Bedrock / Vertex Claude: ``thinking={"type": "enabled", "budget_tokens": N}`` with
  N >= 1024, temperature and top_p unset, ``max_tokens = N + answer_allowance``; budget 0 leaves
  thinking off (Claude's default); an effort maps to a budget (low 1024, medium 2048, high 4096).
  Without thinking, temperature and top_p are never sent together (temperature wins).
- OpenAI reasoning models (o-series, gpt-5): ``reasoning_effort``; a token budget maps to the
  nearest effort; temperature and top_p are dropped (these models reject them).
- OpenAI-compatible servers (vLLM, llama.cpp, embedded): ``chat_template_kwargs.enable_thinking``
  (False for budget 0), ``thinking_token_budget`` N (vLLM's per-request cap; servers without it
  ignore the field), ``max_tokens = N + answer_allowance``; an effort is sent as ``reasoning_effort``.
- Other LiteLLM providers: ``reasoning_effort`` and ``thinking`` as LiteLLM translates them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Optional

from refusalbench.config import ReasoningConfig

ANTHROPIC_MIN_BUDGET = 1024
EFFORT_TO_BUDGET = {"low": 1024, "medium": 2048, "high": 4096}
_O_SERIES = re.compile(r"^(o\d|gpt-5)")


def model_family(name: str, openai_compatible: bool) -> str:
    """anthropic | openai_reasoning | openai_compatible | other, from the LiteLLM model string."""
    lower = name.lower()
    if "claude" in lower or "anthropic." in lower:
        return "anthropic"
    provider, _, rest = lower.partition("/") if "/" in lower else ("", "", lower)
    if provider in ("", "openai", "azure") and _O_SERIES.match(rest.rsplit("/", 1)[-1]):
        return "openai_reasoning"
    if openai_compatible:
        return "openai_compatible"
    return "other"


def _effort_for_budget(budget: int) -> str:
    if budget <= 1024:
        return "low"
    return "medium" if budget <= 4096 else "high"


@dataclass
class MappedRequest:
    """Sampling and reasoning parameters as they will be sent."""

    temperature: Optional[float]
    top_p: Optional[float]
    max_tokens: Optional[int]
    params: dict[str, Any] = field(default_factory=dict)  # LiteLLM kwargs (thinking, reasoning_effort)
    body: dict[str, Any] = field(default_factory=dict)  # extra JSON body fields for OpenAI-compatible servers
    notes: list[str] = field(default_factory=list)  # adjustments worth one log line per model


def map_request(
    family: str,
    reasoning: ReasoningConfig,
    temperature: Optional[float],
    top_p: Optional[float],
    max_tokens: Optional[int],
) -> MappedRequest:
    """Apply the provider mapping of `reasoning` to the sampling parameters."""
    m = MappedRequest(temperature, top_p, max_tokens)
    budget, effort, allowance = reasoning.budget_tokens, reasoning.effort, reasoning.answer_allowance
    if family == "anthropic":
        if budget is None and effort is not None:
            budget = EFFORT_TO_BUDGET[effort]
        if budget:
            if budget < ANTHROPIC_MIN_BUDGET:
                m.notes.append(f"thinking budget {budget} raised to Anthropic's minimum {ANTHROPIC_MIN_BUDGET}")
                budget = ANTHROPIC_MIN_BUDGET
            m.params["thinking"] = {"type": "enabled", "budget_tokens": budget}
            if m.temperature is not None or m.top_p is not None:
                m.notes.append("temperature/top_p not sent: Anthropic extended thinking requires them unset")
            m.temperature = m.top_p = None
            m.max_tokens = budget + allowance
        elif m.temperature is not None and m.top_p is not None:
            m.notes.append("top_p not sent: this provider rejects temperature and top_p together")
            m.top_p = None
    elif family == "openai_reasoning":
        if effort is None and budget is not None:
            effort = _effort_for_budget(budget)
            m.notes.append(
                f"reasoning budget {budget} sent as reasoning_effort={effort!r} (OpenAI reasoning models "
                "take an effort, not a token budget"
                + ("; thinking cannot be switched off" if budget == 0 else "")
                + ")"
            )
        if effort is not None:
            m.params["reasoning_effort"] = effort
        if m.temperature is not None or m.top_p is not None:
            m.notes.append("temperature/top_p not sent: OpenAI reasoning models reject them")
        m.temperature = m.top_p = None
    elif family == "openai_compatible":
        if budget is not None:
            m.body["chat_template_kwargs"] = {"enable_thinking": budget > 0}
            if budget > 0:
                m.body["thinking_token_budget"] = budget
                m.max_tokens = budget + allowance
        if effort is not None:
            m.body["reasoning_effort"] = effort
    else:
        if effort is not None:
            m.params["reasoning_effort"] = effort
        if budget:
            m.params["thinking"] = {"type": "enabled", "budget_tokens": budget}
            m.max_tokens = budget + allowance
        elif budget == 0:
            m.notes.append("reasoning budget 0 ignored: no way to switch thinking off is known for this provider")
    return m


_OPEN = "<think>"
_CLOSE = "</think>"


def split_think(text: str) -> tuple[str, Optional[str]]:
    """Split ``<think>…</think>answer`` into (answer, reasoning); an unclosed trace leaves no answer.

    Also handles templates that open the trace in the prompt, so the output starts mid-trace
    (``…</think>answer``).
    """
    if not text:
        return "", None
    stripped = text.lstrip()
    if stripped.startswith(_OPEN):
        body = stripped[len(_OPEN) :]
        if _CLOSE not in body:
            return "", body.strip() or None
        reasoning, _, answer = body.partition(_CLOSE)
        return answer.strip(), reasoning.strip() or None
    if _CLOSE in text:
        reasoning, _, answer = text.partition(_CLOSE)
        return answer.strip(), reasoning.strip() or None
    return text.strip(), None
