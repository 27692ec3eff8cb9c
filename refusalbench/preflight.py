"""Checks made before the first model call and before tracking starts.

Every model of every stage in the run (generators, verifiers, evaluated model, LLM judge) is
resolved; its key or cloud credentials must be present, its endpoint reachable (one ``GET
/models`` for an ``api_base`` server) and its parameters supported (a thinking budget only on a
model with extended thinking, no temperature sent with thinking, output tokens within the model's
limits). Every input file the run reads must exist. All problems are collected and reported
together in one `PreflightError` paragraph, so a run never spends money before a missing key of a
later stage is found.
"""

from __future__ import annotations

import dataclasses
import difflib
import http.client
import json
import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from refusalbench.config import ModelConfig, RefusalBenchConfig
from refusalbench.errors import UserError

NOT_MODEL_BACKENDS = ("programmatic", "structural")
MANAGED_BACKENDS = ("embedded", "vllm_managed")
PROBE_TIMEOUT_S = 3.0
AWS_KEY_VARS = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")
# other ways boto3 finds credentials without access keys in the environment
AWS_OTHER_SOURCES = (
    "AWS_PROFILE",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_BEARER_TOKEN_BEDROCK",
)


class PreflightError(UserError):
    """One or more problems found before any model call; the message lists them all."""


@dataclass(frozen=True)
class ModelUse:
    """A model as one stage of the run will call it."""

    role: str  # generator | verifier | evaluated | judge
    key: str  # where it is configured, e.g. generators.models.gpt
    cfg: ModelConfig

    @property
    def label(self) -> str:
        return f"{self.role} {self.cfg.id!r} ({self.key})"


def models_in_run(cfg: RefusalBenchConfig) -> list[ModelUse]:
    """The models the configured stages will call, with the settings each stage applies."""
    stages = set(cfg.pipeline.stages)
    uses: list[ModelUse] = []
    if "generate" in stages:
        for key, m in cfg.generators.models.items():
            if cfg.generators.temperature is not None:
                m = dataclasses.replace(m, temperature=cfg.generators.temperature)
            uses.append(ModelUse("generator", f"generators.models.{key}", m))
    if "verify" in stages:
        temperature = cfg.verifiers.temperature if cfg.verifiers.temperature is not None else 0.0
        for key, m in cfg.verifiers.models.items():
            m = dataclasses.replace(m, temperature=temperature)
            uses.append(ModelUse("verifier", f"verifiers.models.{key}", m))
    if "evaluate" in stages:
        uses.append(ModelUse("evaluated", "model", dataclasses.replace(cfg.model, reasoning=cfg.reasoning)))
    if "judge" in stages and cfg.judge.kind == "llm" and cfg.judge.model is not None:
        uses.append(ModelUse("judge", "judge.model", dataclasses.replace(cfg.judge.model, temperature=0.0)))
    return uses


def check_role(use: ModelUse) -> list[str]:
    """A rule-based backend only fits the panel it was made for."""
    backend = str(use.cfg.backend)
    allowed = {"programmatic": "generator", "structural": "verifier"}.get(backend)
    if allowed is None or allowed == use.role:
        return []
    panel = {"generator": "generators=programmatic", "verifier": "verifiers=structural"}[allowed]
    return [
        f"{use.label}: backend {backend!r} is a rule-based {allowed}, not a model, so it cannot serve as the "
        f"{use.role} ({panel} selects it as {allowed}; choose a model for {use.key}, "
        "e.g. model=local_qwen2.5_0.5b)"
    ]


def input_files(cfg: RefusalBenchConfig) -> list[tuple[str, str]]:
    """(option, path) of every input file or folder the configuration names."""
    named = [
        ("dataset.path", cfg.dataset.path),
        ("generate.source", cfg.generate.source),
        ("select.candidates", cfg.select.candidates),
        ("evaluate.benchmark", cfg.evaluate.benchmark),
        ("score.predictions", cfg.score.predictions),
        ("report.sweep_dir", cfg.report.sweep_dir),
    ]
    named += [(f"levers_extra[{i}]", p) for i, p in enumerate(cfg.levers_extra)]
    return [(k, p) for k, p in named if p]


def check_files(cfg: RefusalBenchConfig) -> list[str]:
    problems = []
    for option, path in input_files(cfg):
        resolved = Path(path).expanduser()
        if not resolved.exists():
            problems.append(
                f"{option}: {path} does not exist (resolved to {resolved.resolve()}){_similar_file(resolved)}"
            )
    return problems + check_predictions(cfg)


def check_stage_inputs(cfg: RefusalBenchConfig, run_dir: Path) -> list[str]:
    """The table the pipeline's first stage reads from the run directory (when no earlier stage makes it)."""
    from refusalbench.stages import STAGE_ORDER

    stages = [s for s in STAGE_ORDER if s in cfg.pipeline.stages]
    first = stages[0] if stages else None
    elsewhere = "or point hydra.run.dir=DIR at a run that has it"
    needs = {
        "check": ("candidates.parquet", "run the generate stage first"),
        "verify": ("checked.parquet", "run the check stage first"),
        "judge": ("outputs.parquet", f"run the evaluate stage first (pipeline=evaluate), {elsewhere}"),
        "score": (
            None if cfg.score.predictions else "labels.parquet",
            f"set score.predictions=FILE to score another tool's predictions, {elsewhere}",
        ),
        "report": (
            None if cfg.report.sweep_dir else "metrics.json",
            f"run the score stage first, set report.sweep_dir=DIR, {elsewhere}",
        ),
    }
    name, advice = needs.get(first, (None, ""))
    if name and not (Path(run_dir) / name).exists():
        return [f"the {first} stage reads {Path(run_dir) / name}, which does not exist: {advice}"]
    return []


def _similar_file(missing: Path) -> str:
    """A "did you mean" for a mistyped file name: a file of a similar name in the same folder."""
    folder = missing.resolve().parent
    try:
        names = [p.name for p in folder.iterdir()] if folder.is_dir() else []
    except OSError:
        return ""
    close = difflib.get_close_matches(missing.name, names, n=1, cutoff=0.75)
    return f"; did you mean {str(folder / close[0])!r}?" if close else ""


def check_predictions(cfg: RefusalBenchConfig) -> list[str]:
    """A predictions file to score has the required columns (read from its header, not the whole file)."""
    path = cfg.score.predictions
    if "score" not in cfg.pipeline.stages or not path or not Path(path).expanduser().is_file():
        return []
    from refusalbench.metrics.predictions import file_columns, missing_columns_problem

    columns = file_columns(Path(path).expanduser())
    problem = missing_columns_problem(columns, str(path)) if columns is not None else None
    return [f"score.predictions: {problem}"] if problem else []


# ---- one model -----------------------------------------------------------------------------------


def _litellm():
    from refusalbench.llm.litellm_setup import import_litellm

    return import_litellm()


def _model_info(name: str) -> Optional[dict]:
    try:
        return dict(_litellm().get_model_info(name))
    except Exception:  # noqa: BLE001 - a model missing from LiteLLM's map is simply unknown
        return None


def _aws_credentials_present() -> bool:
    if all(os.environ.get(v) for v in AWS_KEY_VARS) or any(os.environ.get(v) for v in AWS_OTHER_SOURCES):
        return True
    shared = os.environ.get("AWS_SHARED_CREDENTIALS_FILE", "~/.aws/credentials")
    return Path(shared).expanduser().is_file()


def check_credentials(use: ModelUse, route) -> list[str]:
    """A missing key or cloud credential for `use` (none for local servers)."""
    cfg = use.cfg
    if cfg.api_key_env:
        if not os.environ.get(cfg.api_key_env):
            return [
                f"{use.label}: its API key variable {cfg.api_key_env} is not set (export it; for a server that "
                "needs no key set api_key_env=null on that model)"
            ]
        return []
    if route.openai_compatible:
        return []
    provider = cfg.name.split("/", 1)[0]
    if provider.startswith("bedrock") or provider == "sagemaker":
        if _aws_credentials_present():
            return []
        return [
            f"{use.label}: no AWS credentials for Bedrock (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or "
            "AWS_PROFILE, or ~/.aws/credentials)"
        ]
    try:
        missing = _litellm().validate_environment(cfg.name).get("missing_keys") or []
    except Exception:  # noqa: BLE001 - LiteLLM does not know the provider's conventions
        return []
    if missing:
        return [f"{use.label}: the provider's key variable(s) {', '.join(missing)} are not set"]
    return []


def check_parameters(use: ModelUse, route) -> list[str]:
    """Parameter combinations the model's provider would reject."""
    cfg, mapped = use.cfg, route.mapped
    problems = []
    thinking = bool(cfg.reasoning.budget_tokens) or cfg.reasoning.effort is not None
    info = None if route.openai_compatible else _model_info(cfg.name)
    if thinking and info is not None and not info.get("supports_reasoning"):
        setting = (
            f"reasoning budget {cfg.reasoning.budget_tokens}"
            if cfg.reasoning.budget_tokens
            else f"reasoning effort {cfg.reasoning.effort!r}"
        )
        problems.append(
            f"{use.label}: {setting} requested, but {cfg.name} has no extended thinking "
            "(use reasoning=default or budget_0, or a model with thinking)"
        )
    elif thinking and mapped.temperature not in (None, 1.0) and ("thinking" in mapped.params):
        problems.append(
            f"{use.label}: temperature {mapped.temperature} is sent together with a thinking budget, "
            f"which providers with extended thinking reject (set {use.key}.temperature=null)"
        )
    if info is not None and mapped.max_tokens and info.get("max_output_tokens"):
        if mapped.max_tokens > int(info["max_output_tokens"]):
            problems.append(
                f"{use.label}: asks for up to {mapped.max_tokens} output tokens (max_tokens plus the "
                f"thinking budget), above the model's limit of {info['max_output_tokens']}"
            )
    if cfg.backend in MANAGED_BACKENDS and mapped.max_tokens and mapped.max_tokens >= cfg.context_size:
        problems.append(
            f"{use.label}: max_tokens {mapped.max_tokens} does not fit its context_size "
            f"{cfg.context_size}; raise {use.key}.context_size or lower max_tokens"
        )
    return problems


def probe_endpoint(api_base: str, api_key: Optional[str], timeout: float = PROBE_TIMEOUT_S) -> Optional[str]:
    """None if ``GET {api_base}/models`` gets an HTTP answer that accepts the key; else the problem."""
    request = urllib.request.Request(api_base.rstrip("/") + "/models")
    if api_key:
        request.add_header("Authorization", f"Bearer {api_key}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            json.loads(reply.read() or b"{}")
        return None
    except urllib.error.HTTPError as exc:
        if exc.code in (401, 403):
            return f"the server at {api_base} rejected the API key (HTTP {exc.code})"
        return None  # the server answers; some have no /models route
    except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as exc:
        reason = getattr(exc, "reason", exc)
        return f"the server at {api_base} is not reachable ({reason}); start it or fix api_base"


def api_base_problem(api_base: str) -> Optional[str]:
    """Why `api_base` is not a usable server URL (e.g. a placeholder left in), or None."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(api_base)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError as exc:
        return f"api_base {api_base!r} is not a valid URL ({exc}); write it like http://127.0.0.1:8000/v1"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"api_base {api_base!r} is not an http(s) URL with a host; write it like http://127.0.0.1:8000/v1"
    return None


def check_runtime(use: ModelUse) -> list[str]:
    """Managed backends: the runtime is installed and its model file is findable."""
    cfg = use.cfg
    if cfg.backend == "embedded":
        try:
            import importlib.util

            if importlib.util.find_spec("xllamacpp") is None:
                return [
                    f"{use.label}: the embedded runtime xllamacpp is not installed "
                    "(reinstall refusalbench: pip install -e .)"
                ]
        except (ImportError, ValueError):
            return [f"{use.label}: the embedded runtime cannot be imported"]
        if cfg.path and not Path(cfg.path).expanduser().is_file():
            return [f"{use.label}: model file {cfg.path} does not exist"]
    if cfg.backend == "vllm_managed":
        from refusalbench.llm.vllm_server import vllm_executable

        try:
            vllm_executable()
        except UserError as exc:
            return [f"{use.label}: {exc}"]
    return []


def check_model(
    use: ModelUse, probe: Callable[[str, Optional[str]], Optional[str]] = probe_endpoint, credentials: bool = True
) -> list[str]:
    """Every problem of one model use (resolution, credentials, endpoint, parameters)."""
    from refusalbench.llm.routing import build_route

    if use.cfg.backend in NOT_MODEL_BACKENDS:
        return check_role(use)
    try:
        route = build_route(use.cfg)
    except UserError as exc:
        return [f"{use.label}: {exc}"]
    except Exception as exc:  # noqa: BLE001 - e.g. a provider prefix LiteLLM does not know
        return [f"{use.label}: cannot resolve model {use.cfg.name!r} ({type(exc).__name__}: {exc})"]
    if not route.openai_compatible:
        try:
            _litellm().get_llm_provider(use.cfg.name)
        except Exception:  # noqa: BLE001
            return [
                f"{use.label}: LiteLLM does not know the provider of {use.cfg.name!r} (expected e.g. "
                "openai/MODEL or bedrock/MODEL, or set api_base for an OpenAI-compatible server)"
            ]
    problems = check_parameters(use, route) + check_runtime(use)
    if credentials:
        key_problems = check_credentials(use, route)
        problems += key_problems
        bad_url = api_base_problem(route.api_base) if route.api_base else None
        if bad_url:
            problems.append(f"{use.label}: {bad_url}")
        elif route.api_base and not key_problems:
            key = os.environ.get(use.cfg.api_key_env) if use.cfg.api_key_env else None
            found = probe(route.api_base, key)
            if found:
                problems.append(f"{use.label}: {found}")
    return problems


def preflight(
    cfg: RefusalBenchConfig,
    probe: Callable[[str, Optional[str]], Optional[str]] = probe_endpoint,
    run_dir: Optional[Path] = None,
) -> None:
    """Raise one `PreflightError` naming every problem of the run's files and models; return if none.

    A dry run needs no keys or servers, so only resolution, parameters and files are checked then.
    With `run_dir`, the table the first stage reads from it must exist too.
    """
    found_files = check_files(cfg) + (check_stage_inputs(cfg, run_dir) if run_dir and not cfg.run.dry_run else [])
    problems: dict[str, list[str]] = {p: [] for p in found_files}  # problem -> the models it concerns
    probed: dict[tuple[str, Optional[str]], Optional[str]] = {}

    def probe_once(api_base: str, key: Optional[str]) -> Optional[str]:
        if (api_base, key) not in probed:
            probed[(api_base, key)] = probe(api_base, key)
        return probed[(api_base, key)]

    for use in models_in_run(cfg):
        for found in check_model(use, probe_once, credentials=not cfg.run.dry_run):
            what = found.removeprefix(f"{use.label}: ")
            problems.setdefault(what, []).append(use.label)
    if problems:
        listing = "; ".join(
            f"({i}) {', '.join(who) + ': ' if who else ''}{what.rstrip('.')}"
            for i, (what, who) in enumerate(problems.items(), start=1)
        )
        end = "" if listing.endswith("?") else "."
        raise PreflightError(
            f"The run cannot start: {len(problems)} problem(s) found before any model call: "
            f"{listing}{end} Nothing was run or tracked."
        )
