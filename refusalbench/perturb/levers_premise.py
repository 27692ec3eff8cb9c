"""P-FalsePremise levers: only the query changes; the passage is the evidence and stays byte-identical.

MEDIUM presupposes a version of the answer fact that the passage contradicts, HIGH makes the
question a category error, LOW names the passage's work with a wrong year
(a peripheral detail the asked fact does not depend on).
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import QUERY, Item, NotApplicable, Proposal, lever, restated
from refusalbench.perturb.levers_ambiguity import pronoun_query, subject_span, title_core
from refusalbench.perturb.levers_contradiction import other_figure, plain_restatement
from refusalbench.perturb.subject import BUILT, work_subject
from refusalbench.perturb.text import as_question, contains, contains_any, lower_first, question_body, tidy

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
_QUESTION = re.compile(
    r"(?:who|whom|whose|what|when|where|which|why|how|is|are|was|were|do|does|did|can|could|will|has|have|had)\b", re.I
)
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
    plain_restatement(original, new, value)
    if not re.match(r"[A-Z]", original.strip()) or _WEAK_OPENING.match(original.strip()) or _PARTICIPLE.match(original):
        raise NotApplicable("the answer sentence does not open on its subject")
    new = tidy(_PARENTHETICAL.sub("", new))
    if not contains(new, value) or contains_any(new, item.answers):
        raise NotApplicable("the restated sentence does not carry the rival value alone")
    if not _QUESTION.match(question_body(item.query)):
        raise NotApplicable("the query is not a question ('... release date'), so no clause can lead into it")
    frame = item.rng.choice(FACTIVE)
    query = as_question(frame.format(s=item.embedded(new), q=lower_first(question_body(item.query))))
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
