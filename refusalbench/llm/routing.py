"""How a ModelConfig is called: provider route, transport, parameters as sent, and the cache key.

Routing: ``name`` is a LiteLLM model string. With ``api_base`` set and no LiteLLM provider prefix
(e.g. ``Qwen/Qwen2.5-7B-Instruct``), the model is an OpenAI-compatible server and is called as
``openai/<name>``. Managed backends (embedded llama.cpp, vLLM) are OpenAI-compatible servers
started by the layer; their address is not part of the cache key (it changes every start), the
model identity (name, GGUF path or source, serve arguments) is.

Transport: OpenAI-compatible servers are called over a lean HTTP client by default
(``transport: auto``), because LiteLLM's per-call overhead (about 2 ms of CPU) caps a local
server at a few hundred calls per second; everything else, and any model with
``transport: litellm``, goes through ``litellm.acompletion``.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from typing import Any, Optional

from refusalbench.config import ModelConfig
from refusalbench.errors import UserError
from refusalbench.llm.cache import CACHE_SCHEMA_VERSION, canonical_json, key_for
from refusalbench.llm.completion import CallSpec
from refusalbench.llm.reasoning import MappedRequest, map_request, model_family

log = logging.getLogger(__name__)

MANAGED_BACKENDS = ("embedded", "vllm_managed")
NOT_MODEL_BACKENDS = ("programmatic", "structural")
OPENAI_COMPATIBLE_PREFIXES = ("openai", "hosted_vllm", "openai_like", "custom_openai")
LOCAL_DUMMY_KEY = "EMPTY"
# LiteLLM kwargs the layer sets itself; extra_params may not override them
_RESERVED = {"model", "messages", "api_base", "base_url", "api_key", "timeout", "num_retries", "max_retries", "stream"}


def litellm_providers() -> set[str]:
    from refusalbench.llm.litellm_setup import import_litellm

    litellm = import_litellm()
    return {getattr(p, "value", str(p)) for p in litellm.provider_list}


def _split_provider(name: str, api_base: Optional[str]) -> tuple[str, str]:
    """(provider, model without provider) for a model string with an api_base."""
    if "/" in name:
        prefix, rest = name.split("/", 1)
        if prefix in OPENAI_COMPATIBLE_PREFIXES:
            return "openai", rest
        if prefix in litellm_providers():
            return prefix, rest
    return "openai", name


@dataclass
class Route:
    """A prepared model: everything per call except the messages."""

    cfg: ModelConfig
    litellm_model: str  # the model string handed to LiteLLM
    wire_model: str  # the model id sent to an OpenAI-compatible server
    api_base: Optional[str]
    openai_compatible: bool
    family: str
    transport: str  # http | litellm
    mapped: MappedRequest
    seed: Optional[int]
    priced: bool  # whether LiteLLM's price table applies
    key_base: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)  # extra_params minus extra_body
    extra_body: dict[str, Any] = field(default_factory=dict)
    bound: bool = True  # False for a managed route whose server is not running

    @property
    def managed(self) -> bool:
        return self.cfg.backend in MANAGED_BACKENDS

    @property
    def endpoint(self) -> str:
        return f"{self.cfg.backend}:{self.litellm_model}@{self.api_base}"

    def bind(self, api_base: str, served_name: str) -> None:
        """Point a managed route at its started server."""
        self.api_base = api_base.rstrip("/")
        self.wire_model = served_name
        self.litellm_model = f"openai/{served_name}"
        self.bound = True

    def unbind(self) -> None:
        self.api_base = None
        self.bound = False

    def request_key(self, spec: CallSpec) -> tuple[str, str]:
        """(cache key, canonical request text) for one call; a malformed spec is a UserError."""
        if (
            not isinstance(spec.messages, list)
            or not spec.messages
            or not all(isinstance(m, dict) and "role" in m for m in spec.messages)
        ):
            raise UserError(f"CallSpec {spec.key!r}: messages must be a non-empty list of {{'role', 'content'}} dicts.")
        response_format_param(spec.response_format)
        payload = dict(self.key_base)
        payload["messages"] = spec.messages
        payload["response_format"] = spec.response_format
        payload["replicate"] = spec.replicate
        payload["template_version"] = spec.template_version
        text = canonical_json(payload)
        return key_for(text), text

    def api_key(self) -> Optional[str]:
        """The key, read from the environment now; a dummy for key-less local servers."""
        env = self.cfg.api_key_env
        if env:
            value = os.environ.get(env)
            if not value:
                raise UserError(
                    f"Model {self.cfg.id!r} takes its API key from the environment variable {env}, "
                    "which is not set. Export it (keys are never read from config files) or set "
                    "model.api_key_env=null for a server that needs no key."
                )
            return value
        if self.openai_compatible:
            return LOCAL_DUMMY_KEY
        return None


def response_format_param(fmt: Any) -> Any:
    if fmt is None:
        return None
    if fmt == "json":
        return {"type": "json_object"}
    if isinstance(fmt, dict):
        return fmt
    raise UserError(f"CallSpec.response_format must be None, 'json' or an OpenAI-style dict, got {fmt!r}.")


def build_route(cfg: ModelConfig) -> Route:
    """Resolve provider, transport, mapped parameters and the cache-key base for `cfg`."""
    if cfg.backend in NOT_MODEL_BACKENDS:
        raise UserError(
            f"Model {cfg.id!r} has backend {cfg.backend!r}, which is not a model call: the stage must "
            "handle it itself instead of sending it to the model-call layer."
        )
    transport_setting = getattr(cfg, "transport", "auto") or "auto"
    managed = cfg.backend in MANAGED_BACKENDS
    api_base = cfg.api_base.rstrip("/") if cfg.api_base else None
    if managed:
        provider, wire = "openai", cfg.name
    elif api_base:
        provider, wire = _split_provider(cfg.name, api_base)
    else:
        provider, wire = (cfg.name.split("/", 1)[0] if "/" in cfg.name else ""), cfg.name
    openai_compatible = managed or (api_base is not None and provider == "openai")
    litellm_model = f"openai/{wire}" if openai_compatible else cfg.name
    family = model_family(cfg.name, openai_compatible)
    mapped = map_request(family, cfg.reasoning, cfg.temperature, cfg.top_p, cfg.max_tokens)
    seed = cfg.seed
    if family == "anthropic" and seed is not None:
        mapped.notes.append("seed not sent: Anthropic models take no seed")
        seed = None
    if transport_setting == "http" and not openai_compatible:
        raise UserError(
            f"Model {cfg.id!r} sets transport=http, which only reaches OpenAI-compatible servers "
            "(an api_base with an openai/ or hosted_vllm/ route, or a managed backend)."
        )
    transport = "litellm" if transport_setting == "litellm" or not openai_compatible else "http"
    extra = {k: v for k, v in cfg.extra_params.items() if k != "extra_body"}
    bad = sorted(set(extra) & _RESERVED)
    if bad:
        raise UserError(f"Model {cfg.id!r}: extra_params may not set {', '.join(bad)}; use the model's own keys.")
    extra_body = dict(cfg.extra_params.get("extra_body") or {})
    identity: dict[str, Any] = {"backend": cfg.backend}
    if managed:
        identity.update(path=cfg.path, gguf_source=cfg.gguf_source, serve_args=list(cfg.serve_args))
    key_base = {
        "v": CACHE_SCHEMA_VERSION,
        "model": cfg.name,
        "api_base": None if managed else api_base,
        "identity": identity,
        "temperature": mapped.temperature,
        "top_p": mapped.top_p,
        "max_tokens": mapped.max_tokens,
        "seed": seed,
        "reasoning": {"params": mapped.params, "body": mapped.body},
        "extra_params": cfg.extra_params,
    }
    return Route(
        cfg=cfg,
        litellm_model=litellm_model,
        wire_model=wire,
        api_base=None if managed else api_base,
        openai_compatible=openai_compatible,
        family=family,
        transport=transport,
        mapped=mapped,
        seed=seed,
        priced=not openai_compatible,
        key_base=key_base,
        extra=extra,
        extra_body=extra_body,
        bound=not managed,
    )


def server_identity(cfg: ModelConfig) -> str:
    """What makes two managed-server configs the same server (sampling settings do not)."""
    keep = (
        "backend",
        "name",
        "path",
        "gguf_source",
        "context_size",
        "threads",
        "serve_args",
        "startup_timeout",
        "api_key_env",
    )
    return canonical_json({k: getattr(cfg, k) for k in keep})
