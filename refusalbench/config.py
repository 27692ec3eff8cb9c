"""Structured-config schemas, registered in Hydra's ConfigStore.

`conf/config.yaml` starts from the ``refusalbench_schema`` node stored here, so every YAML file
merged into it is type-checked and unknown keys are rejected at compose time. The entry point
converts the result with ``OmegaConf.to_object`` so that ``__post_init__`` validation runs before
any model call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from hydra.core.config_store import ConfigStore
from omegaconf import MISSING, OmegaConf

from refusalbench.errors import UserError
from refusalbench.paths import PACKAGE_DATA_DIR

BACKENDS = ("litellm", "embedded", "vllm_managed", "programmatic", "structural")
REASONING_EFFORTS = (None, "low", "medium", "high")
CACHE_MODES = ("read_write", "read_only", "off", "refresh")


class ConfigError(UserError, ValueError):
    """A configuration value that is present but invalid."""


def _require(ok: bool, message: str) -> None:
    if not ok:
        raise ConfigError(message)


@dataclass
class ReasoningConfig:
    """Thinking-token budget, normalised across providers (see refusalbench.llm.reasoning)."""

    budget_tokens: Optional[int] = None  # None: provider default; 0: thinking off
    effort: Optional[str] = None  # low | medium | high (OpenAI-style reasoning effort)
    answer_allowance: int = 1024  # tokens left for the final answer on top of the budget

    def __post_init__(self) -> None:
        _require(self.effort in REASONING_EFFORTS, f"reasoning.effort must be one of low/medium/high or null, got {self.effort!r}")
        _require(self.budget_tokens is None or self.budget_tokens >= 0, "reasoning.budget_tokens must be >= 0 or null")


@dataclass
class ModelConfig:
    """One model in any role (generator, verifier, evaluated model, judge)."""

    name: str = MISSING  # LiteLLM model string with a pinned version, e.g. openai/gpt-4o-2024-08-06
    id: str = ""  # short name for tables, run names and directories (defaults to the config name)
    backend: str = "litellm"  # litellm | embedded | vllm_managed | programmatic | structural
    api_base: Optional[str] = None
    api_key_env: Optional[str] = None  # NAME of the environment variable holding the key
    temperature: Optional[float] = None
    top_p: Optional[float] = None
    max_tokens: Optional[int] = None
    seed: Optional[int] = None
    timeout: float = 120.0
    max_concurrency: int = 8
    rpm: Optional[int] = None
    max_retries: int = 6
    transport: str = "auto"  # auto | litellm | http: how OpenAI-compatible servers are reached (refusalbench.llm.routing)
    reasoning: ReasoningConfig = field(default_factory=ReasoningConfig)
    # embedded (llama.cpp) and local files
    path: Optional[str] = None  # a GGUF file for backend=embedded (local_gguf)
    gguf_source: Optional[str] = None  # a pinned wheel source from refusalbench.llm.model_files
    context_size: int = 4096
    threads: Optional[int] = None
    # managed vLLM
    serve_args: List[str] = field(default_factory=list)
    startup_timeout: float = 600.0
    extra_params: Dict[str, Any] = field(default_factory=dict)  # extra LiteLLM completion kwargs
    # fields a config option needs set (YAML `???` cannot override a schema default, so options list them here)
    required: List[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        for key in self.required:
            _require(
                getattr(self, key, None) not in (None, ""),
                f"model {self.name!r} needs `{key}` to be set (for the evaluated model: model.{key}=VALUE).",
            )
        _require(self.backend in BACKENDS, f"backend must be one of {', '.join(BACKENDS)}, got {self.backend!r}")
        _require(self.max_concurrency >= 1, "max_concurrency must be >= 1")
        _require(self.timeout > 0, "timeout must be > 0")
        _require(self.max_retries >= 0, "max_retries must be >= 0")
        _require(self.transport in ("auto", "litellm", "http"), f"transport must be auto, litellm or http, got {self.transport!r}")
        _require(self.rpm is None or self.rpm > 0, "rpm must be > 0 or null")
        _require(self.max_tokens is None or self.max_tokens > 0, "max_tokens must be > 0 or null")
        if not self.id and self.name != MISSING:
            self.id = self.name.rsplit("/", 1)[-1]


@dataclass
class DatasetConfig:
    """A source of base questions or a released benchmark (refusalbench.data)."""

    kind: str = MISSING  # nq | nq_base | garage | nq_multi | refusalbench_nq | refusalbench_garage
    path: Optional[str] = None  # local JSONL/JSON/parquet file (or directory) to load
    hub_id: Optional[str] = None  # Hugging Face dataset id, used only when path is null
    split: str = "test"
    n_base: Optional[int] = None  # number of base questions to draw (null: all)
    seed: int = 42
    strict: bool = False  # a bad record is an error instead of a counted skip
    multi_passage: bool = False
    passages_per_question: int = 10
    max_signal_passages: int = 5
    domains: List[str] = field(default_factory=list)
    per_domain: int = 20
    require_answer_in_passage: bool = True

    def __post_init__(self) -> None:
        _require(
            self.kind not in ("nq", "nq_base") or bool(self.path),
            f"dataset kind {self.kind!r} needs dataset.path=FILE (a local JSONL/parquet file of NQ questions).",
        )
        _require(self.n_base is None or self.n_base > 0, "dataset.n_base must be > 0 or null")


@dataclass
class PanelConfig:
    """A panel of generator or verifier models."""

    models: Dict[str, ModelConfig] = field(default_factory=dict)
    lever_assignment: str = "llm_choice"  # generators: llm_choice | round_robin | fixed
    fixed_lever: Optional[str] = None
    consensus: str = "unanimous"  # verifiers: unanimous | majority
    temperature: Optional[float] = None  # panel-wide override (verifiers: 0)


@dataclass
class JudgeConfig:
    """How responses are labelled: deterministic rules, optionally with an LLM judge."""

    kind: str = "deterministic"  # deterministic | llm
    model: Optional[ModelConfig] = None
    f1_threshold: float = 0.5  # deterministic answer correctness: token F1 >= threshold
    correct_score: int = 4  # LLM judge: an answer is correct when its 1-5 score >= this

    def __post_init__(self) -> None:
        _require(self.kind in ("deterministic", "llm"), f"judge.kind must be deterministic or llm, got {self.kind!r}")
        _require(self.kind != "llm" or self.model is not None, "judge.kind=llm needs judge.model (e.g. judge=claude_sonnet_4)")
        _require(0.0 <= self.f1_threshold <= 1.0, f"judge.f1_threshold must be between 0 and 1, got {self.f1_threshold}")
        _require(1 <= self.correct_score <= 5, f"judge.correct_score must be between 1 and 5, got {self.correct_score}")


@dataclass
class PipelineConfig:
    stages: List[str] = field(default_factory=list)


@dataclass
class TrackingConfig:
    enabled: bool = True
    uri: str = "sqlite:///mlflow.db"
    experiment: str = "refusalbench"
    run_name: Optional[str] = None


@dataclass
class CacheConfig:
    dir: str = "${oc.env:REFUSALBENCH_CACHE,.cache/refusalbench}"
    mode: str = "read_write"  # read_write | read_only | off | refresh

    def __post_init__(self) -> None:
        _require(self.mode in CACHE_MODES, f"cache.mode must be one of {', '.join(CACHE_MODES)}, got {self.mode!r}")


@dataclass
class GenerateConfig:
    source: Optional[str] = None  # a base-question table to read instead of loading `dataset`
    max_parse_retries: int = 1


@dataclass
class SelectConfig:
    candidates: Optional[str] = None  # a votes table to read instead of the run directory's
    per_stratum: int = 22
    per_generator: int = 400
    seed: int = 42
    human_sample: int = 180


@dataclass
class EvaluateConfig:
    benchmark: Optional[str] = None  # a benchmark table to read instead of the run directory's
    prompt_variant: str = "default"  # default | confidence
    limit: Optional[int] = None  # evaluate only the first N items (smoke runs)
    replicates: int = 1


@dataclass
class ScoreConfig:
    predictions: Optional[str] = None  # another tool's predictions (CSV/JSONL/parquet)
    output: Optional[str] = None  # where to write the metrics JSON (default: run dir)
    n_resamples: int = 1000
    confidence_level: float = 0.95
    seed: int = 42


@dataclass
class ReportConfig:
    sweep_dir: Optional[str] = None  # collect every job under this directory into one report
    paper_numbers: bool = True


@dataclass
class RunConfig:
    dry_run: bool = False  # count calls, tokens and cost; call no model
    preflight: bool = True  # check keys, endpoints, parameters and input files before anything runs


@dataclass
class RefusalBenchConfig:
    dataset: DatasetConfig = field(default_factory=DatasetConfig)
    generators: PanelConfig = field(default_factory=PanelConfig)
    verifiers: PanelConfig = field(default_factory=PanelConfig)
    model: ModelConfig = field(default_factory=ModelConfig)
    judge: JudgeConfig = field(default_factory=JudgeConfig)
    reasoning: ReasoningConfig = field(default_factory=ReasoningConfig)
    pipeline: PipelineConfig = field(default_factory=PipelineConfig)
    tracking: TrackingConfig = field(default_factory=TrackingConfig)
    cache: CacheConfig = field(default_factory=CacheConfig)
    generate: GenerateConfig = field(default_factory=GenerateConfig)
    select: SelectConfig = field(default_factory=SelectConfig)
    evaluate: EvaluateConfig = field(default_factory=EvaluateConfig)
    score: ScoreConfig = field(default_factory=ScoreConfig)
    report: ReportConfig = field(default_factory=ReportConfig)
    run: RunConfig = field(default_factory=RunConfig)
    levers_extra: List[str] = field(default_factory=list)  # extra lever-catalogue YAML files
    name: str = "default"  # names the sweep directory multirun/<name>/ (a re-run resumes it)
    seed: int = 42


def safe_dirname(text: str, limit: int = 120) -> str:
    """A single path component for a job directory: no separators, bounded length, still unique."""
    import hashlib
    import re

    text = str(text) or "default"
    clean = re.sub(r"[^A-Za-z0-9=,._+-]+", "_", text)
    if len(clean) > limit:
        clean = clean[: limit - 9] + "-" + hashlib.sha256(text.encode()).hexdigest()[:8]
    return clean


def register_configs() -> None:
    """Store the schemas in Hydra's ConfigStore and register the `rb_data` resolver (idempotent)."""
    if not OmegaConf.has_resolver("rb_data"):
        # ${rb_data:FILE} -> absolute path of a data file bundled with the package
        OmegaConf.register_new_resolver("rb_data", lambda name: str(PACKAGE_DATA_DIR / name))
    if not OmegaConf.has_resolver("rb_dirname"):
        # ${rb_dirname:${hydra.job.override_dirname}} -> one safe directory name for a sweep job
        OmegaConf.register_new_resolver("rb_dirname", safe_dirname)
    cs = ConfigStore.instance()
    cs.store(name="refusalbench_schema", node=RefusalBenchConfig)
