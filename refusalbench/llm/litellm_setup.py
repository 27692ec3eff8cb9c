"""Importing LiteLLM safely: local price map (no network at import), quiet logging, no callbacks.

LiteLLM takes several seconds to import, so the layer imports it only on first use.
"""

from __future__ import annotations

import logging
import os
import warnings
from typing import Any

_LITELLM: Any = None


def offline_environment() -> None:
    """Environment settings that must precede ``import litellm``."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # bundled price map, never fetched
    os.environ.setdefault("LITELLM_TELEMETRY", "False")
    os.environ.setdefault("LITELLM_LOG", "ERROR")


def import_litellm() -> Any:
    """The configured ``litellm`` module (imported once)."""
    global _LITELLM
    if _LITELLM is not None:
        return _LITELLM
    offline_environment()
    # LiteLLM's lazily imported types emit pydantic schema warnings that concern no user
    warnings.filterwarnings("ignore", message=r".*using the `ReadOnly` qualifier", category=UserWarning)
    import litellm

    litellm.suppress_debug_info = True
    litellm.set_verbose = False
    litellm.telemetry = False
    litellm.disable_hf_tokenizer_download = True  # token counting must not reach the hub
    litellm.drop_params = False  # an unsupported parameter is a recorded error, not silently dropped
    for name in (
        "callbacks",
        "success_callback",
        "failure_callback",
        "_async_success_callback",
        "_async_failure_callback",
        "input_callback",
    ):
        if isinstance(getattr(litellm, name, None), list):
            getattr(litellm, name).clear()
    for logger_name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "litellm"):
        logging.getLogger(logger_name).setLevel(logging.WARNING)
    _LITELLM = litellm
    return litellm
