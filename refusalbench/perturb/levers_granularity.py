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
    CONTEXT,
    QUERY,
    Item,
    NotApplicable,
    Proposal,
    lever,
)
from refusalbench.perturb.coarsen import coarsen_passage
from refusalbench.perturb.levers_missing import name_tokens
from refusalbench.perturb.text import answer_pattern, as_question, contains, question_body

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
    if sharpened(item) is None:
        # "what year did ... first air" against a century, "... release date" (no question), a year-like
        # "around 2011" read as a count: only a 'when' or 'how many' question is asked for the exact value
        raise NotApplicable("the query does not ask 'when' for a date or year or 'how many' for a figure")
    if item.atype == at.NUMBER and _WHEN.match(question_body(item.query)):
        raise NotApplicable("a 'when' question with a numeric answer is a year, not a count")
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


def _has_day(item: Item) -> bool:
    d = at.parse_date(item.need_anchor()) if item.atype == at.DATE else None
    return d is not None and d.day is not None and d.year is not None


@lever(GR, tx.MEDIUM, "Answer Stated One Level Coarser", CONTEXT)
def one_level_coarser(item: Item) -> Proposal:
    """Several levels between query and passage: an exact date stated as its decade, a year as its century,
    a figure of 100 or more as a range of its leading digit ("between 200 and 300").

    Declined: a year as its decade or a two-digit figure as a range of ten (reviewers: one level, too weak
    for MEDIUM); a person as their role ("a politician") or a place as its region ("Kentucky"): the first
    deletes the answer (MissingInfo), the second still answers "where"."""
    item.need_anchor()
    if item.atype == at.DATE:
        if not _has_day(item):
            raise NotApplicable("the date has no day; its decade is too few levels away")
        _temporal_slot_ok(item)
        level = 2
    elif item.atype == at.YEAR:
        _temporal_slot_ok(item)
        level = 2
    elif item.atype == at.NUMBER:
        num = at.parse_number(item.anchor)
        if num is None or num.magnitude < 100:
            raise NotApplicable("a figure under 100 as a range of ten is one level coarser, too weak for MEDIUM")
        level = 1
    else:
        raise NotApplicable("only a date, a year or a figure has a coarser statement that keeps the fact's kind")
    return _coarsen(
        item, level, "Stated the answer only several levels coarser (decade, century or range) than the query asks."
    )


_DATE_BEFORE = re.compile(
    r"(?:\b(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?|\d),?$|\d{4},?(?: and)?$"
)
_YEAR_LIST_AFTER = re.compile(r"^,?\s*(?:and\s+|or\s+|to\s+|[-–]\s*)?\d{4}\b")
_LEADING_PREPOSITION = re.compile(r"^(?:by|on|at|since|from|until|before|after|around|circa|c\.)\s", re.I)


def _temporal_slot_ok(item: Item) -> None:
    """Raise NotApplicable where a decade or century cannot take the answer's place: the answer opens its
    sentence or carries its own preposition ("By 1912," would become "The 20th century,"), or the year is
    part of a date or a list of years."""
    years = [int(y) for y in re.findall(r"(?<!\d)\d{4}(?!\d)", item.need_anchor())]
    if any(y % 100 == 0 for y in years):
        raise NotApplicable("a year ending in 00 sits on a century boundary that readers count both ways")
    for i in item.signal:
        for a in item.answers:
            pat = answer_pattern(a)
            for m in pat.finditer(item.passages[i]) if pat else ():
                before = item.passages[i][: m.start()].rstrip()
                if _LEADING_PREPOSITION.match(a) or not before or before.endswith((".", "!", "?", '"', ":")):
                    raise NotApplicable("an answer opens its sentence or carries a preposition the century cannot take")
                if item.atype == at.YEAR and (
                    _DATE_BEFORE.search(before) or _YEAR_LIST_AFTER.match(item.passages[i][m.end() :])
                ):
                    raise NotApplicable(
                        "the year is part of a date or a list of years ('1 September 1939', '1948, 1949')"
                    )


@lever(GR, tx.HIGH, "Answer Stated at a Far Coarser Scale", CONTEXT)
def far_coarser(item: Item) -> Proposal:
    """An exact date (with its day) restated as its century, while the query asks for the exact date: three
    levels. Declined for years (year against century read as an ordinary MEDIUM gap), for counts ("a number
    of" is a deletion), places ("somewhere on Earth" breaks the sentence) and people."""
    item.need_anchor()
    if item.atype != at.DATE or not _has_day(item):
        raise NotApplicable("only an exact date has a coarsening three levels up (its century) that keeps the fact")
    _temporal_slot_ok(item)
    return _coarsen(
        item, 3, "Stated the answer only as its century, far coarser than the exact date the query asks for."
    )


_LOCAL_MEASURE = re.compile(
    r"^(?:what is|what's|what was) the (?P<measure>(?:legal |current |average |annual )?(?:minimum wage|drinking age|"
    r"voting age|driving age|age of consent|retirement age|population|temperature|sales tax|tax rate|unemployment rate|"
    r"literacy rate|life expectancy|speed limit|salary|income|poverty rate|crime rate|birth rate|interest rate|rainfall))"
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


_HOW_MANY = re.compile(r"^how\s+(?:many|much)\b", re.I)


@lever(GR, tx.LOW, "Rougher Question, Exact Passage", QUERY)
def rougher_question(item: Item) -> Proposal:
    """The query asks one level coarser than the passage states: the year of an exact date ("In what year
    did ...?" where the passage gives the day), or roughly how many where it gives an exact figure of 20 or
    more. No fixed prefix on other questions ("Broadly speaking, who ...?": reviewers found no real gap)."""
    item.need_anchor()
    body = question_body(item.query)
    if item.atype == at.DATE and _WHEN.match(body) and _has_day(item):
        years = {d.year for a in item.answers if (d := at.parse_date(a)) is not None}
        if len(years) != 1:
            raise NotApplicable("the answers give dates in different years")
        query = as_question(_WHEN.sub("in what year", body, count=1))
        what = "Asked for the year only; the passage states the exact date, one easy step finer."
    elif item.atype == at.NUMBER and _HOW_MANY.match(body):
        num = at.parse_number(item.anchor)
        if num is None or num.magnitude < 20:
            raise NotApplicable("a small count has no rougher version")
        query = as_question("roughly " + body[:1].lower() + body[1:])
        what = "Asked roughly how many; the passage states the exact figure."
    else:
        raise NotApplicable("the query does not ask 'when' for an exact date or 'how many' for a figure")
    return Proposal(query, list(item.passages), what)
