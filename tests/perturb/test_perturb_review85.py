"""Eighty-fifth blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench.perturb.subject import work_subject

ALMEDINA = (
    "Las crónicas de Almedina (The Almedina Chronicles) is a fantasy series by the Spanish author Íñigo Zabaleta "
    "Arrieta, published by Ediciones Grifo between 2004 and 2016. It follows a mapmaker across six novels."
)


def test_a_series_of_books_is_not_read_as_television():
    # R021, R029: "How would television have developed if the series ... had never been made?" of a novel series
    assert work_subject(ALMEDINA, "Las crónicas de Almedina") is None


@pytest.mark.parametrize(
    "opening, title",
    [
        ("Harbour Nights is an American crime drama series based on the 2007 novel by Ada Moss.", "Harbour Nights"),
        ("Harbour Nights is a British television series created by the novelist Ada Moss.", "Harbour Nights"),
        ("Harbour Nights is a crime series that aired on BBC One, adapted from books by Ada Moss.", "Harbour Nights"),
    ],
)
def test_a_screen_series_tied_to_books_is_still_television(opening, title):
    subject = work_subject(opening + " It ran for four seasons.", title)
    assert subject is not None and subject.field == "television"
