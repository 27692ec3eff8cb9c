"""Sixty-sixth blind review: gates written from its items not valid (docs/validity.md)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb.restatement import shortened
from tests.perturb.test_contradiction_gates import added
from tests.perturb.test_perturb_review14 import _generate as _run
from tests.perturb.test_perturb_review14 import _row


def test_a_rounded_figure_is_written_to_the_precision_it_was_rounded_to():
    # R047: "Another source rounds the figure, stating that its main approach channel is dredged to 17.0 metres"
    rivals = [_row("how deep is port 9", ["9 metres"], "Port 9 is 9 metres deep.", "p9")]
    row = _row(
        "how deep is the port of hestnes",
        ["16.5 metres"],
        "The Port of Hestnes is a deep-water port in Norway, opened in 1978. Its main approach channel is dredged to "
        "16.5 metres. The port was extended in 2004.",
    )
    statement = added(row, _run(row, tx.CONTRADICTION, tx.LOW, "Minor Numeric Rounding", rivals))
    assert "dredged to 17 metres." in statement


@pytest.mark.parametrize(
    "sentence, value, short",
    [
        # R069: the rounded count repeated "selling fish, meat, fruit and vegetables"
        (
            "Its iron and glass hall houses 312 stalls selling fish, meat, fruit and vegetables.",
            "312",
            "Its iron and glass hall houses 312 stalls.",
        ),
        (
            "Its iron and glass hall houses 312 stalls selling fish, meat, fruit and vegetables.",
            "312 stalls",
            "Its iron and glass hall houses 312 stalls.",
        ),
        # R074: a second predicate after a list ("..., and is credited with bringing ...")
        (
            "He now owns nine restaurants in Santiago, Lima and Buenos Aires, and is credited with bringing cochayuyo "
            "seaweed into Chilean fine dining.",
            "nine",
            "He now owns nine restaurants in Santiago, Lima and Buenos Aires.",
        ),
        # R089: a participle right after the lead's noun, with no comma before it
        (
            "The Kettering Inheritance is a British television drama serial first shown on 3 January 1979.",
            "3 January 1979",
            "The Kettering Inheritance was first shown on 3 January 1979.",
        ),
        # the short form of the lead, then its first predicate dropped too
        (
            "SS Maren Vale was a British cargo steamship built by a shipyard in Sunderland and launched in 1927.",
            "1927",
            "SS Maren Vale was launched in 1927.",
        ),
    ],
)
def test_the_restatement_drops_what_the_rival_source_does_not_dispute(sentence, value, short):
    assert shortened(sentence, value) == short


@pytest.mark.parametrize(
    "sentence, value",
    [
        # a noun that ends in -ing is not a participle phrase
        ("The pool has 3 swimming lanes.", "3"),
        ("The prison has 12 holding cells.", "12"),
        # a participle after its auxiliary: "Ballymore Road was broadcast on national radio since 1963" would not read
        ("Ballymore Road is an Irish radio soap opera that has been broadcast on national radio since 1963.", "1963"),
    ],
)
def test_a_sentence_of_no_such_form_stays_whole(sentence, value):
    assert shortened(sentence, value) == sentence
