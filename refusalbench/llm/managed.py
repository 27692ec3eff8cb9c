"""Start the server a managed model needs: the embedded llama.cpp runtime or a managed vLLM server."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from refusalbench.errors import UserError


def start_managed(model_cfg, log_dir: Optional[Path] = None):
    """Start the server for ``model_cfg`` (backend ``embedded`` or ``vllm_managed``); blocks until ready.

    The result has ``api_base``, ``served_name`` and ``stop()`` (see :class:`~refusalbench.llm.servers.ManagedServer`).
    """
    if model_cfg.backend == "embedded":
        from refusalbench.llm import embedded

        return embedded.start(model_cfg, log_dir=log_dir)
    if model_cfg.backend == "vllm_managed":
        from refusalbench.llm import vllm_server

        return vllm_server.start(model_cfg, log_dir=log_dir)
    raise UserError(
        f"Model {model_cfg.id!r} has backend={model_cfg.backend!r}; only 'embedded' and 'vllm_managed' "
        f"models are started by the run."
    )
