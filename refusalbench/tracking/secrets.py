"""Keeping secrets out of tracking: API keys and the values of key-like environment variables."""

from __future__ import annotations

import os
import re
from typing import Any, Iterable

#: Environment variable names whose values are treated as secrets.
SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)", re.IGNORECASE)
#: Shapes of well-known API keys, redacted even when they are not in the environment.
KEY_SHAPES = re.compile(
    r"\b(sk-[A-Za-z0-9_\-]{16,}|AKIA[0-9A-Z]{16}|hf_[A-Za-z0-9]{20,}|xox[abp]-[A-Za-z0-9\-]{10,})\b"
)
REDACTED = "***"
MIN_SECRET_LENGTH = 6  # shorter values ("1", "true") would redact ordinary text


def secret_values(environ: dict[str, str] | None = None, extra: Iterable[str] = ()) -> list[str]:
    """Values of environment variables whose names look like keys, tokens or secrets (longest first)."""
    env = os.environ if environ is None else environ
    values = {v for k, v in env.items() if SECRET_NAME.search(k) and len(v) >= MIN_SECRET_LENGTH}
    values.update(v for v in extra if v and len(v) >= MIN_SECRET_LENGTH)
    return sorted(values, key=len, reverse=True)


def scrub_text(text: str, secrets: Iterable[str]) -> str:
    """`text` with every secret value and every key-shaped token replaced by ***."""
    for value in secrets:
        if value in text:
            text = text.replace(value, REDACTED)
    return KEY_SHAPES.sub(REDACTED, text)


def scrub(obj: Any, secrets: Iterable[str]) -> Any:
    """Recursively scrub strings inside dicts/lists; other values pass through."""
    secrets = list(secrets)
    if isinstance(obj, str):
        return scrub_text(obj, secrets)
    if isinstance(obj, dict):
        return {k: scrub(v, secrets) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [scrub(v, secrets) for v in obj]
    return obj
