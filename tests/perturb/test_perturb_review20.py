"""Gates added after the twentieth blind review (texts no review had shown, seven cells):

- FalsePremise HIGH keeps no slip of the source question in its new one: a kind noun without its article
  ("wrote song ..."), a title after a noun that is not its kind ("wrote the music Phantom of the Opera"), an
  unquoted utterance after "said";
- Ambiguity MEDIUM/HIGH take no other work's lead with "in" before a day's date ("released in August 22, 1980").
"""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic
from refusalbench.perturb.levers_ambiguity_pair import PARAGRAPH
from tests.perturb.test_perturb_ambiguity_pair import LANTERN, TIDES, song

HYMN = {
    "source_id": "h",
    "query": "who wrote the song lantern hymn",
    "answers": ["Mara Quill"],
    "title": "Lantern Hymn",
    "context": '"Lantern Hymn" is a song written by Mara Quill. It was first sung in a harbour chapel.',
}


def _high(row: dict) -> dict:
    pool = DistractorPool.from_base([row])
    return generate_programmatic(row, tx.FALSE_PREMISE, tx.HIGH, 0, pool, lever="Inanimate Agent Verb")


def test_inanimate_agent_keeps_the_article_before_the_kind():
    assert _high(HYMN)["perturbed_query"].endswith(' wrote the song "Lantern Hymn"?')
    with pytest.raises(NotApplicable, match="without an article"):
        _high(dict(HYMN, query="who wrote song lantern hymn"))


def test_inanimate_agent_declines_a_title_after_a_noun_that_is_not_its_kind():
    row = dict(HYMN, query="who wrote the music lantern hymn", title="Harbour Chapel")
    row["context"] = "The Harbour Chapel stands on the quay. Mara Quill wrote the music for Lantern Hymn there."
    with pytest.raises(NotApplicable, match="not its kind"):
        _high(row)


def test_inanimate_agent_declines_an_utterance():
    row = dict(HYMN, query="who said the lantern is lit", title="Mara Quill")
    row["context"] = "Mara Quill was a poet. She said that the lantern is lit for every ship."
    with pytest.raises(NotApplicable, match="utterance"):
        _high(row)


def test_a_lead_with_in_before_a_day_s_date_is_no_companion():
    slip = song("s9", "Copper Sky", "Ilse Brandt", "1991", tail=" It was released in August 22, 1991.")
    for other, companions in ((slip, 0), (TIDES, 1)):
        pool = DistractorPool.from_base([LANTERN, other])
        if companions:
            out = generate_programmatic(LANTERN, tx.AMBIGUITY, tx.MEDIUM, 0, pool)
            assert len(out["perturbed_context"].split(PARAGRAPH)) == 2
        else:
            with pytest.raises(NotApplicable, match="fewer than 1"):
                generate_programmatic(LANTERN, tx.AMBIGUITY, tx.MEDIUM, 0, pool)
