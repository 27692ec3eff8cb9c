"""P-FalsePremise levers: only the query changes; the passage is the evidence and stays byte-identical.

MEDIUM presupposes a version of the answer fact that the passage contradicts, HIGH makes the
question a category error, LOW adds a harmless detail the passage does not support.
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import QUERY, Item, NotApplicable, Proposal, lever, restated
from refusalbench.perturb.text import as_question, contains, embed, lower_first, question_body, tidy

FP = tx.FALSE_PREMISE
MAX_WORDS = 30

FACTIVE_DENIAL = ("Given that we know it was not {a}, {q}", "Knowing that it was not {a}, {q}")
FACTIVE = ("Given that we know that {s}, {q}", "Knowing that {s}, {q}", "Since it is well known that {s}, {q}")
NON_AGENTS = ("Which prime number", "Which shade of blue", "Which empty box", "Which mathematical theorem")
WRONG_DOMAIN = {
    at.DATE: ("Measured in kilograms", "In litres"),
    at.YEAR: ("Measured in kilograms", "In litres"),
    at.NUMBER: ("Expressed as a colour", "Expressed as a smell"),
    at.PERSON: ("Measured in litres", "In degrees Celsius"),
    at.ORGANISATION: ("Measured in litres", "In degrees Celsius"),
    at.PLACE: ("Measured in kilograms", "In decibels"),
    at.OTHER: ("Measured in kilograms", "In litres"),
}
ASIDES = (
    "As a friend who follows the topic mentioned recently, {q}",
    "{Q}, a question that came up at a pub quiz last week",
    "For a school project on this subject, {q}",
)
_PARENTHETICAL = re.compile(r"\s*\([^()]*\)")
_WHO = re.compile(r"^(?P<wh>who|who's|whom)\s+(?P<rest>.+)$", re.I)


@lever(FP, tx.MEDIUM, "Factive Verb Contradiction", QUERY)
def factive_contradiction(item: Item) -> Proposal:
    item.need_anchor()
    body = lower_first(question_body(item.query))
    value = item.maybe_distractor()
    new = None
    if value is not None:
        try:
            new = tidy(_PARENTHETICAL.sub("", restated(item, value, MAX_WORDS)[1]))
        except NotApplicable:
            new = None
    if new is None or not contains(new, value):  # no restatable value: presuppose the answer is wrong
        query = as_question(item.rng.choice(FACTIVE_DENIAL).format(a=item.anchor_text, q=body))
        return Proposal(query, list(item.passages),
                        f"The query now presupposes, through a factive verb, that the answer is not {item.anchor_text}, "
                        "which the passage states.")
    query = as_question(item.rng.choice(FACTIVE).format(s=embed(new, item.vocabulary), q=body))
    return Proposal(query, list(item.passages),
                    f"The query now presupposes, through a factive verb, that the answer is {value}; the passage says otherwise.")


@lever(FP, tx.HIGH, "Inanimate Agent Verb", QUERY)
def inanimate_agent(item: Item) -> Proposal:
    m = _WHO.match(question_body(item.query))
    if not m:
        raise NotApplicable("the query is not a 'who' question")
    rest = ("is " if m.group("wh").lower() == "who's" else "") + m.group("rest")
    query = as_question(f"{item.rng.choice(NON_AGENTS)} {rest}")
    return Proposal(query, list(item.passages), "Asked which abstract, inanimate thing performed a person's act: a category error.")


@lever(FP, tx.HIGH, "Category Swap", QUERY)
def category_swap(item: Item) -> Proposal:
    frame = item.rng.choice(WRONG_DOMAIN[item.atype])
    query = as_question(f"{frame}, {lower_first(question_body(item.query))}")
    return Proposal(query, list(item.passages), f"Asked for the answer in a unit from an incompatible domain ('{frame}').")


@lever(FP, tx.LOW, "Unsupported Harmless Aside", QUERY)
def harmless_aside(item: Item) -> Proposal:
    body = question_body(item.query)
    template = item.rng.choice(ASIDES)
    query = as_question(template.format(q=lower_first(body), Q=body))
    return Proposal(query, list(item.passages), "Added an unsupported but harmless detail to the query; the asked fact is unaffected.")
