"""Dry-run estimates: input tokens from LiteLLM's token counter, output tokens from the caller's
expectation (or the token cap), cost from LiteLLM's price table where the model is priced.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Optional

from refusalbench.llm.routing import Route

log = logging.getLogger(__name__)


def count_input_tokens(route: Route, messages: list) -> int:
    """Prompt tokens by LiteLLM's counter for this model (falls back to characters / 4)."""
    try:
        from refusalbench.llm.litellm_setup import import_litellm

        return int(import_litellm().token_counter(model=route.litellm_model, messages=messages))
    except Exception as exc:  # noqa: BLE001 - an estimate must never fail the dry run
        log.debug("token counter failed for %s (%s); using characters / 4", route.litellm_model, exc)
        chars = sum(len(str(m.get("content", ""))) for m in messages if isinstance(m, dict))
        return max(1, chars // 4)


@lru_cache(maxsize=256)
def _prices(model: str) -> Optional[tuple[float, float]]:
    """(input, output) USD per token from LiteLLM's table, or None when the model is not priced."""
    try:
        from refusalbench.llm.litellm_setup import import_litellm

        # 1,000 tokens each: below any long-context price tier
        per_in, per_out = import_litellm().cost_per_token(model=model, prompt_tokens=1000, completion_tokens=1000)
        return per_in / 1000, per_out / 1000
    except Exception:  # noqa: BLE001 - unknown model: no price
        return None


def estimate_cost(route: Route, input_tokens: int, output_tokens: int) -> Optional[float]:
    if not route.priced:
        return None
    prices = _prices(route.litellm_model)
    if prices is None:
        return None
    return input_tokens * prices[0] + output_tokens * prices[1]


def expected_output(route: Route, expected: Optional[int]) -> int:
    if expected is not None:
        return int(expected)
    return int(route.mapped.max_tokens or 0)
