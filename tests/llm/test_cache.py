"""The file cache: modes, unreadable entries, atomic writes shared by several processes."""

from __future__ import annotations

import json
import logging
import multiprocessing as mp

from refusalbench.llm import CallSpec, ResponseCache
from tests.support.configs import model_cfg_for


def specs(n):
    return [CallSpec(key=str(i), messages=[{"role": "user", "content": f"q{i}"}]) for i in range(n)]


def _sent(server) -> int:
    """Requests for this file's prompts (a request abandoned by an earlier test may still reach the server)."""
    return sum(b["messages"][-1]["content"] in {"q0", "q1"} for b in server.requests)


def test_modes(make_layer, test_server):
    cfg = model_cfg_for(test_server)
    make_layer(mode="read_only").run(cfg, specs(2), "generator")  # nothing written
    make_layer(mode="off").run(cfg, specs(2), "generator")  # nothing written
    assert _sent(test_server) == 4
    make_layer(mode="read_write").run(cfg, specs(2), "generator")
    assert _sent(test_server) == 6
    assert all(c.cached for c in make_layer(mode="read_only").run(cfg, specs(2), "generator"))
    assert not any(c.cached for c in make_layer(mode="off").run(cfg, specs(2), "generator"))
    test_server.set_responder(lambda body: "fresh")
    refreshed = make_layer(mode="refresh").run(cfg, specs(2), "generator")  # never reads, overwrites
    assert [c.text for c in refreshed] == ["fresh", "fresh"] and not any(c.cached for c in refreshed)
    assert [c.text for c in make_layer().run(cfg, specs(2), "generator")] == ["fresh", "fresh"]
    assert _sent(test_server) == 10


def test_corrupt_entry_is_a_logged_miss_and_is_repaired(make_layer, test_server, caplog):
    cfg = model_cfg_for(test_server)
    layer = make_layer()
    layer.run(cfg, specs(1), "generator")
    path = layer.cache.path(layer.cache_key(cfg, specs(1)[0]))
    path.write_text('{"schema": 1, "key": "trunc')
    caplog.set_level(logging.WARNING)
    [c] = make_layer().run(cfg, specs(1), "generator")
    assert c.ok and not c.cached and "corrupt" in caplog.text
    assert json.loads(path.read_text().splitlines()[0])["response"]["text"] == c.text
    assert make_layer().run(cfg, specs(1), "generator")[0].cached


def test_entry_under_the_wrong_key_is_a_miss(tmp_path):
    cache = ResponseCache(tmp_path)
    cache.put("a" * 64, "{}", {"text": "x"})
    cache.path("b" * 64).parent.mkdir(parents=True, exist_ok=True)
    cache.path("b" * 64).write_bytes(cache.path("a" * 64).read_bytes())
    assert cache.get("a" * 64) == {"text": "x"} and cache.get("b" * 64) is None


def _writer(root: str, worker: int) -> None:
    cache = ResponseCache(root)
    for round_ in range(30):
        for k in range(20):
            cache.put(f"{k:064x}", f'{{"n":{k}}}', {"text": f"w{worker} r{round_} " + "x" * 2000})


def test_processes_share_one_directory_without_torn_entries(tmp_path):
    ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    procs = [ctx.Process(target=_writer, args=(str(tmp_path), w)) for w in range(4)]
    for p in procs:
        p.start()
    reader = ResponseCache(tmp_path)
    seen = 0
    while any(p.is_alive() for p in procs):
        for k in range(20):
            hit = reader.get(f"{k:064x}")
            if hit is not None:
                assert hit["text"].endswith("x" * 2000)
                seen += 1
    for p in procs:
        p.join()
        assert p.exitcode == 0
    assert all(reader.get(f"{k:064x}") for k in range(20))
    assert not list(tmp_path.rglob("*.tmp"))
