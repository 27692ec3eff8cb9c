"""A generator or verifier whose calls all fail with an error no retry fixes stops after a small first batch."""

from __future__ import annotations

import pandas as pd
import pytest

from refusalbench.config import ModelConfig
from refusalbench.errors import UserError
from refusalbench.generation.fatal import FIRST_BATCH, fatal_error
from refusalbench.stages import check, generate, verify
from tests.support.generation import (
    ScriptedLayer,
    context_with,
    generator_reply,
    is_verifier,
    make_cfg,
    single_base,
    write_base,
)

GEN = {
    "gpt": ModelConfig(name="openai/gpt-test", id="gpt-test", max_retries=0),
    "nova": ModelConfig(name="openai/nova-test", id="nova-test", max_retries=0),
}
VER = {"claude": ModelConfig(name="openai/claude-test", id="claude-test")}


class AuthenticationError(Exception):
    pass


class Timeout(Exception):
    pass


def test_only_unfixable_kinds_in_a_batch_of_failures_are_fatal():
    assert fatal_error(["call failed: AuthenticationError: no key"] * 3)
    assert fatal_error(["AuthenticationError: no key", "BadRequestError: thinking not supported"])
    assert not fatal_error(["AuthenticationError: no key", None])
    assert not fatal_error(["call failed: Timeout: slow"] * 3)
    assert not fatal_error([])


def test_generator_without_credentials_stops_after_the_first_batch(tmp_path):
    cfg = make_cfg(tmp_path, GEN, {}, source=write_base(tmp_path, single_base()))
    layer = ScriptedLayer(lambda m, c: AuthenticationError("invalid credentials"))
    with pytest.raises(UserError, match="generate stage stopped.*gpt-test.*AuthenticationError"):
        generate.run(context_with(cfg, tmp_path / "run", layer))
    assert len(layer.requests) == FIRST_BATCH  # not 2 x 36
    recorded = pd.read_parquet(tmp_path / "run" / "candidates.parquet")
    assert len(recorded) == FIRST_BATCH and (~recorded["generation_ok"]).all()


def test_transient_failures_do_not_stop_the_generator(tmp_path):
    cfg = make_cfg(tmp_path, {"gpt": GEN["gpt"]}, {}, source=write_base(tmp_path, single_base()))
    layer = ScriptedLayer(lambda m, c: Timeout("no reply"))
    with pytest.raises(UserError, match="Every generation call failed"):
        generate.run(context_with(cfg, tmp_path / "run", layer))
    assert len(layer.requests) == 36


def test_verifier_refusing_every_call_stops_the_stage(tmp_path):
    def responder(messages, cfg):
        if is_verifier(messages):
            return AuthenticationError("expired token")
        return generator_reply(messages[0]["content"])

    cfg = make_cfg(tmp_path, {"gpt": GEN["gpt"]}, VER, source=write_base(tmp_path, single_base()))
    layer = ScriptedLayer(responder)
    ctx = context_with(cfg, tmp_path / "run", layer)
    generate.run(ctx)
    check.run(ctx)
    with pytest.raises(UserError, match="verify stage stopped.*claude-test"):
        verify.run(ctx)
    assert len([r for r in layer.requests if r[2] == "verifier"]) == FIRST_BATCH
