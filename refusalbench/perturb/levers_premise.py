"""P-FalsePremise levers: only the query changes; the passage is the evidence and stays byte-identical.

MEDIUM presupposes a version of the answer fact that the passage contradicts, HIGH makes the
question a category error, LOW ties a question about a settled fact to a year the passage never mentions.
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
    if new is not None and re.match(r"(?:he|she|it|they|his|her|its|their|this|these|those)\b", new, re.I):
        new = None  # a pronoun with no antecedent in the query
    if new is not None and item.atype == at.OTHER and value.lower().split()[-1:] != item.anchor_text.lower().split()[-1:]:
        new = None  # an untyped phrase replaced by one of another kind ("worn on the glycine")
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


_STABLE = re.compile(r"^(?:who|what|where|which)\b.*\b(?:wrote|write|writes|sang|sing|sings|composed|founded|invented|"
                     r"discovered|designed|built|directed|painted|created|developed|produced|recorded|performed|"
                     r"originally|first|born|buried|located|situated|based|headquartered|made of|named after)\b", re.I)
_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20[0-2]\d)(?!\d)")
LATEST_YEAR = 2017  # the NQ passages were written by then; a later year would be in the future for some


@lever(FP, tx.LOW, "Over-specific Year", QUERY)
def over_specific_year(item: Item) -> Proposal:
    """A time frame the passage never mentions, on a question whose answer does not change with time."""
    item.need_anchor()
    body = question_body(item.query)
    if item.atype in (at.DATE, at.YEAR, at.NUMBER) or _YEAR.search(body) or not _STABLE.match(body):
        raise NotApplicable("the question is not about a stable fact, or already names a year")
    if re.search(r"\b(?:current|now|today|latest|next|last|recent)\b", body, re.I):
        raise NotApplicable("the question is about a state that changes over time")
    years = [int(y) for p in item.passages for y in _YEAR.findall(p)]
    if not years or max(years) >= LATEST_YEAR:
        raise NotApplicable("the passage gives no year after which the fact is surely settled")
    options = [y for y in range(max(years) + 2, LATEST_YEAR + 1) if not any(str(y) in p for p in item.passages)]
    if not options:
        raise NotApplicable("no later year is free")
    year = item.rng.choice(options)
    query = as_question(f"As of {year}, {lower_first(body)}")
    return Proposal(query, list(item.passages),
                    f"Tied the query to {year}, a time frame the passage never mentions; the asked fact does not depend on it.")
