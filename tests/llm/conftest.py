"""Fixtures for the model-call layer tests: a fresh cache directory and a layer with fast retries."""

from __future__ import annotations

import pytest

from refusalbench.config import CacheConfig
from refusalbench.llm import LLMLayer, RetryPolicy

FAST_RETRY = RetryPolicy(base_delay=0.01, max_delay=0.05, max_retry_after=2.0)


@pytest.fixture
def make_layer(tmp_path):
    """Build layers on one cache dir (`tmp_path/cache`) and run dir (`tmp_path/run`); closed at teardown."""
    layers = []

    def make(mode: str = "read_write", dry_run: bool = False, **kw) -> LLMLayer:
        layer = LLMLayer(
            CacheConfig(dir=str(tmp_path / "cache"), mode=mode),
            run_dir=tmp_path / "run",
            dry_run=dry_run,
            retry_policy=kw.pop("retry_policy", FAST_RETRY),
            progress=False,
            **kw,
        )
        layers.append(layer)
        return layer

    yield make
    for layer in layers:
        layer.close()


@pytest.fixture
def layer(make_layer):
    return make_layer()
