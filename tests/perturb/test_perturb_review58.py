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


FRIGATE = {
    "source_id": "frigate",
    "query": "how many guns did the frigate almirante cusaya carry",
    "answers": ["44"],
    "title": "Almirante Cusaya",
    "context": "Almirante Cusaya was a frigate of the Peruvian Navy launched in Callao. She served through the War of "
    "Independence. {opening}she was the most heavily armed ship of the squadron and took part in the blockade of the "
    "southern ports.",
}


@pytest.mark.parametrize(
    "opening", ["Rated at 44 guns, ", "With 44 guns, ", "Carrying 44 guns, ", "Armed with about 44 guns, "]
)
def test_a_count_redaction_takes_a_short_opening_phrase_whole(opening):
    # R025: "Rated at an unspecified number of guns, she was ..." read as stilted; the phrase goes, the main clause
    # opens the sentence
    out = _run(
        dict(FRIGATE, context=FRIGATE["context"].format(opening=opening)), tx.MISSING_INFO, tx.MEDIUM, "Count Redacted"
    )["perturbed_context"]
    assert "War of Independence. She was the most heavily armed ship" in out
    assert "unspecified" not in out and "44" not in out


def test_a_count_in_the_main_clause_keeps_the_stand_in():
    row = dict(FRIGATE, context=FRIGATE["context"].format(opening="").replace("she was", "She carried 44 guns and was"))
    out = _run(row, tx.MISSING_INFO, tx.MEDIUM, "Count Redacted")["perturbed_context"]
    assert "She carried an unspecified number of guns and was" in out
