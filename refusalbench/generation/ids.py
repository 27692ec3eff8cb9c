"""Content-addressed record ids: the same inputs always give the same id, whatever the run order."""

from __future__ import annotations

import hashlib
import json
from typing import Optional


def content_hash(*parts: object, length: int = 16) -> str:
    """sha256 over the JSON encoding of `parts` (unambiguous: no separator collisions), hex-truncated."""
    payload = json.dumps([str(p) if p is not None else None for p in parts], ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:length]


def candidate_id(
    source_id: str,
    perturbation_class: str,
    intensity: str,
    generator: str,
    lever_or_mode: str,
    prompt_version: str,
) -> str:
    """Id of one generation task; `lever_or_mode` is the assigned lever, or the mode for llm_choice."""
    return content_hash(source_id, perturbation_class, intensity, generator, lever_or_mode, prompt_version)


def benchmark_id(
    candidate: str,
    generator: str,
    source_id: str,
    perturbation_class: str,
    intensity: str,
    prefix: Optional[str] = "RB",
) -> str:
    """Readable released id, `RB_<generator>_<source>_<class>_<intensity>_<candidate hash8>`."""
    return f"{prefix}_{generator}_{source_id}_{perturbation_class}_{intensity}_{candidate[:8]}"


def seed_for(*parts: object) -> int:
    """A 64-bit seed derived from `parts` (per-item seeding independent of processing order)."""
    return int(content_hash(*parts, length=16), 16)
