"""The judge's prompt for one output: the item's query and reference answers (never its expected label)."""

from __future__ import annotations

from typing import Optional

from refusalbench.evaluation import item_query
from refusalbench.judging.llm_judge import GARAGE_TEMPLATE, NQ_TEMPLATE, format_references
from refusalbench.prompts import render
from refusalbench.rows import GROUNDING, as_list, has_passages, is_missing

#: Output-token guess for one judge verdict (dry-run estimates and the layer's accounting).
JUDGE_TOKENS_ESTIMATE = 200


def references(row: dict, multi: bool) -> list[str]:
    """Reference answers: `original_answers`, plus `reference_answer` for multi-passage items."""
    refs = format_references(as_list(row.get("original_answers")))
    if multi and not is_missing(row.get("reference_answer")):
        refs = format_references([row["reference_answer"]]) + refs
    return refs


def row_is_multi(row: dict) -> bool:
    """A multi-passage output row: it carries `grounding` passages."""
    return has_passages(row, GROUNDING)


def judge_prompt(row: dict, answer: str, multi: bool) -> tuple[str, str, Optional[str]]:
    """(template name, rendered judge prompt, note). The expected label is never passed."""
    if not multi:
        refs = references(row, multi=False)
        return NQ_TEMPLATE, render(NQ_TEMPLATE, query=item_query(row), response=answer, reference_answers=refs), None
    passages = [str(p) for p in as_list(row.get(GROUNDING))]
    note = None
    if is_missing(row.get("relevant")):
        flags, note = [False] * len(passages), "no relevance flags: no passage counts as relevant"
    else:
        flags = [bool(f) for f in as_list(row.get("relevant"))]
    if is_missing(row.get("reference_answer")) or not str(row["reference_answer"]).strip():
        reference = " OR ".join(references(row, multi=False))
    else:
        reference = str(row["reference_answer"])
    text = render(
        GARAGE_TEMPLATE,
        query=item_query(row),
        reference_answer=reference,
        response=answer,
        passages=passages,
        relevant=flags,
    )
    return GARAGE_TEMPLATE, text, note
