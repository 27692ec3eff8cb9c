"""The applicability gates added after the blind review: each declines the bad case and accepts the good one."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic
from refusalbench.perturb.subject import work_subject
from refusalbench.perturb.text import embed

ROAD = {
    "source_id": "road",
    "query": "who sang holiday road",
    "answers": ["Lindsey Buckingham"],
    "title": "Holiday Road",
    "context": '"Holiday Road" is a 1983 song by Lindsey Buckingham. It was written for the film Vacation.',
}
ACTOR = {
    "source_id": "actor",
    "query": "who played the face in the a team",
    "answers": ["Dirk Benedict"],
    "title": "Dirk Benedict",
    "context": "Dirk Benedict is an American film actor. He played Templeton Peck in The A-Team.",
}
OPENING = {
    "source_id": "open",
    "query": "when did the movie breakfast club come out",
    "answers": ["February 15, 1985"],
    "title": "The Breakfast Club",
    "context": "The Breakfast Club is an American comedy-drama film. It was released on February 15, 1985 in cinemas.",
}
POOL = DistractorPool.from_base([ROAD, ACTOR, OPENING])


def gen(row, cls, intensity, lever=None):
    return generate_programmatic(row, cls, intensity, 0, POOL, lever=lever)


def test_work_subject_reads_the_opening_sentence_only_for_works():
    song = work_subject(ROAD["context"], ROAD["title"])
    assert (song.name, song.kind, song.year) == ("Holiday Road", "song", 1983)
    assert work_subject(ACTOR["context"], ACTOR["title"]) is None  # "a film actor" is a person
    assert work_subject(ROAD["context"], "Vacation (film)") is None  # the opening names another subject


SONG = 'the song "{name}"'
NAMES = (
    "Holiday Road",
    "Summer Rain",
    "Paper Kites",
    "Silver Days",
    "Night Train",
    "Blue Hour",
    "Glass Moon",
    "Cold Fire",
)


def _renamed(name: str) -> dict:
    return {
        k: v.replace("Holiday Road", name).replace("holiday road", name.lower()) if isinstance(v, str) else v
        for k, v in ROAD.items()
    }


@pytest.mark.parametrize(
    "intensity, lever, forms",
    [
        (
            tx.HIGH,
            "Most Beautiful Aspect",
            {
                f"What is the most beautiful aspect of {SONG}?",
                f"What is the most beautiful thing about {SONG}?",
                f"Which part of {SONG} is the most beautiful?",
            },
        ),
        (
            tx.HIGH,
            "Historical Counterfactual Chain",
            {
                f"If {SONG} had never been written, how would popular music have developed since then?",
                f"How would popular music have developed if {SONG} had never been written?",
                f"Had {SONG} never been written, how would popular music look today?",
            },
        ),
        (
            tx.MEDIUM,
            "Forecast without Model",
            {
                f"Will {SONG} still be widely known fifty years from now?",
                f"Will {SONG} still be remembered a century from now?",
                f"Fifty years from now, will {SONG} still be widely known?",
            },
        ),
        (
            tx.MEDIUM,
            "Quality Ranking without Benchmark",
            {
                f"Is {SONG} better than the other songs of 1983?",
                f"Does {SONG} rank above the other songs of 1983?",
            },
        ),
    ],
)
def test_epistemic_questions_ask_about_the_passage_work(intensity, lever, forms):
    # the wording is drawn by the work, so that no one question form marks the refusals: over a few works, each shows
    asked = set()
    for name in NAMES:
        query = gen(_renamed(name), tx.EPISTEMIC, intensity, lever)["perturbed_query"]
        assert query in {f.format(name=name) for f in forms}
        asked.add(query.replace(name, "{name}"))
    assert asked == forms
    with pytest.raises(NotApplicable):  # a person: no kind of work to judge, and no fixed frame instead
        gen(ACTOR, tx.EPISTEMIC, intensity, lever)


def test_no_ranking_question_where_the_passage_gives_a_chart_position():
    # the forty-first review's R004 and R021: "rank above the other songs" read as a chart question answered by it
    charted = dict(ROAD, context=ROAD["context"] + " It peaked at number 82 on the Billboard Hot 100.")
    with pytest.raises(NotApplicable):
        gen(charted, tx.EPISTEMIC, tx.MEDIUM, "Quality Ranking without Benchmark")


def test_two_questions_about_one_work_get_one_wording():
    # so that the check stage still sees the two items as one (their texts are the same)
    other = dict(ROAD, source_id="road-2")
    for lever in ("Most Beautiful Aspect", "Forecast without Model", "Quality Ranking without Benchmark"):
        intensity = tx.HIGH if lever == "Most Beautiful Aspect" else tx.MEDIUM
        assert (
            gen(ROAD, tx.EPISTEMIC, intensity, lever)["perturbed_query"]
            == (gen(other, tx.EPISTEMIC, intensity, lever)["perturbed_query"])
        )


def test_no_fixed_opinion_frame_at_epistemic_low():
    with pytest.raises(NotApplicable):  # was "In your view, who sang holiday road?"
        gen(ROAD, tx.EPISTEMIC, tx.LOW)
    hit = dict(ROAD, context=ROAD["context"] + " It reached number one in Canada.")
    out = gen(hit, tx.EPISTEMIC, tx.LOW)
    assert out["perturbed_query"] == 'Was "Holiday Road" a hit song, and who sang it?'


def test_false_premise_low_misdates_the_work_in_a_name_slot_only():
    out = gen(ROAD, tx.FALSE_PREMISE, tx.LOW)
    assert out["lever_selected"] == "Mis-dated Discovery"
    year = int(out["perturbed_query"].split()[3])
    assert out["perturbed_query"] == f'Who sang the {year} song "Holiday Road"?' and 1 < abs(year - 1983) <= 3
    lyrics = dict(ROAD, query="who sings holiday road lyrics")
    with pytest.raises(NotApplicable):  # "the 1985 song holiday road lyrics"
        gen(lyrics, tx.FALSE_PREMISE, tx.LOW)
    with pytest.raises(NotApplicable):  # was "As of 1994, who sang ...": a nominal time frame
        gen(ACTOR, tx.FALSE_PREMISE, tx.LOW)


def test_granularity_levels():
    with pytest.raises(
        NotApplicable, match="bare year"
    ):  # "In what year ...?": the year alone is scored against the full date
        gen(OPENING, tx.GRANULARITY, tx.LOW)
    med = gen(OPENING, tx.GRANULARITY, tx.MEDIUM)
    assert "released in the 1980s in cinemas" in med["perturbed_context"]
    with pytest.raises(NotApplicable):  # the HIGH lever asks the world's average of a count, not of a date
        gen(OPENING, tx.GRANULARITY, tx.HIGH)
    with pytest.raises(NotApplicable):  # no "Broadly speaking, who ...?" on other questions
        gen(ROAD, tx.GRANULARITY, tx.LOW)
    place = {
        "source_id": "pl",
        "query": "where was the movie filmed",
        "answers": ["Covington, Kentucky"],
        "context": "The film was shot in Covington, Kentucky over six weeks.",
    }
    with pytest.raises(NotApplicable):  # "Kentucky" still answers "where"
        generate_programmatic(place, tx.GRANULARITY, tx.MEDIUM, 0, DistractorPool.from_base([place]))


# ("291", False) since the sixth blind review: no figure is put as a range ("between 600 and 700 stores" still
# implied a gold "more than 600", "between $1 and $2 trillion" was one step); it was ("291", True) before
@pytest.mark.parametrize("figure, ok", [("62", False), ("291", False)])
def test_granularity_medium_range_needs_three_digits(figure, ok):
    row = {
        "source_id": f"n{figure}",
        "query": "how many episodes are there in the show",
        "answers": [figure],
        "context": f"The show ran for {figure} episodes over nine years.",
    }
    pool = DistractorPool.from_base([row])
    if ok:
        out = generate_programmatic(row, tx.GRANULARITY, tx.MEDIUM, 0, pool)
        assert "ran for between 200 and 300 episodes" in out["perturbed_context"]
    else:  # "between 60 and 70" is one level, too weak for MEDIUM
        with pytest.raises(NotApplicable):
            generate_programmatic(row, tx.GRANULARITY, tx.MEDIUM, 0, pool)


def test_contradiction_needs_a_short_plain_answer_sentence():
    plain = {
        "source_id": "c1",
        "query": "when does the new season start",
        "answers": ["September 19, 2017"],
        "context": "The new season premiered on September 19, 2017. It has ten episodes.",
    }
    out = generate_programmatic(plain, tx.CONTRADICTION, tx.MEDIUM, 0, DistractorPool.from_base([plain]))
    added = out["perturbed_context"].split("It has")[0]
    assert "that the new season premiered on September 19, 20" in added and "2017." in added
    busy = dict(
        plain,
        source_id="c2",
        context="On July 22, 2017, the network announced that the new season premiered on September 19, 2017. "
        "It has ten episodes.",
    )
    with pytest.raises(NotApplicable):  # a copied "announced on July 22, 2017" beside a shifted year is nonsense
        generate_programmatic(busy, tx.CONTRADICTION, tx.MEDIUM, 0, DistractorPool.from_base([busy]))


def test_embedded_sentence_keeps_title_capitals():
    assert embed("It Happened in Boston is a film.", frozenset({"it"}), ("It Happened in Boston",)).startswith("It ")


@pytest.mark.parametrize(
    "query, ok",
    [
        ("who sang holiday road first", True),
        ("who sang holiday road", False),  # "Who sang it?": too little of the question is left
        ("who sings holiday road by the eagles", False),  # "who sings it by the eagles"
        ("when do the new episodes of holiday road start", False),  # "the new episodes of it"
    ],
)
def test_ambiguity_pronoun_stands_for_the_whole_name_only(query, ok):
    row = dict(ROAD, query=query)
    if ok:
        assert gen(row, tx.AMBIGUITY, tx.LOW)["perturbed_query"] == "Who sang it first?"
    else:
        with pytest.raises(NotApplicable):
            gen(row, tx.AMBIGUITY, tx.LOW)


@pytest.mark.parametrize(
    "side, ok",
    [
        ("Construction of the bridge ended in 1997.", False),  # "claims that Construction of the bridge"
        ("The bridge was opened by Jean Chrétien in 1997.", True),
    ],
)
def test_embedded_sentence_keeps_no_stray_capital(side, ok):
    row = {"source_id": "b", "query": "when was the bridge opened", "answers": ["1997"], "context": side}
    pool = DistractorPool.from_base([row])
    if ok:
        out = generate_programmatic(row, tx.CONTRADICTION, tx.LOW, 0, pool, lever="Fringe vs. Official Source")
        assert "that the bridge was opened by Jean Chrétien in 19" in out["perturbed_context"]
    else:
        with pytest.raises(NotApplicable):
            generate_programmatic(row, tx.CONTRADICTION, tx.LOW, 0, pool, lever="Fringe vs. Official Source")


@pytest.mark.parametrize(
    "query, title",
    [
        ("who won the battle of stirling bridge 1297", "Battle of Stirling Bridge"),  # "Who won it 1297?"
        ("who wrote the song to make you feel my love", "Make You Feel My Love"),  # "the song to it"
        ("who sings i'm going to soak up the sun", "Soak Up the Sun"),  # "who sings i'm going to it"
    ],
)
def test_ambiguity_pronoun_declines_a_name_with_leftovers(query, title):
    row = {
        "source_id": "amb",
        "query": query,
        "answers": ["Bob Dylan"],
        "title": title,
        "context": f"{title} is a thing made by Bob Dylan. It was widely discussed.",
    }
    with pytest.raises(NotApplicable):
        generate_programmatic(row, tx.AMBIGUITY, tx.LOW, 0, DistractorPool.from_base([row]))


def test_no_restatement_of_a_hedged_sentence_or_century_boundary():
    hedged = {
        "source_id": "h",
        "query": "when was the play first performed",
        "answers": ["1603"],
        "context": "The first performance is uncertain, though one in 1603 has been suggested. It is a comedy.",
    }
    for cls in (tx.CONTRADICTION, tx.FALSE_PREMISE):
        with pytest.raises(NotApplicable):
            generate_programmatic(hedged, cls, tx.MEDIUM, 0, DistractorPool.from_base([hedged]))
    boundary = {
        "source_id": "y",
        "query": "when was the seat moved to the capitol",
        "answers": ["1800"],
        "context": "The seat of government was moved to the Capitol in 1800 by an act of Congress.",
    }
    with pytest.raises(NotApplicable):  # "the 18th century" for 1800 reads as wrong to many
        generate_programmatic(boundary, tx.GRANULARITY, tx.MEDIUM, 0, DistractorPool.from_base([boundary]))
    ok = dict(boundary, answers=["1801"], context=boundary["context"].replace("1800", "1801"))
    out = generate_programmatic(ok, tx.GRANULARITY, tx.MEDIUM, 0, DistractorPool.from_base([ok]))
    assert "to the Capitol in the 19th century by" in out["perturbed_context"]


def test_quality_ranking_plural_of_series():
    row = {
        "source_id": "s",
        "query": "who created the suite life of zack and cody",
        "answers": ["Danny Kallis"],
        "title": "The Suite Life of Zack & Cody",
        "context": "The Suite Life of Zack & Cody is an American sitcom created by Danny Kallis. It aired on Disney.",
    }
    out = generate_programmatic(
        row, tx.EPISTEMIC, tx.MEDIUM, 0, DistractorPool.from_base([row]), lever="Quality Ranking without Benchmark"
    )
    query = out["perturbed_query"]
    assert query.startswith(('Is the series "The Suite Life of Zack & Cody"', 'Does the series "The Suite Life'))
    assert query.endswith(" series of its time?") and "seriess" not in query


def test_ambiguity_pronoun_declines_a_trailing_name():
    row = dict(
        ROAD,
        query="when did holiday road come out lindsey buckingham",
        answers=["1983"],
        context='"Holiday Road" is a song by Lindsey Buckingham. It came out in 1983.',
    )
    with pytest.raises(NotApplicable):  # "When did it come out lindsey buckingham?"
        gen(row, tx.AMBIGUITY, tx.LOW)
    plain = dict(row, query="when did holiday road come out")
    assert gen(plain, tx.AMBIGUITY, tx.LOW)["perturbed_query"] == "When did it come out?"


def _lever(row, cls, intensity, lever):
    return generate_programmatic(row, cls, intensity, 0, DistractorPool.from_base([row]), lever=lever)


def test_granularity_low_takes_no_count():
    row = {
        "source_id": "rq",
        "query": "how many arches does the bridge have",
        "answers": ["38"],
        "context": "The old bridge has 38 arches. It was built of stone.",
    }
    # "Roughly how many arches ...?" of an exact 38: a nominal gap (blind review: 4 of 7 borderline); LOW asks
    # only the year of a dated event
    with pytest.raises(NotApplicable, match="does not ask 'when"):
        _lever(row, tx.GRANULARITY, tx.LOW, None)


@pytest.mark.parametrize("before", ["all", "these", "the"])
def test_range_declines_a_count_after_a_determiner(before):
    row = {
        "source_id": "rd",
        "query": "how many episodes of the show were made",
        "answers": ["250"],
        "context": f"The show was cancelled in its fifth season, although {before} 250 episodes were later broadcast.",
    }
    with pytest.raises(NotApplicable):  # "although all between 200 and 300 episodes"
        _lever(row, tx.GRANULARITY, tx.MEDIUM, "Answer Stated One Level Coarser")


def test_decade_declines_when_the_passage_states_the_year_elsewhere():
    row = {
        "source_id": "dy",
        "query": "when was the album released",
        "answers": ["April 3, 1975"],
        "context": "In 1975 the band toured Europe. The album was released on April 3, 1975 in London.",
    }
    with pytest.raises(NotApplicable):  # "In 1975 ... released in the 1970s" still gives the year
        _lever(row, tx.GRANULARITY, tx.MEDIUM, "Answer Stated One Level Coarser")
    alone = dict(row, context="The band toured Europe. The album was released on April 3, 1975 in London.")
    out = _lever(alone, tx.GRANULARITY, tx.MEDIUM, "Answer Stated One Level Coarser")
    assert "released in the 1970s in London" in out["perturbed_context"]


@pytest.mark.parametrize("lever", ["Strip Non-queried Statistic", "Non-answer Sentence Deletion"])
def test_sentence_deletion_keeps_the_only_link_to_the_subject(lever):
    linked = {
        "source_id": "sl",
        "query": "which horse won the 1973 derby",
        "answers": ["Secretariat"],
        "context": "Racing is popular in spring. The 1973 derby drew 134,476 people. The winner was Secretariat.",
    }
    with pytest.raises(NotApplicable):  # the deleted sentence alone ties "the 1973 derby" to "the winner"
        _lever(linked, tx.MISSING_INFO, tx.LOW, lever)
    side = dict(
        linked,
        context="Secretariat won the 1973 derby. The race drew 134,476 people. Sham finished second.",
    )
    out = _lever(side, tx.MISSING_INFO, tx.LOW, lever)
    assert out["perturbed_context"].startswith("Secretariat won the 1973 derby.")
    assert "134,476" not in out["perturbed_context"] or "Sham" not in out["perturbed_context"]


@pytest.mark.parametrize(
    "sentence",
    ["Christmas 2009 was a white Christmas in Britain.", "The Punishment Act, 2009 is an act of Britain."],
)
def test_century_declines_a_year_that_follows_a_name(sentence):
    row = {
        "source_id": "yn",
        "query": "when did it happen in britain",
        "answers": ["2009"],
        "context": f"{sentence} It was noted.",
    }
    # "Christmas the 21st century", "the Punishment Act, the 21st century"
    with pytest.raises(NotApplicable, match="follows a name"):
        _lever(row, tx.GRANULARITY, tx.MEDIUM, "Answer Stated One Level Coarser")
    ok = dict(row, context="The snow fell in 2009 across Britain. It was noted.")
    assert (
        "in the 21st century across"
        in _lever(ok, tx.GRANULARITY, tx.MEDIUM, "Answer Stated One Level Coarser")["perturbed_context"]
    )


RELEASED = {
    "source_id": "released",
    "query": "who sings that aint no way to go",
    "answers": ["Brooks & Dunn"],
    "title": "That Ain't No Way To Go",
    "context": '"That Ain\'t No Way To Go" is a song recorded by American country music duo Brooks & Dunn. '
    "It was released in March 1994 as the fifth single from their album Hard Workin' Man.",
}


@pytest.mark.parametrize(
    "title, context, query",
    [
        (RELEASED["title"], RELEASED["context"], 'Why was the song "That Ain\'t No Way To Go" never released?'),
        (
            "To Kill a Mockingbird",
            "To Kill a Mockingbird is a novel by Harper Lee published in 1960. It was an immediate success.",
            'Why was the novel "To Kill a Mockingbird" never published?',
        ),
        (
            "American Idol",
            "American Idol is an American singing competition television series created by Simon Fuller. "
            "It initially aired on Fox from June 11, 2002 to April 7, 2016 for 15 seasons.",
            'Why did the series "American Idol" never air?',
        ),
        (
            "Push It",
            '"Push It" is a song by the group Salt-n-Pepa from the album Hot, Cool & Vicious. '
            "The song was released as a single in 1988.",
            'Why was the song "Push It" never released?',
        ),
    ],
)
def test_false_premise_medium_asks_why_a_released_work_never_was(title, context, query):
    # the question's answer stated in the passage (else the source gate declines it for every lever)
    answer = {"To Kill a Mockingbird": "Harper Lee", "American Idol": "Simon Fuller", "Push It": "Salt-n-Pepa"}
    row = dict(RELEASED, title=title, context=context, answers=[answer.get(title, "Brooks & Dunn")])
    row["query"] = f"who made {title.lower()}" if title in answer else row["query"]
    out = gen(row, tx.FALSE_PREMISE, tx.MEDIUM)
    assert out["lever_selected"] == "Stopped vs. Never Started"
    assert out["perturbed_query"] == query and out["perturbed_context"] == context


@pytest.mark.parametrize(
    "context",
    [
        ROAD["context"],  # "a 1983 song" dates the work but does not say it was released
        # "It" could be the album the opening names
        '"Holiday Road" is a song from the album Vacation by Lindsey Buckingham. It was released in 1983.',
        # "released" may belong to the album or to another track, not the work
        '"Holiday Road" is a song by Lindsey Buckingham from the album Vacation, released in 1983.',
        '"Holiday Road" is a song from a film whose title track, released in 1983, was a hit.',
        # the released thing is another version, not the work
        '"Holiday Road" is a song by Lindsey Buckingham. A cover version by Jim Ray was released in 1995.',
        # partly unreleased: "never released" would be half true
        '"Holiday Road" is a song by Lindsey Buckingham. It was released in 1983 but never released in Japan.',
        # a release still to come
        '"Holiday Road" is a song by Lindsey Buckingham. It is scheduled to be released in 2018.',
        # no year: "was released" alone may report a plan ("was released to radio stations")
        '"Holiday Road" is a song by Lindsey Buckingham. It was released as a single.',
    ],
)
def test_false_premise_medium_declines_without_a_plain_release_of_the_work(context):
    with pytest.raises(NotApplicable):
        gen(dict(ROAD, context=context), tx.FALSE_PREMISE, tx.MEDIUM)


def test_false_premise_medium_declines_a_person_and_multi_passage_items():
    with pytest.raises(NotApplicable):
        gen(ACTOR, tx.FALSE_PREMISE, tx.MEDIUM)
    multi = dict(RELEASED, passages=[RELEASED["context"], ACTOR["context"]], signal_indices=[0], noise_indices=[1])
    del multi["context"]
    with pytest.raises(NotApplicable):
        generate_programmatic(multi, tx.FALSE_PREMISE, tx.MEDIUM, 0, POOL, multi_passage=True)
