"""A dated event denied for the whole of its year (`perturb.not_yet`)."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.generation.semantic import Candidate, answer_uncontested
from refusalbench.perturb import NotApplicable
from refusalbench.perturb.not_yet import WORDINGS, not_yet


@pytest.mark.parametrize(
    "sentence, value, year, denial",
    [
        # place, venue and agent phrases go: a denial that says less is stronger
        ("It opened on Broadway at the Majestic Theatre on April 2, 1966.", "April 2, 1966", "1964",
         "It had not yet opened by the end of 1964."),
        ("It gave its last performance at Northampton on 30 September 1968.", "30 September 1968", "1967",
         "It had not yet given its last performance by the end of 1967."),
        ("Wierzbicki became editor-in-chief of Kurier in January 2010.", "January 2010", "2011",
         "Wierzbicki had not yet become editor-in-chief of Kurier by the end of 2011."),
        ("The first edition was first held in February 1997.", "February 1997", "1999",
         "The first edition had not yet been held by the end of 1999."),
        ("She was awarded the Berthold Medal in 2014.", "2014", "2012",
         "She had not yet been awarded the Berthold Medal by the end of 2012."),
        ("It released its first feature film, The Magpie Bridge, in 1999.", "1999", "2002",
         "It had not yet released its first feature film by the end of 2002."),
        ("It was released as the lead single from the album in March 2003.", "March 2003", "2003",
         "It had not yet been released by the end of 2003."),
    ],
)  # fmt: skip
def test_the_event_is_denied_for_its_whole_year(sentence, value, year, denial):
    assert not_yet(sentence, value, year, WORDINGS[0]) == denial


@pytest.mark.parametrize(
    "sentence, value, why",
    [
        ("Known for his slapshot, he transferred to Hamburg in 2004.", "2004", "commas"),
        ("The silver trophy, made in Budapest, was first awarded in 1996.", "1996", "commas"),
        ("The island was listed as a World Heritage Site in 1982.", "1982", "'as'"),
        ("The oven went on sale on May 21, 1959.", "May 21, 1959", "needs the words"),
        ("The newly formed unit disbanded in 1921.", "1921", "no past verb"),
        ("The record is 12 hours long and dates from 1921.", "1921", "no past verb"),
    ],
)
def test_what_a_rule_cannot_deny_safely_is_declined(sentence, value, why):
    with pytest.raises(NotApplicable, match=why):
        not_yet(sentence, value, "1920")


def test_the_detector_reads_a_long_denial_as_contesting_the_year():
    original = "Kenji Moriyama is a geographer. He led the Japanese Karakoram Glacier Survey in 1986."
    denial = "He had not yet led the Japanese Karakoram Glacier Survey by the end of 1986."
    perturbed = original.replace("1986.", "1986. " + denial)
    cand = Candidate(tx.CONTRADICTION, tx.HIGH, "when", "when", [original], [perturbed], ["1986"])
    assert answer_uncontested(cand) is None
