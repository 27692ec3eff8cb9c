"""The model-call layer shared by every role: generators, verifiers, the evaluated model and judges.

```python
from refusalbench.llm import LLMLayer, CallSpec, Completion
results = layer.run(model_cfg, [CallSpec(key="id", messages=[...])], role="generator")
```

LiteLLM is imported lazily (on the first call that needs it) with its bundled price map, so
importing this package is fast and never reaches the network.
"""

from __future__ import annotations

from refusalbench.llm.litellm_setup import offline_environment

offline_environment()  # before anything can import litellm

from refusalbench.llm.cache import CACHE_SCHEMA_VERSION, ResponseCache  # noqa: E402
from refusalbench.llm.client import LLMLayer  # noqa: E402
from refusalbench.llm.completion import CallSpec, Completion  # noqa: E402
from refusalbench.llm.retry import CallError, RetryPolicy  # noqa: E402

__all__ = [
    "LLMLayer",
    "CallSpec",
    "Completion",
    "CallError",
    "RetryPolicy",
    "ResponseCache",
    "CACHE_SCHEMA_VERSION",
]
