"""The deletion detectors catch a hand-made bad item and let a good one through."""

from __future__ import annotations

from refusalbench import taxonomy as tx
from refusalbench.generation import semantic as sm

BASU = (
    "Jyotirindra Basu, known as Jyoti Basu, was an Indian politician from West Bengal. "
    "He served as the Chief Minister of West Bengal from 1977 to 2000, the longest-serving in the country. "
    "Basu was a member of the CPI(M) Politburo until 2008."
)
QUERY = "who is the longest serving chief minister in india"


def names(original: str, perturbed: str, answers, cls=tx.MISSING_INFO, intensity=tx.MEDIUM, query=QUERY):
    c = sm.Candidate(cls, intensity, query, query, [original], [perturbed], answers)
    return [name for name, _ in sm.detect(c)]


def test_a_surname_left_after_the_answer_was_cut():
    cut = BASU.split(". ", 1)[1]  # the first sentence gone, "Basu was a member ..." left
    assert "answer_name_word_survives" in names(BASU, cut, ["Jyotirindra Basu"])
    assert "answer_name_word_survives" in names(BASU, cut, ["Jyotirindra Basu"], intensity=tx.HIGH)
    gone = "The Chief Minister of West Bengal served from 1977 to 2000. The party was formed in 1964."
    assert "answer_name_word_survives" not in names(BASU, gone, ["Jyotirindra Basu"])
    # a LOW item keeps the answer on purpose; a date's month is not the answer
    assert "answer_name_word_survives" not in names(BASU, cut, ["Jyotirindra Basu"], intensity=tx.LOW)
    dated = "It opened on July 4, 1931. Work ended in July."
    assert "answer_name_word_survives" not in names(dated, "Work ended in July.", ["July 4, 1931"])


def test_the_surname_of_an_answer_stated_only_in_part():
    original = "The first recording was by Gertrude Niesen. Niesen's recording was released by Victor."
    cut = "Niesen's recording was released by Victor."
    assert "answer_name_word_survives" in names(original, cut, ["Gertrude Niesen"], query="who sang it first")


def test_a_word_of_the_answer_the_query_names_is_no_residue():
    original = "The Harlem River separates the Bronx from Manhattan. The river is tidal."
    cut = "The river is tidal."
    assert "answer_name_word_survives" not in names(original, cut, ["Harlem River"], query="which river is it")


def test_a_passage_left_opening_on_a_pronoun_whose_antecedent_was_cut():
    original = (
        "The Jawaharlal Nehru Centre is a research institute located at Jakkur, Bangalore. "
        "It was established by the Department of Science and Technology in 1989."
    )
    cut = "It was established by the Department of Science and Technology in 1989."
    assert "dangling_opening_pronoun" in names(original, cut, ["Jakkur, Bangalore"])
    coach = "John Calipari is an American coach. Since 2009, he has been the head coach of Kentucky."
    assert "dangling_opening_pronoun" in names(coach, "Since 2009, he has been the head coach of Kentucky.", ["x"])
    ipo = "Starbucks went public in June 1992. The market value was $271 million by this time."
    assert "dangling_opening_pronoun" in names(ipo, "The market value was $271 million by this time.", ["x"])
    cash = '"Guns" is a 1958 single by Johnny Cash. The single was his fifth number one. It was covered in 2001.'
    assert "dangling_opening_pronoun" in names(
        cash, "The single was his fifth number one. It was covered in 2001.", ["x"]
    )
    song = "Cowboy is a 1993 song by Toby Keith. On June 5, 1993, it reached number one."
    assert "dangling_opening_pronoun" in names(song, "On June 5, 1993, it reached number one.", ["x"])
    show = "The Phantom is a musical by Webber. Based on the French novel by Gaston Leroux, its plot is dark."
    assert "dangling_opening_pronoun" in names(
        show, "Based on the French novel by Gaston Leroux, its plot is dark.", ["x"]
    )
    road = "Holiday Road is a 1983 song. The song was also used in the sequels."
    assert "dangling_opening_pronoun" in names(road, "The song was also used in the sequels.", ["x"])
    kept = "The institute was established in 1989. It has six units."
    assert "dangling_opening_pronoun" not in names(kept + " Jakkur is its home.", kept, ["Jakkur"])


def test_a_demonstrative_right_after_a_cut_sentence():
    original = (
        "A regulatory site is where a modulator binds. This ligand-binding site is distinct from the active site. "
        "Some regulators activate enzymes."
    )
    cut = "This ligand-binding site is distinct from the active site. Some regulators activate enzymes."
    assert "dangling_opening_pronoun" in names(original, cut, ["regulatory site"])
    middle = "Enzymes are proteins. A site binds. This site is distinct."
    assert "dangling_opening_pronoun" in names(middle, "Enzymes are proteins. This site is distinct.", ["x"])
    inserted = "Enzymes are proteins. A site binds. A new sentence. This site is distinct."
    # an insertion keeps the antecedent: no hit (Contradiction inserts sentences)
    assert "dangling_opening_pronoun" not in names(middle, inserted, ["x"], cls=tx.CONTRADICTION)
