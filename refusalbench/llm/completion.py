"""The request and result records of the model-call layer: `CallSpec` in, `Completion` out."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Optional, Union


@dataclass(frozen=True)
class CallSpec:
    """One model call as a stage describes it.

    `key` is the caller's item id (echoed back, not part of the cache key). `template_version`,
    `response_format` ("json", an OpenAI-style dict, or None) and `replicate` are part of the cache
    key. `expected_output_tokens` only feeds dry-run estimates.
    """

    key: str
    messages: list
    template_version: str = ""
    response_format: Union[str, dict, None] = None
    replicate: int = 0
    expected_output_tokens: Optional[int] = None


@dataclass
class Completion:
    """The outcome of one call: a final answer (reasoning kept apart) or a recorded error."""

    key: str
    text: str = ""
    reasoning: Optional[str] = None
    finish_reason: Optional[str] = None
    input_tokens: Optional[int] = None
    output_tokens: Optional[int] = None
    reasoning_tokens: Optional[int] = None
    latency_s: Optional[float] = None
    cached: bool = False
    cost_usd: Optional[float] = None
    error: Optional[str] = None
    truncated: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None


COMPLETION_FIELDS = tuple(f.name for f in fields(Completion))


def is_truncated(text: str, finish_reason: Optional[str]) -> bool:
    """An empty final answer or one cut off at the token limit: never to be read as a refusal."""
    return not text.strip() or finish_reason == "length"
