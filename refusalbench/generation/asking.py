"""Ask a model for structured JSON, re-asking once (or `max_reasks` times) with the validation error.

Used by the generate and verify stages. A call failure (the layer's `Completion.error`) is not
re-asked here: the layer already retried it, and a rerun of the stage tries again. A reply that
does not parse or validate gets a follow-up user message with the error, in the same conversation.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from refusalbench.generation.parsing import ParseError

log = logging.getLogger(__name__)

CALL, PARSE = "call", "parse"
REASK_SUFFIX = "Reply again with only the corrected JSON object, in one ```json block."


@dataclass
class Ask:
    key: str
    prompt: str
    template_version: str
    parse: Callable[[str], Any]  # raises ParseError (or EditError/ValueError) on an invalid reply
    expected_output_tokens: Optional[int] = None


@dataclass
class Answer:
    key: str
    value: Any = None
    error: Optional[str] = None
    failure_kind: Optional[str] = None  # None | "call" | "parse"
    completions: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None

    def usage(self, prefix: str) -> dict:
        """Usage summed over attempts, plus the last reply's text and finish reason."""
        cs = self.completions
        last = cs[-1] if cs else None

        def total(name: str):
            values = [getattr(c, name, None) for c in cs]
            values = [v for v in values if v is not None]
            return sum(values) if values else None

        return {
            f"{prefix}attempts": len(cs),
            f"{prefix}input_tokens": total("input_tokens"),
            f"{prefix}output_tokens": total("output_tokens"),
            f"{prefix}reasoning_tokens": total("reasoning_tokens"),
            f"{prefix}cost_usd": total("cost_usd"),
            f"{prefix}latency_s": total("latency_s"),
            f"{prefix}cached": bool(cs) and all(bool(getattr(c, "cached", False)) for c in cs),
            f"{prefix}finish_reason": getattr(last, "finish_reason", None),
            f"{prefix}truncated": bool(getattr(last, "truncated", False)),
            f"{prefix}raw_output": getattr(last, "text", None),
        }


def _messages(ask: Ask, history: list[tuple[str, str]]) -> list[dict]:
    msgs = [{"role": "user", "content": ask.prompt}]
    for reply, error in history:
        msgs.append({"role": "assistant", "content": reply})
        msgs.append({"role": "user", "content": f"{error}\n{REASK_SUFFIX}"})
    return msgs


def ask_json(layer, model_cfg, asks: list[Ask], role: str, desc: str, max_reasks: int = 1) -> list[Answer]:
    """Run `asks` through `layer` (one batch per round); returns one Answer per ask, in order."""
    from refusalbench.llm import CallSpec

    answers = [Answer(key=a.key) for a in asks]
    histories: list[list[tuple[str, str]]] = [[] for _ in asks]
    pending = list(range(len(asks)))
    for round_no in range(max_reasks + 1):
        if not pending:
            break
        specs = [
            CallSpec(
                key=asks[i].key,
                messages=_messages(asks[i], histories[i]),
                template_version=asks[i].template_version,
                response_format="json",
                expected_output_tokens=asks[i].expected_output_tokens,
            )
            for i in pending
        ]
        label = desc if round_no == 0 else f"{desc} (re-ask {round_no})"
        results = layer.run(model_cfg, specs, role=role, desc=label)
        still = []
        for i, completion in zip(pending, results):
            ans = answers[i]
            ans.completions.append(completion)
            if completion.error is not None:
                ans.error, ans.failure_kind = f"call failed: {completion.error}", CALL
                continue
            try:
                ans.value = asks[i].parse(completion.text)
                ans.error = ans.failure_kind = None
            except (ParseError, ValueError) as exc:
                ans.error, ans.failure_kind = str(exc), PARSE
                histories[i].append((completion.text or "", str(exc)))
                still.append(i)
        pending = still
    if pending:
        log.info("%s: %d replies still invalid after %d re-ask(s)", desc, len(pending), max_reasks)
    return answers
