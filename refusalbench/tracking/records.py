"""Where a run writes Hydra's record of itself (`config.yaml`, `overrides.yaml`, `hydra.yaml`).

A run in a fresh directory writes `.hydra/`. A later run in the same directory — re-judging an old
run with `pipeline.stages=[judge,score,report] hydra.run.dir=OLD_RUN` — writes `.hydra-<time>/`
beside it, so the record of what produced the old outputs is kept.
"""

from __future__ import annotations

import time
from pathlib import Path

FIRST_RECORD = ".hydra"
_chosen: dict[str, str] = {}  # output dir -> record subdir, so every resolution in a process agrees


def record_subdir(output_dir: str) -> str:
    """`.hydra` for a new run directory, else a fresh `.hydra-YYYYmmdd-HHMMSS[-N]` (resolver `rb_record_dir`)."""
    key = str(Path(output_dir).resolve())
    if key not in _chosen:
        root = Path(key)
        name = FIRST_RECORD
        if (root / FIRST_RECORD).exists():
            name = f"{FIRST_RECORD}-{time.strftime('%Y%m%d-%H%M%S')}"
            n = 1
            while (root / name).exists():
                n += 1
                name = f"{FIRST_RECORD}-{time.strftime('%Y%m%d-%H%M%S')}-{n}"
        _chosen[key] = name
    return _chosen[key]


def discard_new_record(output_dir: Path, subdir: str) -> None:
    """Remove a record this process added beside an earlier one (a skipped sweep job ran nothing)."""
    if subdir == FIRST_RECORD or not subdir.startswith(FIRST_RECORD):
        return
    record = Path(output_dir) / subdir
    for child in record.glob("*"):
        child.unlink()
    if record.is_dir():
        record.rmdir()
