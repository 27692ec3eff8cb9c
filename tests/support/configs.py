"""Model configs for the tests: a ModelConfig pointing at a local test server."""

from __future__ import annotations

from typing import Any

from refusalbench.config import ModelConfig


def model_cfg_for(server: Any, name: str = "test-model", **overrides: Any) -> ModelConfig:
    """A ModelConfig pointing at the test server (`backend="litellm"`, `name="openai/<name>"`)."""
    fields: dict[str, Any] = {
        "name": name if "/" in name else f"openai/{name}",
        "id": name.rsplit("/", 1)[-1],
        "backend": "litellm",
        "api_base": server.url,
        "temperature": 0.0,
        "max_tokens": 64,
        "seed": 1,
        "timeout": 5.0,
        "max_concurrency": 8,
        "max_retries": 3,
    }
    fields.update(overrides)
    return ModelConfig(**fields)
