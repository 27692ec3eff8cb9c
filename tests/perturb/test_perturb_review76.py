"""Seventy-sixth blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

from refusalbench.perturb.purge_cuts import kept_part


def test_an_adjective_after_and_opens_no_clause_to_cut():
    # R045: "light helicopters and unmanned rotorcraft, headquartered in Montauban" lost "and unmanned rotorcraft"
    sentence = (
        "Heliodyne SA is a French manufacturer of light helicopters and unmanned rotorcraft, headquartered in "
        "Montauban, in the Tarn-et-Garonne department."
    )
    assert kept_part(sentence, lambda text: "Montauban" in text) is None
    approved = "It was discovered by chemists at the Ohio lab and approved for medical use in Japan on 30 June 1994."
    assert kept_part(approved, lambda text: "1994" in text) == "It was discovered by chemists at the Ohio lab."
