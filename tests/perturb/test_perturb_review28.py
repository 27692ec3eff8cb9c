"""Changes after the twenty-eighth blind review (a third set of fresh source items): the answer-token purge cuts
only a sentence's last clause where that alone holds the answer (so the sentence's other facts stay), a date
clash declines where the passage ties the year to another (an anniversary), and the inanimate-agent question
does not keep a sentence's capital "The" inside the name it copies."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import NotApplicable
from tests.perturb.test_perturb_review14 import _generate, _row

PURGE = "Answer Token Purge"
DRUG = (
    "Velmorazole is a proton pump inhibitor used to treat stomach ulcers and reflux. It was discovered by chemists "
    "at the Osaka laboratories of Kitano Pharma and approved in Japan on 12 May 1996. It is taken "
    "once a day, usually before breakfast, and is sold under several brand names across Asia."
)


def test_purge_cuts_only_the_last_clause_that_holds_the_answer():
    row = _row("when was velmorazole approved", ["12 May 1996"], DRUG)
    new = _generate(row, tx.MISSING_INFO, tx.HIGH, PURGE)["perturbed_context"]
    assert "It was discovered by chemists at the Osaka laboratories of Kitano Pharma. It is taken" in new
    assert "1996" not in new


def test_purge_cuts_a_closing_whose_clause():
    context = (
        "The Lantern Man is a 2016 superhero film set in Lisbon. Directed by Rui Falcão, it stars Tomas Reis as the "
        "masked vigilante, whose secret identity is the disgraced judge Afonso Mendes. The film was followed by a "
        "sequel in 2019 and a short-lived television series."
    )
    row = _row("what is the secret identity of the lantern man", ["Afonso Mendes"], context)
    new = _generate(row, tx.MISSING_INFO, tx.HIGH, PURGE)["perturbed_context"]
    assert "Directed by Rui Falcão, it stars Tomas Reis as the masked vigilante. The film" in new


@pytest.mark.parametrize("shared", ["co-written and recorded by", "written and sung by"])
def test_purge_never_leaves_a_participle_without_its_agent(shared):
    context = (
        f'"Harbour Wind" is a 1994 country song {shared} the American singer Dolores Kane. It was released as the '
        "second single from her album Gulf Lights and reached number four on the national country chart."
    )
    row = _row("who sings harbour wind", ["Dolores Kane"], context)
    try:
        new = _generate(row, tx.MISSING_INFO, tx.HIGH, PURGE)["perturbed_context"]
    except NotApplicable:
        return
    assert f"{shared.split()[0]}." not in new and "Kane" not in new


SINGLE = (
    '"Slate Harbour" is a single by the Welsh band Morfa, released on 4 May 1986. It reached number 14 on the UK '
    "Singles Chart. {last}"
)


@pytest.mark.parametrize(
    "last, declines",
    [
        ("In 2016 it was reissued on coloured vinyl for its thirtieth anniversary.", True),
        ("In 2016 it was reissued on coloured vinyl with two new remixes.", False),
    ],
)
def test_a_date_clash_declines_where_an_anniversary_gives_the_year_back(last, declines):
    row = _row("when did slate harbour come out", ["4 May 1986"], SINGLE.format(last=last))
    if declines:
        with pytest.raises(NotApplicable, match="ties the year"):
            _generate(row, tx.CONTRADICTION, tx.MEDIUM, "Dual-authoritative Dates")
    else:
        _generate(row, tx.CONTRADICTION, tx.MEDIUM, "Dual-authoritative Dates")


def test_the_agent_question_lowers_a_sentence_capital_the_of_the_name_it_copies():
    context = (
        "The Velado tree frog (Hyla veladensis) is a species of frog endemic to the cloud forests of northern Peru. "
        "It was discovered in 1991 by the Peruvian herpetologist Rosa Quispe Huamán near the village of Velado."
    )
    row = {**_row("who discovered the velado tree frog", ["Rosa Quispe Huamán"], context), "title": "Velado tree frog"}
    query = _generate(row, tx.FALSE_PREMISE, tx.HIGH, "Inanimate Agent Verb")["perturbed_query"]
    assert "discovered the Velado tree frog?" in query
