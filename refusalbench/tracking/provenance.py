"""What produced a run: git state, package versions, catalogue and prompt hashes, dataset fingerprint."""

from __future__ import annotations

import hashlib
import logging
import subprocess
from importlib import metadata
from pathlib import Path

from refusalbench.paths import PACKAGE_DIR

log = logging.getLogger(__name__)

PACKAGES = (
    "refusalbench",
    "hydra-core",
    "omegaconf",
    "litellm",
    "mlflow",
    "datasets",
    "pandas",
    "numpy",
    "xllamacpp",
    "vllm",
)


def git_state(where: Path = PACKAGE_DIR) -> dict[str, str]:
    """Commit and dirty flag of the checkout holding the package (`unknown` outside a git checkout)."""
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=where, capture_output=True, text=True, timeout=10)
        if commit.returncode != 0:
            return {"git_commit": "unknown", "git_dirty": "unknown"}
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=where,
            capture_output=True,
            text=True,
            timeout=10,
        )
        return {"git_commit": commit.stdout.strip(), "git_dirty": str(bool(status.stdout.strip())).lower()}
    except (OSError, subprocess.SubprocessError):
        return {"git_commit": "unknown", "git_dirty": "unknown"}


def package_versions() -> dict[str, str]:
    out = {}
    for name in PACKAGES:
        try:
            out[f"version.{name}"] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


def catalogue_hash(extra_files: list[str]) -> str:
    try:
        from refusalbench.levers import load_catalogue

        return load_catalogue(extra_files=tuple(extra_files)).content_hash
    except Exception as exc:  # provenance must never break a run; the tag says why it is absent
        log.warning("lever catalogue hash unavailable: %s", exc)
        return f"unavailable: {type(exc).__name__}"


def prompt_hashes() -> dict[str, str]:
    try:
        from refusalbench.prompts import declared_version, template_names

        return {f"prompt.{name}": declared_version(name) for name in template_names()}
    except Exception as exc:  # as above
        log.warning("prompt template hashes unavailable: %s", exc)
        return {}


def file_fingerprint(path: str | None, *settings: object) -> str:
    """sha256 of a dataset file's bytes (or directory listing) plus the selection settings."""
    digest = hashlib.sha256(repr(settings).encode())
    if path:
        p = Path(path)
        if p.is_file():
            with p.open("rb") as fh:
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    digest.update(chunk)
        elif p.is_dir():
            for child in sorted(p.rglob("*")):
                if child.is_file():
                    digest.update(f"{child.relative_to(p)}:{child.stat().st_size}".encode())
        else:
            digest.update(str(path).encode())
    return digest.hexdigest()
