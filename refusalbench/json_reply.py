"""Lenient extraction of the JSON object a model was asked for, shared by every role that asks for JSON.

Models wrap JSON in code fences, write a preamble, or prepend a reasoning trace (``<think>…``).
`extract_json` finds the object anyway, or raises `ParseError` with a message short enough to send
back to the model in a re-ask.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any, Optional

_TRACE_TAGS = ("think", "thinking", "reasoning", "reflection")
_TAGS = "|".join(_TRACE_TAGS)
_CLOSED_TRACE = re.compile(rf"<({_TAGS})\b[^>]*>.*?</\1\s*>", re.S | re.I)
_TRACE_END = re.compile(rf"</({_TAGS})\s*>", re.I)
_FENCE = re.compile(r"```[ \t]*(?:json|JSON|javascript|js)?[ \t]*\n?(.*?)(?:```|\Z)", re.S)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


class ParseError(ValueError):
    """A reply that is not the JSON object we asked for (the message is shown to the model)."""


def strip_reasoning(text: str) -> str:
    """Remove reasoning traces: closed ``<think>…</think>`` blocks, and anything before a lone closing tag."""
    text = _CLOSED_TRACE.sub("", text)
    ends = list(_TRACE_END.finditer(text))
    if ends:  # a trace whose opening tag was eaten by the server's chat template
        text = text[ends[-1].end() :]
    return text


def _balanced_objects(text: str) -> Iterator[str]:
    """Yield every top-level ``{…}`` span, respecting JSON strings and escapes."""
    depth, start, in_str, escape = 0, -1, False, False
    for i, ch in enumerate(text):
        if in_str:
            if escape:
                escape = False
            elif ch == "\\":
                escape = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"' and depth > 0:
            in_str = True
        elif ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                yield text[start : i + 1]


def _loads(candidate: str) -> Any:
    candidate = candidate.strip()
    try:
        return json.loads(candidate, strict=False)
    except json.JSONDecodeError:
        return json.loads(_TRAILING_COMMA.sub(r"\1", candidate), strict=False)


def extract_json(text: Optional[str], prefer_keys: Iterable[str] = ()) -> dict:
    """The JSON object in `text` (fenced, bare, after a preamble or a reasoning trace).

    When several objects parse, the first one holding any of `prefer_keys` wins, else the first.
    Raises ParseError when there is none.
    """
    if text is None or not text.strip():
        raise ParseError("The reply was empty.")
    body = strip_reasoning(text)
    spans = [m.group(1) for m in _FENCE.finditer(body)]
    for fenced in list(spans):
        spans.extend(_balanced_objects(fenced))
    spans.extend(_balanced_objects(body))
    found: list[dict] = []
    first_error: Optional[str] = None
    for span in spans:
        try:
            obj = _loads(span)
        except json.JSONDecodeError as exc:
            first_error = first_error or f"{exc.msg} at line {exc.lineno} column {exc.colno}"
            continue
        if isinstance(obj, dict):
            found.append(obj)
    keys = set(prefer_keys)
    for obj in found:
        if keys & obj.keys():
            return obj
    if found:
        return found[0]
    if first_error:
        raise ParseError(f"The reply contains no valid JSON object ({first_error}).")
    raise ParseError("The reply contains no JSON object.")
