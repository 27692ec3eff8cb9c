"""P-FalsePremise levers: only the query changes; the passage is the evidence and stays byte-identical.

MEDIUM presupposes a version of the answer fact that the passage contradicts, HIGH makes the
question a category error, LOW ties a question about a settled fact to a year the passage never mentions.
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import QUERY, Item, NotApplicable, Proposal, lever, restated
from refusalbench.perturb.levers_contradiction import other_figure
from refusalbench.perturb.text import as_question, contains, contains_any, embed, lower_first, question_body, tidy

FP = tx.FALSE_PREMISE
MAX_WORDS = 30

FACTIVE = ("Given that we know that {s}, {q}", "Knowing that {s}, {q}", "Since it is well known that {s}, {q}")
NON_AGENTS = ("Which prime number", "Which shade of blue", "Which empty box", "Which mathematical theorem")
_PARENTHETICAL = re.compile(r"\s*\([^()]*\)")
_WEAK_OPENING = re.compile(
    r"(?:he|she|it|they|his|her|its|their|this|these|those|also|however|but|and|then|there|here)\b", re.I
)
_PARTICIPLE = re.compile(
    r"\s*[A-Z][a-z]{3,}(?:ed|ing)\b(?! (?:is|was|are|were|has|had)\b)"
)  # "Published in 1937, it ..."
_WHO = re.compile(r"^(?P<wh>who|who's|whom)\s+(?P<rest>.+)$", re.I)


@lever(FP, tx.MEDIUM, "Factive Verb Contradiction", QUERY)
def factive_contradiction(item: Item) -> Proposal:
    """Presuppose the passage's own answer sentence restated with another date, year or figure.

    Declined for list questions (another listed answer stays right), for other kinds of answer (a drawn
    name or phrase is often of the wrong kind) and where the answer sentence is not a whole sentence
    that opens on a name ("also in 2003, ...", "he ...")."""
    item.need_anchor()
    if item.atype not in (at.DATE, at.YEAR, at.NUMBER):
        raise NotApplicable("only a date, year or figure is swapped for one surely of the same kind")
    value = other_figure(item)
    original, new = restated(item, value, MAX_WORDS)
    if not re.match(r"[A-Z]", original.strip()) or _WEAK_OPENING.match(original.strip()) or _PARTICIPLE.match(original):
        raise NotApplicable("the answer sentence does not open on its subject")
    new = tidy(_PARENTHETICAL.sub("", new))
    if not contains(new, value) or contains_any(new, item.answers):
        raise NotApplicable("the restated sentence does not carry the rival value alone")
    frame = item.rng.choice(FACTIVE)
    query = as_question(frame.format(s=embed(new, item.vocabulary), q=lower_first(question_body(item.query))))
    return Proposal(
        query,
        list(item.passages),
        f"The query now presupposes, through a factive verb, that the answer is {value}; the passage says otherwise.",
    )


@lever(FP, tx.HIGH, "Inanimate Agent Verb", QUERY)
def inanimate_agent(item: Item) -> Proposal:
    m = _WHO.match(question_body(item.query))
    if not m:
        raise NotApplicable("the query is not a 'who' question")
    rest = ("is " if m.group("wh").lower() == "who's" else "") + m.group("rest")
    query = as_question(f"{item.rng.choice(NON_AGENTS)} {rest}")
    return Proposal(
        query, list(item.passages), "Asked which abstract, inanimate thing performed a person's act: a category error."
    )


_STABLE = re.compile(
    r"^(?:who|what|where|which)\b.*\b(?:wrote|write|writes|sang|sing|sings|composed|founded|invented|"
    r"discovered|designed|built|directed|painted|created|developed|produced|recorded|performed|"
    r"originally|first|born|buried|located|situated|based|headquartered|made of|named after)\b",
    re.I,
)
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
    return Proposal(
        query,
        list(item.passages),
        f"Tied the query to {year}, a time frame the passage never mentions; the asked fact does not depend on it.",
    )
