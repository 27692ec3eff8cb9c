"""Sixty-first blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_perturb_review14 import _generate as _run
from tests.perturb.test_perturb_review14 import _row

CONVENT = _row(
    "how many nuns lived at the convent of vale escuro",
    ["42"],
    "The Convent of Vale Escuro is a former Cistercian convent near Braga, Portugal. At its height in the 1620s the "
    "community {verb} 42 nuns, together with novices and lay sisters. It was dissolved in 1834.",
)


def test_a_count_after_a_verb_of_counting_is_not_redacted():
    # R103: "the community numbered an unspecified number of nuns"
    with pytest.raises(NotApplicable, match="verb of counting"):
        _run(
            dict(CONVENT, context=CONVENT["context"].format(verb="numbered")),
            tx.MISSING_INFO,
            tx.MEDIUM,
            "Count Redacted",
        )
    out = _run(
        dict(CONVENT, context=CONVENT["context"].format(verb="housed")), tx.MISSING_INFO, tx.MEDIUM, "Count Redacted"
    )["perturbed_context"]
    assert "the community housed an unspecified number of nuns" in out


ALBUM = _row(
    "when was heavy orbit released",
    ["25 January 2013"],
    "Heavy Orbit is the third studio album by the Finnish heavy metal band Ashgrove. {sentence} Produced by Mikko "
    "Rautio, the album was recorded over six weeks at a studio near Tampere and features a guest solo by Ilkka Salo.",
)


@pytest.mark.parametrize(
    "sentence, declines",
    [
        # R022: the record label went with the date
        ("It was released on 25 January 2013 by Polar Forge Records.", True),
        ("It was released on 25 January 2013.", False),
    ],
)
def test_a_date_purge_takes_at_most_two_other_words(sentence, declines):
    row = dict(ALBUM, context=ALBUM["context"].format(sentence=sentence))
    if declines:
        with pytest.raises(NotApplicable, match="other facts of the dated event"):
            _run(row, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")
    else:
        out = _run(row, tx.MISSING_INFO, tx.HIGH, "Answer Token Purge")["perturbed_context"]
        assert "2013" not in out and "Ashgrove. Produced by" in out
