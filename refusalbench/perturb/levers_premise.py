"""P-FalsePremise levers: only the query changes; the passage is the evidence and stays byte-identical.

HIGH makes the question a category error; LOW names the passage's work with a wrong year (a
peripheral detail the asked fact does not depend on). MEDIUM has no rule-based lever: a presupposition
that restates the answer with another value was judged invalid in blind review (a careful reader
corrects the premise from the passage and answers), so that cell is left to LLM generators.
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import QUERY, Item, NotApplicable, Proposal, lever
from refusalbench.perturb.levers_ambiguity import pronoun_query, subject_span, title_core
from refusalbench.perturb.subject import BUILT, work_subject
from refusalbench.perturb.text import as_question, question_body

FP = tx.FALSE_PREMISE
NON_AGENTS = ("Which prime number", "Which shade of blue", "Which empty box", "Which mathematical theorem")
_WHO = re.compile(r"^(?P<wh>who|who's|whom)\s+(?P<rest>.+)$", re.I)


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


_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20[0-2]\d)(?!\d)")
LATEST_YEAR = 2017  # the NQ passages were written by then; a later year would be in the future for some
_WHEN = re.compile(r"^(?:when|what year|which year|in what year|in which year|how long|how old)\b", re.I)


@lever(FP, tx.LOW, "Mis-dated Discovery", QUERY)
def misdated_work(item: Item) -> Proposal:
    """Name the passage's work with a wrong year ("who sang the 1981 song holiday road", where the passage
    says it is a 1983 song); the fact asked for does not depend on the year. Only where the passage's
    opening sentence dates the work itself ("is a 1983 song by ...") and the query names it."""
    item.need_anchor()
    if item.multi or not item.title:
        raise NotApplicable("the item has no titled single passage")
    subject = work_subject(item.passages[0], item.title)
    if subject is None or subject.year is None or subject.kind in BUILT:
        raise NotApplicable("the passage does not open by dating its work ('is a 1983 song')")
    body = question_body(item.query)
    if item.atype in (at.DATE, at.YEAR) or _WHEN.match(body) or _YEAR.search(body):
        raise NotApplicable("the question asks about time or already names a year")
    span = subject_span(body, item.title)
    if span is None or pronoun_query(item.query, item.title, "it") is None:
        raise NotApplicable("the query does not name the passage's work")
    start, end, possessive = span
    core = re.search(r"\s+".join(re.escape(w) for w in title_core(item.title).split()), body[start:end], re.I)
    if possessive or core is None:
        raise NotApplicable("the work is named in a possessive")
    stated = {int(y) for p in item.passages for y in _YEAR.findall(p)}
    options = [
        y for d in (-3, -2, 2, 3) if (y := subject.year + d) <= LATEST_YEAR and all(abs(y - x) > 1 for x in stated)
    ]
    if not options:
        raise NotApplicable("no nearby year is free of the passage's years")
    year = item.rng.choice(options)
    named = f'"{subject.name}"'  # the title as the passage writes it, not the query's lower case
    query = as_question(f"{body[:start]}the {year} {subject.kind} {named}{body[end:]}")
    return Proposal(
        query,
        list(item.passages),
        f"Called the {subject.kind} a {year} {subject.kind}; the passage dates it {subject.year}, and the asked fact "
        "does not depend on the year.",
    )
