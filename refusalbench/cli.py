"""The one entry point: `refusalbench [overrides]` (and `python -m refusalbench`).

Validates the composed config, then runs the configured pipeline stages in their canonical
order inside Hydra's run directory. User mistakes end the run with one clear paragraph and
exit status 2; nothing already written is lost.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

from refusalbench.config import RefusalBenchConfig, register_configs
from refusalbench.context import RunContext
from refusalbench.errors import UserError
from refusalbench.paths import CONF_DIR
from refusalbench.stages import STAGE_ORDER, StageNotBuilt, load_stage

log = logging.getLogger("refusalbench")

register_configs()


def validate(cfg: DictConfig) -> RefusalBenchConfig:
    """Turn the composed DictConfig into typed dataclasses, running every `__post_init__` check."""
    missing = sorted(OmegaConf.missing_keys(cfg))
    if missing:
        raise UserError(
            f"Missing required configuration value(s): {', '.join(missing)}. "
            f"Set them on the command line, e.g. {missing[0]}=VALUE."
        )
    try:
        obj = OmegaConf.to_object(cfg)
    except OmegaConfBaseException as exc:
        cause = exc.__cause__ if isinstance(exc.__cause__, UserError) else None
        key = getattr(exc, "full_key", None)
        where = f" (key: {key})" if key else ""
        raise UserError(f"Invalid configuration{where}: {cause or exc}".replace("\n", " ")) from exc
    assert isinstance(obj, RefusalBenchConfig)
    unknown = [s for s in obj.pipeline.stages if s not in STAGE_ORDER]
    if unknown:
        raise UserError(f"pipeline.stages names unknown stage(s) {unknown}; known stages: {', '.join(STAGE_ORDER)}.")
    return obj


def ordered_stages(names: list[str]) -> list[str]:
    return [s for s in STAGE_ORDER if s in names]


def run_pipeline(cfg: RefusalBenchConfig, run_dir: Path) -> RunContext:
    """Run the configured stages in order; returns the context (with the paths written)."""
    ctx = RunContext(cfg=cfg, run_dir=run_dir)
    stages = ordered_stages(cfg.pipeline.stages)
    missing = []
    for name in stages:
        try:
            load_stage(name)
        except StageNotBuilt:
            missing.append(name)
    if missing:
        raise StageNotBuilt(
            f"This pipeline needs the stage(s) {', '.join(missing)}, which are not built yet in this version "
            f"of RefusalBench. Stages available now: "
            f"{', '.join(s for s in STAGE_ORDER if _exists(s)) or 'none'}."
        )
    try:
        for name in stages:
            log.info("stage %s: start", name)
            load_stage(name).run(ctx)
            log.info("stage %s: done", name)
    finally:
        ctx.close()
    return ctx


def _exists(name: str) -> bool:
    try:
        load_stage(name)
        return True
    except StageNotBuilt:
        return False


def print_summary(ctx: RunContext) -> None:
    lines = [f"RefusalBench run finished. Run directory: {ctx.run_dir}"]
    for label, path in ctx.outputs.items():
        lines.append(f"  {label}: {path}")
    print("\n".join(lines))


@hydra.main(config_path=str(CONF_DIR), config_name="config", version_base="1.3")
def _hydra_main(cfg: DictConfig) -> None:
    try:
        typed = validate(cfg)
        run_dir = Path(HydraConfig.get().runtime.output_dir)
        ctx = run_pipeline(typed, run_dir)
    except UserError as exc:
        log.error("%s", exc)
        print(f"refusalbench: error: {exc}", file=sys.stderr)
        sys.exit(2)
    print_summary(ctx)


def main() -> None:
    """Console-script entry point."""
    _hydra_main()


if __name__ == "__main__":
    main()
