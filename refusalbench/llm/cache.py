"""Content-addressed, file-per-key response cache shared by all roles and processes.

Layout: ``<dir>/v<SCHEMA>/<k[:2]>/<k[2:4]>/<k>.json``, two JSON lines: the response (with the
schema version and key), then the canonical request the key was computed from (for debugging
misses; it never holds an API key). Each entry is written to a temporary file in
the same directory and moved into place with ``os.replace``, so readers never see a torn entry and
several processes (a parallel Hydra multirun) can share one directory without locks. An entry that
cannot be read or does not match its key is a miss (logged), and the next successful call
overwrites it.

Modes: ``read_write`` (default), ``read_only`` (never writes), ``off`` (neither), ``refresh``
(never reads, always writes).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import uuid
from pathlib import Path
from typing import Any, Optional

log = logging.getLogger(__name__)

CACHE_SCHEMA_VERSION = 1


def canonical_json(payload: Any) -> str:
    """Canonical JSON text: sorted keys, no whitespace, UTF-8 kept as is."""
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def key_for(canonical: str) -> str:
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class ResponseCache:
    """The on-disk cache. `get`/`put` are synchronous and cheap (one small file each)."""

    def __init__(self, directory: str | os.PathLike, mode: str = "read_write") -> None:
        self.mode = mode
        self.root = Path(directory).expanduser() / f"v{CACHE_SCHEMA_VERSION}"
        self._root = str(self.root)
        self.readable = mode in ("read_write", "read_only")
        self.writable = mode in ("read_write", "refresh")
        self._made: set[Path] = set()

    def path(self, key: str) -> Path:
        return Path(self._path(key))

    def _path(self, key: str) -> str:
        return f"{self._root}{os.sep}{key[:2]}{os.sep}{key[2:4]}{os.sep}{key}.json"

    def get(self, key: str) -> Optional[dict]:
        """The stored response for `key`, or None (miss, unreadable entry, or mode without reads)."""
        if not self.readable:
            return None
        path = self._path(key)
        try:
            with open(path, "rb") as fh:
                raw = fh.read()
        except FileNotFoundError:
            return None
        except OSError as exc:
            log.warning("cache entry %s unreadable (%s); treating as a miss", path, exc)
            return None
        try:
            entry = json.loads(raw.split(b"\n", 1)[0])
            if entry.get("key") != key or not isinstance(entry.get("response"), dict):
                raise ValueError("key or response missing")
        except (ValueError, AttributeError) as exc:
            log.warning("cache entry %s is corrupt (%s); treating as a miss", path, exc)
            return None
        return entry["response"]

    def put(self, key: str, canonical_request: str, response: dict) -> bool:
        """Store `response` under `key` atomically; returns whether it was written."""
        if not self.writable:
            return False
        path = self.path(key)
        folder = path.parent
        tmp: Optional[Path] = None
        try:
            if folder not in self._made:
                folder.mkdir(parents=True, exist_ok=True)
                self._made.add(folder)
            # the request text is already canonical JSON: splice it in rather than re-encode it
            response_json = canonical_json(response)
            text = (
                f'{{"schema":{CACHE_SCHEMA_VERSION},"key":"{key}","response":{response_json}}}\n'
                f'{{"request":{canonical_request}}}\n'
            )
            tmp = folder / f".{key}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp"
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.replace(tmp, path)
            return True
        except OSError as exc:
            log.warning("could not write cache entry %s (%s)", path, exc)
            if tmp is not None:
                try:
                    tmp.unlink(missing_ok=True)
                except OSError:
                    pass
            return False
