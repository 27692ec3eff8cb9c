"""Parse and re-ask rates of LLM replies from hand-made candidates and votes tables."""

from __future__ import annotations

import pandas as pd
import pytest

from refusalbench.generation.reply_rates import format_rates, main, reply_rates


def tables():
    candidates = pd.DataFrame(
        {
            "generator": ["llm"] * 5 + ["rules"],
            "generator_backend": ["embedded"] * 5 + ["programmatic"],
            "gen_attempts": [1, 1, 2, 2, 1, 0],
            "generation_ok": [True, True, True, False, False, True],
            "generation_failure_kind": [None, None, None, "parse", "call", None],
        }
    )
    votes = pd.DataFrame(
        {
            "verifier": ["v"] * 4 + ["structural"],
            "verifier_backend": ["embedded"] * 4 + ["structural"],
            "ver_attempts": [1, 2, 2, 1, None],
            "verify_failure_kind": [None, None, "parse", None, None],
        }
    )
    return candidates, votes


def test_rates_count_first_replies_reasks_and_failures():
    rates = reply_rates(*tables())
    assert set(rates) == {"generator/llm", "verifier/v"}  # no programmatic or structural rows, no call failures
    gen = rates["generator/llm"]
    assert gen["items"] == 4
    assert (gen["first_reply_parsed"]["k"], gen["reasked"]["k"], gen["parsed_after_reask"]["k"]) == (2, 2, 1)
    assert gen["parsed_after_reask"]["n"] == 2 and gen["never_parsed"]["rate"] == 0.25
    assert (gen["replies_parsed"]["k"], gen["replies_parsed"]["n"]) == (3, 6)
    assert gen["first_reply_parsed"]["low"] == pytest.approx(0.1500, abs=1e-4)  # Wilson 2/4
    ver = rates["verifier/v"]
    assert (ver["items"], ver["first_reply_parsed"]["k"], ver["never_parsed"]["k"]) == (4, 2, 1)
    assert "| generator/llm | 4 | 2/4 = 50 % (15–85 %) |" in format_rates(rates)


def test_command_reads_a_run_directory(tmp_path, capsys):
    candidates, votes = tables()
    candidates.to_parquet(tmp_path / "candidates.parquet")
    votes.to_parquet(tmp_path / "votes.parquet")
    assert main([str(tmp_path)]) == 0 and "verifier/v" in capsys.readouterr().out
    assert main([str(tmp_path / "nothing")]) == 2


def test_command_reports_an_unreadable_table_as_a_user_error(tmp_path, capsys):
    (tmp_path / "candidates.parquet").write_text("not a parquet file")
    assert main([str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("refusalbench: error:") and "Traceback" not in err
