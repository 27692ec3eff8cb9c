"""Fifty-eighth blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_perturb_review14 import _generate as _run

NEWS = {
    "source_id": "news",
    "query": "how many languages is the ekuma news hour in",
    "answers": ["four languages", "four"],
    "title": "Ekuma News Hour",
    "context": "The Ekuma News Hour is a daily radio news programme broadcast from Windhoek, Namibia. It airs at noon "
    "and is presented in four languages{tail}. It was first broadcast in 1992.",
}


def test_a_count_redaction_declines_where_the_members_are_listed_without_a_serial_comma():
    # R011: "presented in an unspecified number of languages: Oshiwambo, English, Afrikaans and Rukwangali"
    row = dict(NEWS, context=NEWS["context"].format(tail=": Oshiwambo, English, Afrikaans and Rukwangali"))
    with pytest.raises(NotApplicable, match="lists three or more"):
        _run(row, tx.MISSING_INFO, tx.MEDIUM, "Count Redacted")
    row = dict(NEWS, context=NEWS["context"].format(tail=" to listeners across the north of the country"))
    out = _run(row, tx.MISSING_INFO, tx.MEDIUM, "Count Redacted")["perturbed_context"]
    assert "presented in an unspecified number of languages to listeners" in out
