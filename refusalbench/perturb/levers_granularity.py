"""P-GranularityMismatch levers: the passage states the answer at a coarser level than the query asks.

MEDIUM coarsens one level beyond what the query accepts (date → year, year → decade, number →
range, person → their role group, place → its region); HIGH far beyond (decade/century, order of
magnitude, a collective, "somewhere on Earth"). Single passage: the query is sharpened to ask for
the exact value ("On exactly what date ..."). LOW keeps the exact value one easy step away.
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import (
    _SENTENCE_START,
    _WORD_BEFORE,
    ARTICLES,
    CONTEXT,
    PREPOSITIONS,
    QUERY,
    Item,
    NotApplicable,
    Proposal,
    in_compound,
    insert_after,
    lever,
    rebuild,
    sentences_with,
)
from refusalbench.perturb.coarsen import _POSSESSIVES, coarsen_passage, decade, name_slot_ok, region_of, role
from refusalbench.perturb.levers_missing import name_tokens
from refusalbench.perturb.text import answer_pattern, as_question, capitalise, contains, question_body, split_sentences

GR = tx.GRANULARITY
_WHEN = re.compile(r"^when\b", re.I)
_HOW = re.compile(r"^how\s+(many|much|long|old|tall|far|big|high|deep|wide)\b", re.I)


def sharpened(item: Item) -> str | None:
    """The query asking for the exact value ("On exactly what date ..."), or None if its form is unknown."""
    body = question_body(item.query)
    if _WHEN.match(body) and item.atype in (at.DATE, at.YEAR):
        exact = "on exactly what date" if item.atype == at.DATE else "in exactly which year"
        return as_question(_WHEN.sub(exact, body, count=1))
    m = _HOW.match(body)
    if m and item.atype == at.NUMBER:
        return as_question("exactly " + body[:1].lower() + body[1:])
    return None


_FIGURE = re.compile(r"\d+")


def _keeps_other_figures(item: Item, old: str, new: str) -> bool:
    """True when every figure of `old` that is not part of an answer is still in `new` (a coarser
    restatement of the answer must not delete birth dates or other numbers)."""
    answer_figures = {f for a in item.answers for f in _FIGURE.findall(a)}
    lost = set(_FIGURE.findall(old)) - set(_FIGURE.findall(new)) - answer_figures
    return not lost


def _coarsen(item: Item, level: int, what: str) -> Proposal:
    item.need_anchor()
    if item.atype == at.NUMBER:
        stated = {a for a in item.answers if re.search(r"\d", a) and any(contains(p, a) for p in item.passages)}
        if len({tuple(_FIGURE.findall(a)) for a in stated}) > 1:
            raise NotApplicable("the passage states several different figures as answers; one range would misstate one")
    tokens = name_tokens(item) if item.atype == at.PERSON else []
    hedged = re.compile(
        r"\b(?:more than|over|about|around|nearly|almost|at least|up to|some|roughly|approximately)\s+$", re.I
    )
    in_name = re.compile(rf"\b[Tt]he\s+{re.escape(item.anchor_text)}(?!\d)\s+[A-Z]") if item.atype == at.YEAR else None

    def edit(passage: str) -> str:
        if item.atype == at.NUMBER and any(
            hedged.search(passage[: m.start()])
            for a in item.answers
            if (pat := answer_pattern(a))
            for m in pat.finditer(passage)
        ):
            raise NotApplicable("the figure is already hedged ('more than 50'); a range would misstate it")
        if in_name is not None and in_name.search(passage):
            raise NotApplicable("the year is part of a name ('the 1980 Summer Olympics')")
        new = coarsen_passage(item, passage, level, tokens)
        if not _keeps_other_figures(item, passage, new):
            raise NotApplicable("the coarser wording would delete other facts (dates or figures) with the answer")
        return new

    passages = item.edit_signal(edit)
    query = item.query
    if not item.multi:
        query = sharpened(item) or item.query
    return Proposal(query, passages, what)


@lever(GR, tx.MEDIUM, "Answer Stated One Level Coarser", CONTEXT)
def one_level_coarser(item: Item) -> Proposal:
    return _coarsen(
        item, 1, "Stated the answer only at a coarser level (year, decade, range, role or region) than the query asks."
    )


_DATE_BEFORE = re.compile(
    r"(?:\b(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?|\d),?$|\d{4},?(?: and)?$"
)
_YEAR_LIST_AFTER = re.compile(r"^,?\s*(?:and\s+|or\s+|to\s+|[-–]\s*)?\d{4}\b")
_LEADING_PREPOSITION = re.compile(r"^(?:by|on|at|since|from|until|before|after|around|circa|c\.)\s", re.I)


@lever(GR, tx.HIGH, "Answer Stated at a Far Coarser Scale", CONTEXT)
def far_coarser(item: Item) -> Proposal:
    """A date or year restated as its century (three or two levels up). Declined where an answer opens a
    sentence or carries its own preposition ("By 1912," would become "The 20th century,"), and for other
    kinds: "a number of" for a count deletes the fact, "somewhere on Earth" breaks the sentence, and
    "dozens of" for 23 is no change of scale."""
    item.need_anchor()
    if item.atype not in (at.DATE, at.YEAR):
        raise NotApplicable("only a date or year has a coarsening two levels up that keeps the fact")
    for i in item.signal:
        for a in item.answers:
            pat = answer_pattern(a)
            for m in pat.finditer(item.passages[i]) if pat else ():
                before = item.passages[i][: m.start()].rstrip()
                if _LEADING_PREPOSITION.match(a) or not before or before.endswith((".", "!", "?", '"', ":")):
                    raise NotApplicable("an answer opens its sentence or carries a preposition the century cannot take")
                if _DATE_BEFORE.search(before) or _YEAR_LIST_AFTER.match(item.passages[i][m.end() :]):
                    raise NotApplicable(
                        "the year is part of a date or a list of years ('1 September 1939', '1948, 1949')"
                    )
    level = 3 if item.atype == at.DATE else 2
    return _coarsen(
        item, level, "Stated the answer only as its century, far coarser than the exact year or date asked for."
    )


_LOCAL_MEASURE = re.compile(
    r"^(?:what is|what's|what was) the (?P<measure>(?:legal |current |average |annual )?(?:minimum wage|drinking age|"
    r"voting age|driving age|age of consent|retirement age|population|temperature|sales tax|tax rate|unemployment rate|"
    r"literacy rate|life expectancy|speed limit|salary|income|poverty rate|crime rate|birth rate|interest rate|"
    r"rainfall))"
    r" (?:of|in|for) (?P<where>.+)$",
    re.I,
)


@lever(GR, tx.HIGH, "Global Average from Street Data", QUERY)
def global_average(item: Item) -> Proposal:
    """A worldwide average asked of a passage that gives one local value."""
    item.need_anchor()
    if item.atype not in (at.NUMBER, at.OTHER):
        raise NotApplicable("the answer is not a measured value")
    m = _LOCAL_MEASURE.match(question_body(item.query))
    if not m or not re.search(r"\d", item.anchor):
        raise NotApplicable("the query does not ask for a local measure (a wage, a rate, a population, ...)")
    measure = re.sub(r"^(?:current|average|annual) ", "", m.group("measure").lower())
    query = as_question(f"What is the {measure} averaged over every country in the world")
    return Proposal(
        query,
        list(item.passages),
        f"Asked for the worldwide average {measure}; the passage gives the value for {m.group('where')} only.",
    )


@lever(GR, tx.LOW, "Exact Degree Value", QUERY)
def exact_degree(item: Item) -> Proposal:
    item.need_anchor()
    query = sharpened(item)
    if query is None:
        raise NotApplicable("the query does not ask 'when' or 'how many' for a date, year or number answer")
    return Proposal(query, list(item.passages), "Asked for the value at exactly the precision the passage states.")


_ROUGH = re.compile(r"^(?:where|when|how\s+(?:many|much|long|old|tall|far|big|high|deep|wide))\b", re.I)


@lever(GR, tx.LOW, "Rougher Question, Exact Passage", QUERY)
def rougher_question(item: Item) -> Proposal:
    item.need_anchor()
    body = question_body(item.query)
    if _ROUGH.match(body):
        query = as_question("roughly " + body[:1].lower() + body[1:])
    else:
        query = as_question("broadly speaking, " + body[:1].lower() + body[1:])
    return Proposal(
        query, list(item.passages), "Asked at a rougher level than the passage states; its exact value answers it."
    )


def _one_step(item: Item) -> tuple[str, str]:
    """(indefinite coarse phrase, definite 'that ...') for the LOW bridge."""
    anchor = item.need_anchor()
    if item.atype == at.DATE:
        d = at.parse_date(anchor)
        if d is None or d.year is None:
            raise NotApplicable("the date has no year")
        if d.day is None:
            return f"a month in {d.year}", "That month was"
        return f"a date in {d.year}", "That date was"
    if item.atype == at.YEAR and not anchor.lower().startswith("in "):
        return f"a year in {decade(at.parse_year(anchor))}", "That year was"
    if item.atype == at.PERSON:
        member, definite, _ = role(item.query)
        return member, definite.capitalize() + " was"
    if item.atype == at.ORGANISATION:
        return "an organisation", "That organisation was"
    if item.atype == at.PLACE:
        return "a place in {region}", "That place was"  # the region comes from the passage ("Tulsa, Oklahoma")
    raise NotApplicable(f"no one-step coarser wording for a {item.atype} answer")


@lever(GR, tx.LOW, "Coarse Statement, Exact Value One Step Away", CONTEXT)
def one_step_away(item: Item) -> Proposal:
    coarse, definite = _one_step(item)
    anchor = item.need_anchor()

    def edit(passage: str) -> str:
        sents = split_sentences(passage)
        hits = sentences_with(sents, [anchor])
        if not hits:
            return passage
        k = hits[0]
        wider = [a for a in sorted(item.aliases(), key=len, reverse=True) if contains(sents[k], a)]
        pat = answer_pattern(wider[0] if wider else anchor)
        phrase = coarse
        if item.atype == at.PLACE:
            found = region_of(item, sents[k])
            if not found or found[0] == found[1]:
                raise NotApplicable("the passage names no larger region for the place")
            pat, phrase = answer_pattern(found[0]), coarse.format(region=found[1])
        m = pat.search(sents[k])
        before, after = sents[k][: m.start()], sents[k][m.end() :]
        if in_compound(sents[k], m.start(), m.end()) or (
            pat.match(sents[k]) and item.atype not in (at.PERSON, at.ORGANISATION)
        ):
            raise NotApplicable("the answer opens the sentence or is part of a compound")
        w = _WORD_BEFORE.search(before)
        prev = w.group(1).lower() if w else ""
        if prev in ARTICLES | _POSSESSIVES or re.search(r"'s\s+$", before):
            raise NotApplicable('the answer is a modifier ("a 1967 film"), not a phrase of its own')
        if (
            item.atype in (at.DATE, at.YEAR)
            and w
            and w.group(1)[:1].isupper()
            and prev not in PREPOSITIONS
            and not _SENTENCE_START.search(before[: w.start(1)])
        ):
            raise NotApplicable('the year is part of a name ("Housing Act 1980")')
        if item.atype == at.DATE and prev == "in" and coarse.startswith("a date"):
            before = re.sub(
                r"\b([Ii])n(\s+)$", lambda x: ("O" if x.group(1) == "I" else "o") + "n" + x.group(2), before
            )  # on a date
        if item.atype == at.ORGANISATION and re.match(r"\s+(?:have|are|were)\b", after):
            raise NotApplicable("the name takes a plural verb, which 'an organisation' does not")
        if item.atype in (at.PERSON, at.ORGANISATION) and not name_slot_ok(before, after):
            raise NotApplicable("the name stands where no description fits (after a noun, before an aside)")
        sents[k] = before + (capitalise(phrase) if not before.strip() else phrase) + after
        return rebuild(insert_after(sents, k, f"{definite} {anchor.rstrip('.')}."))

    passages = item.edit_signal(edit)
    return Proposal(
        item.query, passages, f"Stated the fact as '{coarse}' and gave the exact value in the next sentence."
    )
