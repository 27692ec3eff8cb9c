"""Issue 7: the programmatic generator's output reads as clean English.

A property test over the oracle-pool items the other property tests generate (300 single-passage
and 150 multi-passage questions x 18 cells) and unit tests, one per defect seen in real output.
"""

from __future__ import annotations

import re

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.text import (
    embed,
    end_sentence,
    ends_sentence,
    is_abbreviation,
    normalise_space,
    split_sentences,
    starts_sentence,
)

_DOUBLE = re.compile(r"\b(\w+)\s+\1\b", re.I)
_A_AN = re.compile(r"\b(?:a|an)\s+(?:a|an)\b", re.I)
_LOWER_AFTER_STOP = re.compile(r"(\S+)\s+([a-z])")


def _doubles(text: str) -> set[str]:
    return {m.group(0).lower() for m in _DOUBLE.finditer(text)}


def english_problems(
    new: str, original: str, legit: str, corpus: str = "", corpus_doubles: frozenset = frozenset()
) -> list[str]:
    """What is wrong with a text we changed: `original` is the text it came from, `legit` (and the big
    `corpus` with its precomputed doubled words) the source text our output may quote, whose doubled
    words ("Sing Sing"), "an a cappella" and stops before lower case ("Millionaire? in") are not ours."""
    bad = []
    legit = normalise_space(legit)
    legit_low = legit.lower()
    for d in _doubles(new) - _doubles(legit) - corpus_doubles:
        bad.append(f"doubled word {d!r}")
    for m in _A_AN.finditer(new):
        if m.group(0).lower() not in legit_low and m.group(0).lower() not in corpus.lower():
            bad.append(f"article pair {m.group(0)!r}")
    if "  " in new or new != new.strip():
        bad.append("doubled or outer space")
    old_sents = split_sentences(original)
    old_set = set(old_sents)
    for i, s in enumerate(split_sentences(new)):
        if s in old_set or (i == 0 and old_sents and not starts_sentence(old_sents[0])):
            continue  # the source's own words, or a cut passage's opening fragment
        if not starts_sentence(s):
            bad.append(f"sentence starts in lower case: {s[:50]!r}")
    for m in _LOWER_AFTER_STOP.finditer(new):  # "170,664. society as a whole was ...": a start the splitter keeps
        token = m.group(1)
        if token.endswith((".", "!", "?")) and not is_abbreviation(token) and not re.search(r"\.\w", token):
            pair = f"{token} {m.group(2)}"
            if pair not in legit and pair not in corpus:
                bad.append(f"lower case after a full stop: {new[max(0, m.start() - 20) : m.end() + 15]!r}")
    if not ends_sentence(new):
        # only a cut passage may end without a stop, and then on its own (possibly edited) final fragment
        last, cut = split_sentences(new)[-1].split(), old_sents[-1].split() if old_sents else []
        if ends_sentence(original) or not cut or (last[0] != cut[0] and last[-1] != cut[-1]):
            bad.append(f"no terminal punctuation: ...{new[-40:]!r}")
    return bad


def _check_items(items: dict, multi: bool, corpus: str, corpus_doubles: frozenset) -> list[str]:
    failures = []
    for (cls, intensity), pairs in items.items():
        for row, out in pairs:
            if not out:
                continue
            before = row["passages"] if multi else [row["context"]]
            after = out["perturbed_passages"] if multi else [out["perturbed_context"]]
            title = row.get("title") or ""
            for old, new in zip(before, after):
                if new != old:
                    failures += [
                        f"{cls}/{intensity} {out['lever_selected']}: {p}"
                        for p in english_problems(new, old, old + " " + title, corpus, corpus_doubles)
                    ]
            if out["perturbed_query"] != row["query"]:
                legit = row["query"] + " " + " ".join(before) + " " + title
                failures += [
                    f"{cls}/{intensity} {out['lever_selected']} (query): {p}"
                    for p in english_problems(out["perturbed_query"], row["query"], legit)
                    if not p.startswith("sentence starts")
                ]
    return failures


@pytest.fixture(scope="module")
def all_sources(source_rows) -> tuple[str, frozenset]:
    """Every source passage and its doubled words (the unrelated-context lever brings in another question's passage)."""
    corpus = normalise_space(" ".join(r["context"] for r in source_rows))
    return corpus, frozenset(_doubles(corpus))


@pytest.mark.parametrize("multi", [False, True], ids=["single", "multi"])
def test_every_item_reads_as_clean_english(multi, single_items, multi_items, all_sources):
    failures = _check_items(multi_items if multi else single_items, multi, *all_sources)
    assert not failures, f"{len(failures)} problems, e.g.:\n" + "\n".join(failures[:15])


def test_the_english_check_catches_the_defects():
    orig = "Filming began in June 2017 in Chile. It ended."
    assert english_problems("Filming began in June 2017 in in Peru. It ended.", orig, orig)
    assert english_problems("It is a an epic. It ended.", orig, orig)
    assert english_problems("It ended. at 170,664. society as a whole was appointed.", orig, orig)
    assert english_problems("Filming began in June 2017 in Chile. it ended.", orig, orig)
    assert english_problems("Filming began in June 2017 in Chile. It ended", orig, orig)
    assert not english_problems("Filming began in June 2017 in Chile. Another source says Peru. It ended.", orig, orig)
    cut = "began in June 2017 in Chile. It ended in"
    assert not english_problems("began in June 2017 in Peru. It ended in", cut, cut)  # a cut passage stays cut


# -- unit tests, one per defect seen in real output ----------------------------------------------------------


def _pool(*rows: dict) -> DistractorPool:
    return DistractorPool.from_base(list(rows))


SOUTH_AMERICA = {
    "source_id": "sa",
    "query": "where was the film shot",
    "answers": ["in South America"],
    "context": "The film was shot in South America over two years.",
}
FILMING = {
    "source_id": "f",
    "query": "where was the movie filmed",
    "answers": ["Chile"],
    "context": "Principal photography began in June 2017 in Chile. The crew then moved on to Peru for the finale.",
}


def test_no_rival_place_is_drawn():
    # a drawn place is often of another kind or scale ("filmed in Germany" beside "Seattle, Washington")
    with pytest.raises(NotApplicable):
        generate_programmatic(FILMING, tx.CONTRADICTION, tx.MEDIUM, 0, _pool(FILMING, SOUTH_AMERICA))


BANQUO = {
    "source_id": "b",
    "query": "who is the character who is killed by macbeth's murderers",
    "answers": ["Banquo"],
    "title": "Banquo",
    "context": "Banquo /ˈbæŋkwoʊ/, the Thane of Lochaber, is a character in William Shakespeare's 1606 play Macbeth. "
    "In the play, he is at first an ally to Macbeth.",
}


def test_no_person_coarsening_before_an_appositive():
    with pytest.raises(NotApplicable):
        generate_programmatic(
            BANQUO, tx.GRANULARITY, tx.MEDIUM, 0, _pool(BANQUO), lever="Answer Stated One Level Coarser"
        )


LONELY = {
    "source_id": "l",
    "query": "who sang heaven on a cold night",
    "answers": ["Los Lonely Boys"],
    "context": '"Heaven" is the debut single of American rock band Los Lonely Boys. It was released in 2003.',
}


def test_no_person_coarsening_after_a_noun():
    with pytest.raises(NotApplicable):
        generate_programmatic(
            LONELY, tx.GRANULARITY, tx.MEDIUM, 0, _pool(LONELY), lever="Answer Stated One Level Coarser"
        )


def test_no_person_is_coarsened_to_a_role():
    row = {
        "source_id": "s",
        "query": "who wrote dracula",
        "answers": ["Bram Stoker"],
        "context": "Bram Stoker wrote Dracula in 1897. The novel made Stoker famous.",
    }
    pool = _pool(row)
    with pytest.raises(NotApplicable):  # "A writer wrote Dracula" deletes the answer: MissingInfo, not granularity
        generate_programmatic(row, tx.GRANULARITY, tx.MEDIUM, 0, pool, lever="Answer Stated One Level Coarser")


def test_no_coarsening_without_a_role_or_for_a_list_of_people():
    row = {
        "source_id": "w",
        "query": "who turned out to be the mother on how i met your mother",
        "answers": ["Tracy McConnell"],
        "context": "The show ran for years. Tracy McConnell is the title character of the show.",
    }
    with pytest.raises(NotApplicable):
        generate_programmatic(row, tx.GRANULARITY, tx.MEDIUM, 0, _pool(row), lever="Answer Stated One Level Coarser")
    runs = {
        "source_id": "r",
        "query": "who scored fastest 10000 runs in test cricket",
        "answers": ["Brian Lara", "Kumar Sangakkara"],
        "context": "Brian Lara took the fewest innings, later equalled by Kumar Sangakkara. Both were quick.",
    }
    with pytest.raises(NotApplicable):
        generate_programmatic(runs, tx.GRANULARITY, tx.MEDIUM, 0, _pool(runs), lever="Answer Stated One Level Coarser")


def test_year_used_as_a_modifier():
    row = {
        "source_id": "c",
        "query": "when was the movie cool hand luke made",
        "answers": ["1967"],
        "context": "Cool Hand Luke is a 1967 American prison drama film. It stars Paul Newman.",
    }
    pool = _pool(row)
    med = generate_programmatic(row, tx.GRANULARITY, tx.MEDIUM, 0, pool, lever="Answer Stated One Level Coarser")
    assert med["perturbed_context"].startswith("Cool Hand Luke is a 20th-century American prison drama film.")
    cup = {
        "source_id": "s",
        "query": "when did scotland last qualify for world cup",
        "answers": ["1998"],
        "context": "Scotland qualified for the 1998 FIFA World Cup. They went out early.",
    }
    with pytest.raises(NotApplicable):  # "the the 1990s FIFA World Cup"
        generate_programmatic(cup, tx.GRANULARITY, tx.MEDIUM, 0, _pool(cup), lever="Answer Stated One Level Coarser")


def test_no_substitution_inside_a_compound_or_for_a_common_noun():
    row = {
        "source_id": "l",
        "query": "what are the active materials of a lead acid battery",
        "answers": ["Lead"],
        "context": "In a Lead–acid battery the plates are made of lead. Lead sulfate forms on discharge.",
    }
    other = {
        "source_id": "n",
        "query": "what are the building blocks of dna",
        "answers": ["Nucleotides"],
        "context": "Nucleotides are the building blocks.",
    }
    pool = _pool(row, other)
    for cls, intensity in ((tx.CONTRADICTION, tx.MEDIUM), (tx.AMBIGUITY, tx.HIGH)):
        try:
            out = generate_programmatic(row, cls, intensity, 0, pool)
        except NotApplicable:
            continue
        assert "Nucleotides–acid" not in out["perturbed_context"]


def test_no_rival_phrase_is_drawn_even_from_a_fringe_source():
    row = {
        "source_id": "u",
        "query": "what kind of bone is the fibula",
        "answers": ["long bone"],
        "context": "The fibula is a long bone located beside the tibia. It is thin.",
    }
    other = {
        "source_id": "v",
        "query": "what kind of bone is the skull",
        "answers": ["irregular bone"],
        "context": "The skull contains an irregular bone.",
    }
    with pytest.raises(NotApplicable):  # a drawn phrase or person is often of the wrong kind, gender or era
        generate_programmatic(row, tx.CONTRADICTION, tx.LOW, 0, _pool(row, other), lever="Fringe vs. Official Source")
    with pytest.raises(NotApplicable):  # equal standing: numbers only
        generate_programmatic(
            row, tx.CONTRADICTION, tx.MEDIUM, 0, _pool(row, other), lever="Equal-standing Value Clash"
        )


def test_embedded_sentence_openers():
    row = {
        "source_id": "g",
        "query": "how many seasons of the glades were made",
        "answers": ["four"],
        "context": "A total of 49 episodes of The Glades were produced over four seasons. It ended in 2013.",
    }
    assert embed(row["context"].split(". ")[0]).startswith("a total of 49 episodes")


def test_no_double_full_stop_after_an_abbreviation():
    row = {
        "source_id": "k",
        "query": "who played bubba in the heat of the night",
        "answers": ["Carlos Alan Autry Jr."],
        "context": "Bubba was played by Carlos Alan Autry Jr. in every season. He was popular.",
    }
    with pytest.raises(NotApplicable):  # no bare "it was not Carlos Alan Autry Jr." denial any more
        generate_programmatic(row, tx.CONTRADICTION, tx.LOW, 0, _pool(row), lever="Fringe vs. Official Source")
    assert end_sentence("A fan insists it was Carlos Alan Autry Jr.") == "A fan insists it was Carlos Alan Autry Jr."


# -- distractors: same type, same kind, on topic ------------------------------------------------------------


def test_person_detector_rejects_non_people():
    for name in ("Sharecropping", "Americans", "Attorney General", "Austria-Hungary", "Stanton, Giancarlo", "Danish"):
        assert not at.person_name(name), name
    assert at.detect("Danish", "where does the last name andersen originate from") == at.OTHER
    assert at.detect("Americans", "who won the battle of saratoga") == at.OTHER
    for name in ("Heath Ledger", "J. R. R. Tolkien", "Prince", "Kareem Abdul-Jabbar"):
        assert at.person_name(name), name


def test_distractor_stays_on_topic_and_of_the_same_kind():
    base = [
        {
            "source_id": "1",
            "query": "who won the most mvp awards in the nba",
            "answers": ["Kareem Abdul-Jabbar"],
            "context": "Kareem Abdul-Jabbar won the award six times. He played center.",
        },
        {
            "source_id": "2",
            "query": "who has the most rebounds in nba history",
            "answers": ["Wilt Chamberlain"],
            "context": "Wilt Chamberlain holds the record. He played center.",
        },
        {
            "source_id": "3",
            "query": "who won the french open",
            "answers": ["Novak Djokovic"],
            "context": "Novak Djokovic won the title. He is Serbian.",
        },
        {
            "source_id": "4",
            "query": "who won the grammy for best rock album",
            "answers": ["Pink Floyd"],
            "context": "Pink Floyd were an English rock band formed in London.",
        },
    ]
    pool = _pool(*base)
    picks = {
        pool.pick(
            at.PERSON,
            "Kareem Abdul-Jabbar",
            __import__("random").Random(s),
            ["Kareem Abdul-Jabbar"],
            [base[0]["context"]],
            base[0]["query"],
        )
        for s in range(20)
    }
    assert picks == {"Wilt Chamberlain"}  # the other NBA answer, not the tennis player or the band
    assert pool.kinds["Pink Floyd"] == "group" and pool.kinds["Novak Djokovic"] == "individual"


def test_rival_dates_stay_near_the_real_one():
    old = {
        "source_id": "o",
        "query": "when was the first film released",
        "answers": ["January 11, 1923"],
        "context": "It was released on January 11, 1923.",
    }
    pool = _pool(old)
    value = pool.pick(at.DATE, "July 14, 2017", __import__("random").Random(0), ["July 14, 2017"])
    assert abs(at.parse_date(value).year - 2017) <= 3
