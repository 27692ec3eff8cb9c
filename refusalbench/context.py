"""The run context handed to every stage: the validated config, the run directory, the model-call layer."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import pandas as pd

from refusalbench.config import RefusalBenchConfig
from refusalbench.tables import read_table, write_table

log = logging.getLogger(__name__)


@dataclass
class RunContext:
    cfg: RefusalBenchConfig
    run_dir: Path
    outputs: dict[str, str] = field(default_factory=dict)  # label -> path, printed at the end of a run
    _llm: Optional[Any] = None

    def table_path(self, name: str) -> Path:
        return self.run_dir / f"{name}.parquet"

    def has_table(self, name: str) -> bool:
        return self.table_path(name).exists()

    def write_table(self, name: str, df: pd.DataFrame) -> Path:
        path = write_table(df, self.table_path(name))
        self.outputs[name] = str(path)
        log.info("wrote %s (%d rows) to %s", name, len(df), path)
        return path

    def read_table(self, name: str, override: Optional[str] = None) -> pd.DataFrame:
        """Read table `name` from `override` if given, else from the run directory."""
        return read_table(override or self.table_path(name))

    @property
    def llm(self):
        """The shared model-call layer (created on first use, closed by `close`)."""
        if self._llm is None:
            from refusalbench.llm import LLMLayer

            self._llm = LLMLayer(self.cfg.cache, run_dir=self.run_dir)
        return self._llm

    def close(self) -> None:
        if self._llm is not None:
            self._llm.close()
            self._llm = None
