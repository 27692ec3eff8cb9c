"""Structured-config schemas, registered in Hydra's ConfigStore: the one home of every default and check.

`conf/config.yaml` starts from the ``refusalbench_schema`` node stored here, so every YAML file
merged into it is type-checked (choices are Enums: an unknown value fails at compose time) and
unknown keys are rejected. YAML options hold only what differs from these defaults. The entry point
converts the result with ``OmegaConf.to_object``, which runs every ``__post_init__`` check, so a
configuration mistake stops the run before tracking starts or any model is called.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Dict, List, Optional

from hydra.core.config_store import ConfigStore
from omegaconf import MISSING, OmegaConf

from refusalbench.errors import UserError
from refusalbench.paths import PACKAGE_DATA_DIR


class Choice(str, Enum):
    """A string choice of the schema: compares, formats and serialises as its value."""

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


class Backend(Choice):
    litellm = "litellm"
    embedded = "embedded"
    vllm_managed = "vllm_managed"
    programmatic = "programmatic"  # generators only: rule-based perturbations, no model
    structural = "structural"  # verifiers only: the deterministic check's verdict, no model


class Transport(Choice):
    auto = "auto"
    litellm = "litellm"
    http = "http"


class Effort(Choice):
    low = "low"
    medium = "medium"
    high = "high"


class DatasetKind(Choice):
    nq = "nq"
    nq_base = "nq_base"
    garage = "garage"
    nq_multi = "nq_multi"
    refusalbench_nq = "refusalbench_nq"
    refusalbench_garage = "refusalbench_garage"


class LeverAssignment(Choice):
    llm_choice = "llm_choice"
    round_robin = "round_robin"
    fixed = "fixed"


class PromptStyle(Choice):
    full = "full"
    compact = "compact"


class ConsensusMode(Choice):
    unanimous = "unanimous"
    majority = "majority"


class JudgeKind(Choice):
    deterministic = "deterministic"
    llm = "llm"


class Stage(Choice):
    """Pipeline stages, in their canonical order."""

    generate = "generate"
    check = "check"
    verify = "verify"
    select = "select"
    evaluate = "evaluate"
    judge = "judge"
    score = "score"
    report = "report"


class CacheMode(Choice):
    read_write = "read_write"
    read_only = "read_only"
    off = "off"
    refresh = "refresh"


class PromptVariant(Choice):
    default = "default"
    confidence = "confidence"


class ScoreConvention(Choice):
    """How the score stage counts ERROR/odd rows (see refusalbench.metrics.official)."""

    strict = "strict"  # the project's rule
    official = "official"  # the paper's figure code, exactly


#: Stage names in canonical order; a pipeline lists a subset, which runs in this order.
STAGE_ORDER = tuple(s.value for s in Stage)
SCORE_CONVENTIONS = tuple(c.value for c in ScoreConvention)


class ConfigError(UserError, ValueError):
    """A configuration value that is present but invalid."""


def _require(ok: bool, message: str) -> None:
    if not ok:
        raise ConfigError(message)


@functools.cache
def _choice_fields(cls: type) -> tuple[tuple[str, type, bool], ...]:
    """(field name, Choice enum, is a list) for every choice field of a schema dataclass."""
    out = []
    for name, hint in typing.get_type_hints(cls).items():
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        is_list = typing.get_origin(hint) in (list, List)
        inner = args[0] if len(args) == 1 and (is_list or typing.get_origin(hint) is typing.Union) else hint
        if isinstance(inner, type) and issubclass(inner, Choice):
            out.append((name, inner, is_list))
    return tuple(out)


def _coerce_choices(obj: Any, section: str) -> None:
    """Turn the string choices of a directly constructed schema object into their Enum; a ConfigError
    naming the key for an unknown one (Hydra composition already rejects those in YAML and overrides)."""

    def one(value: Any, enum: type, key: str) -> Any:
        if value is None or value is MISSING or isinstance(value, enum):
            return value
        try:
            return enum(value)
        except ValueError:
            choices = ", ".join(e.value for e in enum)
            raise ConfigError(f"{section}{key} must be one of {choices}, got {value!r}") from None

    for name, enum, is_list in _choice_fields(type(obj)):
        value = getattr(obj, name)
        if is_list:
            setattr(obj, name, [one(v, enum, name) for v in value])
        else:
            setattr(obj, name, one(value, enum, name))


@dataclass
class ReasoningConfig:
    """Thinking-token budget, normalised across providers (see refusalbench.llm.reasoning)."""

    budget_tokens: Optional[int] = None
    """Thinking tokens: None leaves the provider's default, 0 turns thinking off."""
    effort: Optional[Effort] = None
    """OpenAI-style reasoning effort."""
    answer_allowance: int = 1024
    """Tokens left for the final answer on top of the budget."""

    def __post_init__(self) -> None:
        _coerce_choices(self, "reasoning.")
        _require(self.budget_tokens is None or self.budget_tokens >= 0, "reasoning.budget_tokens must be >= 0 or null")
        _require(self.answer_allowance >= 1, "reasoning.answer_allowance must be >= 1")


@dataclass
class ModelConfig:
    """One model in any role (generator, verifier, evaluated model, judge)."""

    name: str = MISSING
    """LiteLLM model string with a pinned version, e.g. openai/gpt-4o-2024-08-06."""
    id: str = ""
    """Short name for tables, run names and directories (default: the last part of `name`)."""
    backend: Backend = Backend.litellm
    api_base: Optional[str] = None
    api_key_env: Optional[str] = None
    """NAME of the environment variable holding the key (never the key)."""
    temperature: Optional[float] = None
    top_p: Optional[float] = None
    max_tokens: Optional[int] = None
    seed: Optional[int] = None
    timeout: float = 120.0
    max_concurrency: int = 8
    rpm: Optional[int] = None
    max_retries: int = 6
    transport: Transport = Transport.auto
    """How OpenAI-compatible servers are reached (refusalbench.llm.routing)."""
    reasoning: ReasoningConfig = field(default_factory=ReasoningConfig)
    path: Optional[str] = None
    """A GGUF file for backend=embedded (local_gguf)."""
    gguf_source: Optional[str] = None
    """A pinned wheel source from refusalbench.llm.model_files."""
    context_size: int = 4096
    threads: Optional[int] = None
    serve_args: List[str] = field(default_factory=list)
    """Extra flags for a managed `vllm serve`."""
    startup_timeout: float = 600.0
    extra_params: Dict[str, Any] = field(default_factory=dict)
    """Extra LiteLLM completion kwargs."""
    required: List[str] = field(default_factory=list)
    """Fields a config option needs set (YAML `???` cannot override a schema default, so options list them here)."""

    def __post_init__(self) -> None:
        _coerce_choices(self, "model.")
        for key in self.required:
            _require(
                getattr(self, key, None) not in (None, ""),
                f"model {self.name!r} needs `{key}` to be set (for the evaluated model: model.{key}=VALUE).",
            )
        _require(self.max_concurrency >= 1, "max_concurrency must be >= 1")
        _require(self.timeout > 0, "timeout must be > 0")
        _require(self.startup_timeout > 0, "startup_timeout must be > 0")
        _require(self.max_retries >= 0, "max_retries must be >= 0")
        _require(self.rpm is None or self.rpm > 0, "rpm must be > 0 or null")
        _require(self.max_tokens is None or self.max_tokens > 0, "max_tokens must be > 0 or null")
        _require(self.temperature is None or self.temperature >= 0, "temperature must be >= 0 or null")
        _require(self.top_p is None or 0 < self.top_p <= 1, "top_p must be in (0, 1] or null")
        _require(self.context_size >= 1, "context_size must be >= 1")
        _require(self.threads is None or self.threads >= 1, "threads must be >= 1 or null")
        if not self.id and self.name != MISSING:
            self.id = self.name.rsplit("/", 1)[-1]


@dataclass
class DatasetConfig:
    """A source of base questions or a released benchmark (refusalbench.data)."""

    kind: DatasetKind = MISSING
    path: Optional[str] = None
    """A local JSONL/JSON/parquet file (or directory) to load."""
    hub_id: Optional[str] = None
    """Hugging Face dataset id, used only when `path` is null."""
    split: str = "test"
    n_base: Optional[int] = None
    """Number of base questions to draw (null: all)."""
    seed: int = 42
    strict: bool = False
    """A bad record is an error instead of a counted skip."""
    multi_passage: bool = False
    passages_per_question: int = 10
    max_signal_passages: int = 5
    domains: List[str] = field(default_factory=list)
    per_domain: int = 20
    require_answer_in_passage: bool = True
    source_verdicts: Optional[str] = None
    """NQ: a source verdict file (refusalbench.data.source_verdicts); questions whose passage it marks weak or
    unsupported are left out before the draw."""
    recompute_labels: bool = False
    """Released data: replace the stored expected_rag_behavior by the (class, intensity) rule."""

    def __post_init__(self) -> None:
        _coerce_choices(self, "dataset.")
        _require(
            self.kind not in (DatasetKind.nq, DatasetKind.nq_base) or bool(self.path),
            f"dataset kind {getattr(self.kind, 'value', self.kind)!r} needs dataset.path=FILE "
            "(a local JSONL/parquet file of NQ questions).",
        )
        _require(self.n_base is None or self.n_base > 0, "dataset.n_base must be > 0 or null")
        least = 2 if self.kind == DatasetKind.nq_multi else 1
        _require(self.passages_per_question >= least, f"dataset.passages_per_question must be >= {least}")
        _require(self.max_signal_passages >= 1, "dataset.max_signal_passages must be >= 1")
        _require(self.per_domain >= 1, "dataset.per_domain must be >= 1")
        _require(
            not self.source_verdicts or self.kind in (DatasetKind.nq, DatasetKind.nq_base, DatasetKind.nq_multi),
            "dataset.source_verdicts applies to NQ sources only (dataset=nq, nq_sample, nq_multi); "
            "set dataset.source_verdicts=null.",
        )


@dataclass
class PanelConfig:
    """A panel of generator or verifier models."""

    models: Dict[str, ModelConfig] = field(default_factory=dict)
    lever_assignment: LeverAssignment = LeverAssignment.llm_choice
    """Generators: the model picks the lever (the paper), round robin over the cell's levers, or one fixed lever."""
    fixed_lever: Optional[str] = None
    """The lever of lever_assignment=fixed."""
    consensus: ConsensusMode = ConsensusMode.unanimous
    """Verifiers: every vote PASS, or more than half of the panel (a tie fails)."""
    temperature: Optional[float] = None
    """Panel-wide temperature override (verifiers: 0 when null)."""
    prompts: PromptStyle = PromptStyle.full
    """Generator/verifier prompt: the full paper-style template, or the short variant for small local models
    (single-passage data only; levers without examples, the item before the cell-specific text)."""

    def __post_init__(self) -> None:
        _coerce_choices(self, "generators/verifiers.")
        _require(
            self.lever_assignment != LeverAssignment.fixed or bool(self.fixed_lever),
            "generators.lever_assignment=fixed needs generators.fixed_lever=NAME (a lever name from the catalogue).",
        )
        _require(self.temperature is None or self.temperature >= 0, "a panel temperature must be >= 0 or null")


@dataclass
class JudgeConfig:
    """How responses are labelled: deterministic rules, optionally with an LLM judge."""

    kind: JudgeKind = JudgeKind.deterministic
    model: Optional[ModelConfig] = None
    f1_threshold: float = 0.5
    """Deterministic answer correctness: exact match or token F1 >= threshold."""
    correct_score: int = 4
    """LLM judge: an answer is correct when its 1-5 score >= this."""

    def __post_init__(self) -> None:
        _coerce_choices(self, "judge.")
        _require(
            self.kind != JudgeKind.llm or self.model is not None,
            "judge.kind=llm needs judge.model (e.g. judge=claude_sonnet_4)",
        )
        _require(
            0.0 <= self.f1_threshold <= 1.0, f"judge.f1_threshold must be between 0 and 1, got {self.f1_threshold}"
        )
        _require(1 <= self.correct_score <= 5, f"judge.correct_score must be between 1 and 5, got {self.correct_score}")


@dataclass
class PipelineConfig:
    stages: List[Stage] = field(default_factory=list)
    """The stages to run; they run in canonical order whatever the order given."""

    def __post_init__(self) -> None:
        _coerce_choices(self, "pipeline.")


@dataclass
class TrackingConfig:
    enabled: bool = True
    uri: str = "sqlite:///mlflow.db"
    experiment: str = "refusalbench"
    run_name: Optional[str] = None


@dataclass
class CacheConfig:
    dir: str = "${oc.env:REFUSALBENCH_CACHE,.cache/refusalbench}"
    mode: CacheMode = CacheMode.read_write

    def __post_init__(self) -> None:
        _coerce_choices(self, "cache.")


@dataclass
class GenerateConfig:
    source: Optional[str] = None
    """A base-question table to read instead of loading `dataset`."""
    max_parse_retries: int = 1
    """Re-asks after an invalid generator or verifier reply."""

    def __post_init__(self) -> None:
        _require(self.max_parse_retries >= 0, "generate.max_parse_retries must be >= 0")


@dataclass
class SelectConfig:
    candidates: Optional[str] = None
    """A votes table to read instead of the run directory's."""
    per_stratum: int = 5
    """Candidates drawn per (class, intensity) stratum per generator (the paper: 22)."""
    per_generator: int = 90
    """Benchmark items per generator, filled from unused candidates (the paper: 400)."""
    seed: int = 42
    human_sample: int = 180
    """Rows in the human-validation sheet."""

    def __post_init__(self) -> None:
        _require(self.per_stratum >= 0, f"select.per_stratum must be >= 0, got {self.per_stratum}")
        _require(self.per_generator >= 1, f"select.per_generator must be >= 1, got {self.per_generator}")
        _require(self.human_sample >= 0, f"select.human_sample must be >= 0, got {self.human_sample}")


@dataclass
class EvaluateConfig:
    benchmark: Optional[str] = None
    """A benchmark table to read instead of the run directory's."""
    prompt_variant: PromptVariant = PromptVariant.default
    """`confidence` also asks for a stated confidence (calibration metrics)."""
    limit: Optional[int] = None
    """Evaluate only the first N items (smoke runs)."""
    replicates: int = 1

    def __post_init__(self) -> None:
        _coerce_choices(self, "evaluate.")
        _require(self.limit is None or self.limit >= 1, f"evaluate.limit must be >= 1 or null, got {self.limit}")
        _require(self.replicates >= 1, f"evaluate.replicates must be >= 1, got {self.replicates}")


@dataclass
class ScoreConfig:
    """Scoring inputs and the bootstrap settings (one place for resamples, level and seed)."""

    predictions: Optional[str] = None
    """Another tool's predictions (CSV/JSONL/parquet)."""
    output: Optional[str] = None
    """Where to write the metrics JSON (default: the run directory)."""
    n_resamples: int = 1000
    """Bootstrap resamples (0: no bootstrap intervals)."""
    confidence_level: float = 0.95
    seed: int = 42
    convention: ScoreConvention = ScoreConvention.strict
    """strict (the project's rule) or official (the paper's figure code, exactly)."""

    def __post_init__(self) -> None:
        _coerce_choices(self, "score.")
        _require(self.n_resamples >= 0, f"score.n_resamples must be >= 0, got {self.n_resamples}")
        _require(
            0 < self.confidence_level < 1,
            f"score.confidence_level must be between 0 and 1, got {self.confidence_level}",
        )


@dataclass
class ReportConfig:
    sweep_dir: Optional[str] = None
    """Collect every job under this directory into one report."""
    paper_numbers: bool = True


@dataclass
class RunConfig:
    dry_run: bool = False
    """Count calls and estimate tokens and cost; run no stage and call no model."""
    preflight: bool = True
    """Check keys, endpoints, parameters and input files of every model of the run before anything runs."""


@dataclass
class RefusalBenchConfig:
    dataset: DatasetConfig = field(default_factory=DatasetConfig)
    generators: PanelConfig = field(default_factory=PanelConfig)
    verifiers: PanelConfig = field(default_factory=PanelConfig)
    model: ModelConfig = field(default_factory=ModelConfig)
    judge: JudgeConfig = field(default_factory=JudgeConfig)
    reasoning: ReasoningConfig = field(default_factory=ReasoningConfig)
    """The evaluated model's reasoning budget (the `reasoning` group; `model.reasoning` is the same setting)."""
    pipeline: PipelineConfig = field(default_factory=PipelineConfig)
    tracking: TrackingConfig = field(default_factory=TrackingConfig)
    cache: CacheConfig = field(default_factory=CacheConfig)
    generate: GenerateConfig = field(default_factory=GenerateConfig)
    select: SelectConfig = field(default_factory=SelectConfig)
    evaluate: EvaluateConfig = field(default_factory=EvaluateConfig)
    score: ScoreConfig = field(default_factory=ScoreConfig)
    report: ReportConfig = field(default_factory=ReportConfig)
    run: RunConfig = field(default_factory=RunConfig)
    levers_extra: List[str] = field(default_factory=list)
    """Extra lever-catalogue YAML files."""
    name: str = "default"
    """Names the sweep directory multirun/<name>/ (a re-run resumes it)."""
    seed: int = 42

    def __post_init__(self) -> None:
        self._check_panels()
        self._reconcile_reasoning()

    def _check_panels(self) -> None:
        stages = set(self.pipeline.stages)
        bad = [k for k, m in self.generators.models.items() if m.backend == Backend.structural]
        _require(
            not bad, f"generator(s) {bad} use backend 'structural', which only verifies; use an LLM or 'programmatic'."
        )
        bad = [k for k, m in self.verifiers.models.items() if m.backend == Backend.programmatic]
        _require(
            not bad, f"verifier(s) {bad} use backend 'programmatic', which only generates; use an LLM or 'structural'."
        )
        _require(
            Stage.generate not in stages or bool(self.generators.models),
            "the generators panel has no models; choose one, e.g. generators=paper or generators=programmatic.",
        )
        _require(
            Stage.verify not in stages or bool(self.verifiers.models),
            "the verifiers panel has no models; choose one, e.g. verifiers=paper or verifiers=structural.",
        )

    def _reconcile_reasoning(self) -> None:
        """`model.reasoning` and the `reasoning` group are one setting: whichever is set wins; both set
        differently is an error (never a silent replacement)."""
        default = ReasoningConfig()
        own, run = self.model.reasoning, self.reasoning
        if own != default and run != default and own != run:
            raise ConfigError(
                f"model.reasoning ({dataclasses.asdict(own)}) and reasoning ({dataclasses.asdict(run)}) "
                "disagree; set the evaluated model's reasoning budget in one place (reasoning=... or "
                "reasoning.budget_tokens=N)."
            )
        if own != default:
            self.reasoning = own
        self.model.reasoning = self.reasoning


def register_configs() -> None:
    """Store the schemas in Hydra's ConfigStore and register the resolvers (idempotent)."""
    if not OmegaConf.has_resolver("rb_data"):
        # ${rb_data:FILE} -> absolute path of a data file bundled with the package
        OmegaConf.register_new_resolver("rb_data", lambda name: str(PACKAGE_DATA_DIR / name))
    if not OmegaConf.has_resolver("rb_job_key"):
        from refusalbench.tracking.job_identity import job_key
        from refusalbench.tracking.records import record_subdir

        # ${rb_job_key:${hydra.overrides.task}} -> a sweep job's directory from its semantic overrides
        OmegaConf.register_new_resolver("rb_job_key", lambda overrides: job_key(overrides))
        # ${rb_record_dir:${hydra.runtime.output_dir}} -> .hydra, or .hydra-<time> beside an earlier record
        OmegaConf.register_new_resolver("rb_record_dir", record_subdir)
    cs = ConfigStore.instance()
    cs.store(name="refusalbench_schema", node=RefusalBenchConfig)
