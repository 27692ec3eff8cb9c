"""P-Ambiguity levers: a second entity of the same name with a different answer.

HIGH makes the namesake indistinguishable, MEDIUM gives it equal standing, LOW marks it as a
parody that the (edited) question sets aside. The namesake sentence goes at the end of every
signal passage that states the answer.
"""

from __future__ import annotations

from refusalbench import taxonomy as tx
from refusalbench.perturb.base import BOTH, CONTEXT, Item, Proposal, append_sentence, lever, restated
from refusalbench.perturb.text import as_question, embed, end_sentence, lower_first, question_body

AM = tx.AMBIGUITY
MAX_WORDS = 60

HOMONYM = (
    "The same name also refers to an entirely unrelated subject, for which the record states that {s}.",
    "An unrelated subject bears exactly the same name, and of it the record states that {s}.",
)
HOMONYM_TITLED = (
    "The name \"{t}\" also belongs to an entirely unrelated subject, for which the record states that {s}.",
    "A second, unrelated \"{t}\" bears exactly the same name, and of it the record states that {s}.",
)
NAMESAKE = (
    "A second, equally well-documented namesake is recorded as well, and for that one, {s}.",
    "Sources describe another, equally notable namesake, and for it, {s}.",
)
NAMESAKE_TITLED = (
    "A second, equally well-documented \"{t}\" is recorded as well, and for that one, {s}.",
    "Sources describe another, equally notable \"{t}\", and for it, {s}.",
)
PARODY = "A parody of the same name, unrelated to the original, is also sometimes cited; in the parody, {s}."
PARODY_TITLED = "A parody also called \"{t}\", unrelated to the original, is sometimes cited; in the parody, {s}."
PARODY_QUERY = ("Setting aside the parody of the same name, {q}", "Leaving aside the parody that shares its name, {q}")


def _append(item: Item, sentence: str) -> list[str]:
    return item.edit_signal(lambda p: append_sentence(p, sentence))


def _namesake(item: Item, templates: tuple[str, ...], titled: tuple[str, ...]) -> tuple[str, str]:
    """The namesake sentence (naming the subject when the item has a title) and the distractor used."""
    value = item.distractor()
    _, new = restated(item, value, MAX_WORDS)
    template = item.rng.choice(titled if item.title else templates)
    return end_sentence(template.format(s=embed(new, item.vocabulary), t=item.title)), value


@lever(AM, tx.HIGH, "Pure Homonymy Clash", CONTEXT)
def homonymy_clash(item: Item) -> Proposal:
    sentence, value = _namesake(item, HOMONYM, HOMONYM_TITLED)
    return Proposal(item.query, _append(item, sentence),
                    f"Added an unrelated subject with the same name whose record gives {value}; nothing tells the two apart.")


@lever(AM, tx.MEDIUM, "Equally Documented Namesake", CONTEXT)
def equal_namesake(item: Item) -> Proposal:
    sentence, value = _namesake(item, NAMESAKE, NAMESAKE_TITLED)
    return Proposal(item.query, _append(item, sentence),
                    f"Added an equally documented namesake with the answer {value}; the query fits both equally.")


@lever(AM, tx.LOW, "Namesake Excluded by the Question", BOTH)
def excluded_namesake(item: Item) -> Proposal:
    sentence, value = _namesake(item, (PARODY,), (PARODY_TITLED,))
    query = as_question(item.rng.choice(PARODY_QUERY).format(q=lower_first(question_body(item.query))))
    return Proposal(query, _append(item, sentence),
                    f"Added a parody namesake (answer {value}) and worded the query to set the parody aside.")
