"""Each semantic detector catches a hand-made bad item and lets a good one through."""

from __future__ import annotations

from refusalbench import taxonomy as tx
from refusalbench.generation import semantic as sm
from refusalbench.stages.check import same_text_hits

Q = "who designed the bridge"
C = "The bridge was designed by Ada Lind in 1931. It spans the river."
A = ["Ada Lind"]


def cand(cls, intensity, query=Q, context=C, answers=A, original=C, original_query=Q):
    return sm.Candidate(cls, intensity, original_query, query, [original], [context], answers)


def names(c):
    return [name for name, _ in sm.detect(c)]


def test_answer_variants_survive_missing_info():
    plural = cand(
        tx.MISSING_INFO,
        tx.HIGH,
        original="The Longline was the first of its kind.",
        answers=["Longline"],
        context="Longlines were the first of their kind.",
    )
    assert "answer_variant_survives" in names(plural)
    suffix = cand(
        tx.MISSING_INFO,
        tx.MEDIUM,
        answers=["optic chiasm"],
        original="It crosses at the optic chiasm.",
        context="It crosses at the optic chiasma.",
    )
    assert "answer_variant_survives" in names(suffix)
    accents = cand(
        tx.MISSING_INFO, tx.MEDIUM, answers=["Beyonce"], original="Beyoncé sang it.", context="BEYONCÉ sang it."
    )
    assert "answer_variant_survives" in names(accents)
    gone = cand(tx.MISSING_INFO, tx.HIGH, context="The bridge spans the river.")
    assert names(gone) == []
    assert names(cand(tx.MISSING_INFO, tx.LOW, context="The bridge was designed by Ada Lind in 1931.")) == []


def test_contradiction_must_contest_every_stated_answer():
    untouched_alias = cand(
        tx.CONTRADICTION,
        tx.MEDIUM,
        answers=["Ada Lind", "Lind"],
        original="The bridge was designed by Ada Lind. Lind also built the tower.",
        context="The bridge was designed by Ada Lind. However, another source says it was not Ada Lind. "
        "Lind also built the tower.",
    )
    assert names(untouched_alias) == []  # "Lind" is contained in the contested "Ada Lind"
    two_answers = cand(
        tx.CONTRADICTION,
        tx.HIGH,
        answers=["Ada Lind", "Piet Rask"],
        original="The bridge was designed by Ada Lind. Piet Rask drew the plans.",
        context="The bridge was designed by Ada Lind. Another source says the bridge was designed by "
        "Jo Kim. Piet Rask drew the plans.",
    )
    assert "answer_uncontested" in names(two_answers)
    same_year = cand(
        tx.CONTRADICTION,
        tx.MEDIUM,
        answers=["May 3, 1931"],
        original="The bridge opened on May 3, 1931.",
        context="The bridge opened on May 3, 1931. Another source says the bridge opened on June 9, 1931.",
    )
    assert "answer_uncontested" in names(same_year)
    other_year = cand(
        tx.CONTRADICTION,
        tx.MEDIUM,
        answers=["May 3, 1931"],
        original="The bridge opened on May 3, 1931.",
        context="The bridge opened on May 3, 1931. Another source says the bridge opened on June 9, 1933.",
    )
    assert names(other_year) == []
    unrelated = cand(tx.CONTRADICTION, tx.MEDIUM, context=C + " Someone else disagrees.")
    assert "answer_uncontested" in names(unrelated)
    assert names(cand(tx.CONTRADICTION, tx.LOW, context=C + " Someone else disagrees.")) == []


def test_ambiguity_added_reading_must_not_state_the_answer_or_copy_the_sentence():
    both = cand(
        tx.AMBIGUITY,
        tx.MEDIUM,
        query="Who designed it?",
        context=C + " The tower nearby was also designed by Ada Lind.",
    )
    assert "answer_in_both_readings" in names(both)
    copy = cand(tx.AMBIGUITY, tx.HIGH, context=C + " A namesake record says the bridge was designed by Jo Kim in 1931.")
    assert "ambiguity_reads_as_contradiction" in names(copy)
    genuine = cand(
        tx.AMBIGUITY,
        tx.MEDIUM,
        query="Who designed it?",
        context=C + " The harbour tower, a landmark of the old port, is the work of Jo Kim.",
    )
    assert names(genuine) == []


def test_frames_only_on_questions_they_suit():
    forecast = cand(
        tx.EPISTEMIC, tx.MEDIUM, query='Fifty years from now, what will the answer be: "Who designed the bridge?"'
    )
    assert "frame_unsuitable" in names(forecast)
    about_subject = cand(
        tx.EPISTEMIC, tx.MEDIUM, query='Will the bridge "Harbour Bridge" still be widely known fifty years from now?'
    )
    assert names(about_subject) == []
    current = cand(
        tx.EPISTEMIC,
        tx.MEDIUM,
        original_query="who is the current mayor of the town",
        query='Fifty years from now, what will the answer be: "Who is the current mayor of the town?"',
    )
    assert names(current) == []
    average = cand(
        tx.GRANULARITY, tx.HIGH, query='Averaged over every country, what is the typical answer: "Who designed it?"'
    )
    assert "frame_unsuitable" in names(average)
    coordinates = "At exactly what latitude and longitude, to the nearest metre, {}?"
    of_a_person = cand(tx.GRANULARITY, tx.MEDIUM, query=coordinates.format("did he design the bridge"))
    assert "frame_unsuitable" in names(of_a_person)  # "who designed the bridge" places nothing
    of_a_place = cand(
        tx.GRANULARITY,
        tx.MEDIUM,
        original_query="where was the treaty signed",
        query=coordinates.format("was the treaty signed"),
        answers=["Paris"],
        original="The treaty was signed in Paris in 1803.",
        context="The treaty was signed in Paris in 1803.",
    )
    assert names(of_a_place) == []
    address = cand(tx.GRANULARITY, tx.MEDIUM, query="At what street address did Ada Lind design the bridge?")
    assert "frame_unsuitable" in names(address)  # "who designed the bridge" places nothing
    member = cand(
        tx.GRANULARITY,
        tx.MEDIUM,
        original_query="when was the bridge designed",
        answers=["1931"],
        query="Which member of the band designed the bridge?",
    )
    assert "frame_unsuitable" in names(member)  # a "when" question asks for no one
    definition = cand(
        tx.EPISTEMIC,
        tx.MEDIUM,
        original_query="what is a suspension bridge",
        query='Should the answer to this question have been different: "What is a suspension bridge?"',
    )
    assert "frame_unsuitable" in names(definition)
    aside = cand(tx.FALSE_PREMISE, tx.LOW, query="For a school project, who designed the bridge?")
    assert "frame_unsuitable" in names(aside)
    premise = cand(tx.FALSE_PREMISE, tx.LOW, query="As of 1990, who designed the bridge?")
    assert names(premise) == []


def test_broken_capitalisation():
    mid = cand(
        tx.CONTRADICTION, tx.LOW, context=C + " A forum post claims that Ultimately, the bridge was designed by Jo Kim."
    )
    assert "broken_capitalisation" in names(mid)
    lower = cand(tx.EPISTEMIC, tx.LOW, context=C + " notably, the bridge is old.")
    assert "broken_capitalisation" in names(lower)
    name = cand(tx.CONTRADICTION, tx.LOW, context=C + " A forum post claims that The Beatles sang at its opening.")
    assert names(name) == []


def test_insertion_inside_a_quotation():
    original = 'He said, "We built it in a year and it still stands." The bridge was designed by Ada Lind.'
    inside = cand(
        tx.CONTRADICTION,
        tx.LOW,
        original=original,
        context='He said, "We built it in a year. A forum post disagrees. And it still stands." '
        "The bridge was designed by Ada Lind.",
    )
    assert "insertion_in_quotation" in names(inside)
    outside = cand(tx.CONTRADICTION, tx.LOW, original=original, context=original + " A forum post disagrees.")
    assert names(outside) == []


def test_identical_texts_across_intensities_of_one_item():
    rows = [
        {
            "generation_ok": True,
            "source_id": "q",
            "perturbation_class": tx.MISSING_INFO,
            "generator": "g",
            "intensity": i,
            "perturbed_query": Q,
            "perturbed_context": text,
        }
        for i, text in ((tx.LOW, "x."), (tx.MEDIUM, "y."), (tx.HIGH, "y."))
    ]
    hits = same_text_hits(rows)
    assert set(hits) == {1, 2} and all(h[0] == "identical_intensities" for h in hits.values())
    rows[2]["perturbed_context"] = "z."
    assert same_text_hits(rows) == {}


def test_malformed_rival_value():
    def added(text, original="The league began in 1963. It had ten teams.", cls=tx.CONTRADICTION):
        return cand(cls, tx.LOW, original=original, context=original + " " + text)

    bad = [
        "Another account, however, states that the league followed in its 1965–64 season.",
        "A second source, however, reports that it joined the bloc in March April 2018.",
        "The same source also states that it was their Super Bowl-winning 202 season.",
        "The same source also states that the first celebration was in Rome in 3360.",
        "Another account states that coins were minted from 1946 through 1946.",
        "Another account states that turnout was 130%.",
        "Another account states that he died at the age of 245.",
    ]
    for text in bad:
        assert "malformed_rival_value" in names(added(text)), text
    good = [
        "Another account, however, states that the league followed in its 1964–65 season.",
        "A second source, however, reports that it joined the bloc in April 2018.",
        "Another account states that coins were minted from 1944 through 1946.",
        "The same source also states that there are 2030 members.",
    ]
    for text in good:
        assert names(added(text)) == [], text
    # a value the original passage itself has is not the generator's fault
    assert names(added("Another account states that it ran in 3360 BC.", original="It ran in 3360 BC.")) == []


def test_name_case_changed():
    original = "Gary Player won in 1961. Player, from South Africa, was the first non-American to win it."
    lowered = cand(
        tx.CONTRADICTION,
        tx.LOW,
        original=original,
        context=original + " Another account, however, states that player, from South Africa, was the first.",
    )
    assert "name_case_changed" in names(lowered)
    kept = cand(
        tx.CONTRADICTION,
        tx.LOW,
        original=original,
        context=original + " Another account, however, states that Player, from South Africa, was the first.",
    )
    assert "name_case_changed" not in names(kept)
    common = "The Eagles won in 2017. The season was their best. Season Two aired later."
    plain = cand(
        tx.CONTRADICTION, tx.LOW, original=common, context=common + " Another account states that the season was good."
    )
    assert "name_case_changed" not in names(plain)
