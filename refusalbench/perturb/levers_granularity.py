"""P-GranularityMismatch levers: the passage states the answer at a coarser level than the query asks.

MEDIUM states the answer several levels coarser than the query asks (an exact date as its decade, a
year as its century), the query sharpened to ask for the exact value ("On exactly what date ...").
LOW asks for the year of an event the passage dates to the month or day, only where a gold answer is that
year (and, in `levers_granularity_member`, the catalogue's "Superclass Trait Made Explicit": the author of a series
asked of one book the passage names as its member). In blind review "Roughly how many ...?" of an exact figure
(LOW) made a nominal gap (4 of 7 borderline), and "In what year ...?" of a full-date gold answer expected a reply
that is only part of it.
The catalogue's "Inline Unit Conversion" ("How tall is ..., in feet?" of a passage giving "1,149 feet (350 m)") was
tried at LOW and withdrawn: the query asks at the precision the passage states, so no mismatch is there (0 of 18
valid in the forty-eighth review). HIGH asks the metre-precise coordinates of one spot the passage places only by
name (and, in `levers_granularity_world`, the world's average of one instance's count). Other HIGH levers failed
blind review: the exact date stated as its century read as the same change as MEDIUM, and a first design of the
world's average ("the population averaged over every country" of one town), like the catalogue's "Molecular vs.
Organism" ("Which genes set the lifespan of ...?" of a species article, 1 of 16 valid in the fifty-first review),
as missing data, not scale.
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import (
    CONTEXT,
    PREPOSITIONS,
    QUERY,
    Item,
    NotApplicable,
    Proposal,
    lever,
)
from refusalbench.perturb.coarsen import coarsen_passage
from refusalbench.perturb.text import answer_pattern, as_question, question_body

GR = tx.GRANULARITY
_WHEN = re.compile(r"^when\b", re.I)
# "when did / was / will ...": only a question with its auxiliary reads as one after "In exactly which year"
# ("In exactly which year boy meets girl ...?" of a keyword query does not)
_WHEN_AUXILIARY = re.compile(
    r"^when\s+(?:did|does|do|was|were|is|are|will|would|has|have|had|can|could|should|shall|might|must)\b", re.I
)


def sharpened(item: Item) -> str | None:
    """The query asking for the exact date or year ("On exactly what date ..."), or None unless it asks 'when'
    with an auxiliary ("when did ...", "when was ...")."""
    body = question_body(item.query)
    if _WHEN_AUXILIARY.match(body) and item.atype in (at.DATE, at.YEAR):
        exact = "on exactly what date" if item.atype == at.DATE else "in exactly which year"
        return as_question(_WHEN.sub(exact, body, count=1))
    return None


_FIGURE = re.compile(r"\d+")


def _keeps_other_figures(item: Item, old: str, new: str) -> bool:
    """True when every figure of `old` that is not part of an answer is still in `new` (a coarser
    restatement of the answer must not delete birth dates or other numbers)."""
    answer_figures = {f for a in item.answers for f in _FIGURE.findall(a)}
    lost = set(_FIGURE.findall(old)) - set(_FIGURE.findall(new)) - answer_figures
    return not lost


def _coarsen(item: Item, what: str) -> Proposal:
    """The passage with the date or year answer coarsened (see `one_level_coarser`), the query sharpened."""
    item.need_anchor()
    if sharpened(item) is None:
        # "what year did ... first air" against a century, "... release date" (no question): only a 'when'
        # question is asked for the exact value
        raise NotApplicable("the query does not ask 'when did / was ...' for a date or year")
    years = set(re.findall(r"(?<!\d)\d{4}(?!\d)", item.anchor_text))
    in_name = re.compile(rf"\b[Tt]he\s+{re.escape(item.anchor_text)}(?!\d)\s+[A-Z]") if item.atype == at.YEAR else None

    def edit(passage: str) -> str:
        if in_name is not None and in_name.search(passage):
            raise NotApplicable("the year is part of a name ('the 1980 Summer Olympics')")
        if any(
            _CLOCK_BEFORE.search(passage[max(0, m.start() - 30) : m.start()])
            for a in item.answers
            if (pat := answer_pattern(a))
            for m in pat.finditer(passage)
        ):
            raise NotApplicable("a time of day goes with the date ('at 8:20 p.m. on 25 September 2007')")
        if _scopes_a_superlative(passage, years):
            raise NotApplicable("the answer's year sets the scope of a superlative ('the most successful ... in 2005')")
        new = coarsen_passage(item, passage)
        if not _keeps_other_figures(item, passage, new):
            raise NotApplicable("the coarser wording would delete other facts (dates or figures) with the answer")
        if any(re.search(rf"(?<!\d){y}(?!\d)", new) for y in years):
            raise NotApplicable(
                "the passage states the answer's year elsewhere ('In 1975 ...'); a decade hides nothing"
            )
        dated_only_coarsely(new)
        return new

    passages = item.edit_signal(edit)
    query = item.query
    if not item.multi:
        query = sharpened(item) or item.query
    return Proposal(query, passages, what)


# a superlative whose scope a year sets: "the most successful premiere for Disney Channel in 2005" says something
# else (and likely false) once the year reads "in the 2000s"
_SUPERLATIVE_SCOPE = re.compile(
    r"\b(?:most|least|best|worst|top|highest|lowest|largest|biggest|greatest|fastest|longest|oldest|newest|youngest|"
    r"tallest|smallest|strongest|richest|\w{3,}iest)\b[^.;,:()]{0,60}$",
    re.I,
)


def _scopes_a_superlative(passage: str, years: set[str]) -> bool:
    """True when a mention of the answer's year bounds a superlative before it in its clause."""
    return any(
        _SUPERLATIVE_SCOPE.search(passage[max(0, m.start() - 80) : m.start()])
        for y in years
        for m in re.finditer(rf"(?<!\d){y}(?!\d)", passage)
    )


_OTHER_YEAR = re.compile(r"(?<![\d,.])(?:1[0-9]|20)\d\d(?![\d'’]?s\b)(?!\d)")
_DAY_DATE = re.compile(rf"\b(?:{at.MONTH_NAMES})\s+\d{{1,2}}\b|\b\d{{1,2}}\s+(?:{at.MONTH_NAMES})\b")
# "the following March", "the previous summer" count from the exact date too (the eighty-first review's K004, K017)
_BACK_REFERENCE = re.compile(
    r"\b(?:(?:the\s+)?(?:following|next|previous|preceding|same|prior)\s+"
    rf"(?:year|month|decade|season|spring|summer|autumn|fall|winter|{at.MONTH_NAMES})|"
    r"that\s+(?:year|month|decade)|(?:a|one|two|three|several|\w+)\s+(?:years?|months?|decades?)\s+"
    r"(?:later|earlier|after|before|prior)|(?:years?|months?|decades?)\s+later)\b",
    re.I,
)
_COUNT_WORDS = [*at.SINGLE_WORD_NUMBERS, "several", "many"]
_DURATION = re.compile(rf"\b(?:\d+|{'|'.join(_COUNT_WORDS)})[\s-]+(?:years?|decades?)\b", re.I)


def dated_only_coarsely(passage: str) -> None:
    """Raise NotApplicable unless the coarsened passage dates nothing more exactly: no other year or day-and-month
    date (a reader latches on "their 1962 hit", and "from September 10, 2009 to the 2010s" is a range with one
    exact end), no reference back to the exact value ("the following year", "a year later") and no span of
    years or decades (with another date it gives the answer back: "ending their 20-year drought")."""
    for pattern, why in (
        (_OTHER_YEAR, "the passage still states another year"),
        (_DAY_DATE, "the passage still states another date"),
        (_BACK_REFERENCE, "the passage refers back to the exact value ('the following year')"),
        (_DURATION, "the passage states a span of years ('a 20-year drought') that can give the answer back"),
    ):
        m = pattern.search(passage)
        if m:
            raise NotApplicable(f"{why}: {m.group(0)!r}")


_CLOCK_BEFORE = re.compile(r"\d{1,2}[:.]\d{2}\s*(?:[ap]\.?m\.?)?\s*(?:on|,)?\s*$", re.I)


def _has_day(item: Item) -> bool:
    d = at.parse_date(item.need_anchor()) if item.atype == at.DATE else None
    return d is not None and d.day is not None and d.year is not None


@lever(GR, tx.MEDIUM, "Answer Stated One Level Coarser", CONTEXT)
def one_level_coarser(item: Item) -> Proposal:
    """Several levels between query and passage: an exact date stated as its decade, a year as its century.

    Declined: a year as its decade (reviewers: one level, too weak for MEDIUM); a count or amount as a range
    (blind review: the range still implied a gold bound such as "more than 600", was one step only, or the
    passage's other figures still summed to the total); a person as their role ("a politician") or a place as its
    region ("Kentucky"): the first deletes the answer (MissingInfo), the second still answers "where". A date or
    year is coarsened only where nothing else in the passage dates it more exactly (`dated_only_coarsely`)."""
    item.need_anchor()
    if item.atype == at.DATE:
        if not _has_day(item):
            raise NotApplicable("the date has no day; its decade is too few levels away")
        _temporal_slot_ok(item)
    elif item.atype == at.YEAR:
        _temporal_slot_ok(item)
    elif item.atype == at.NUMBER:
        # "between 600 and 700 stores" still implies a gold "more than 600", "between 50,000 and 60,000" an
        # "over 50,000" (and invents an upper bound), "$1.06 trillion" as "between $1 and $2 trillion" is one
        # step, and a total the passage's other figures still sum to stays implied: no rule tells these apart
        raise NotApplicable("a count or amount is not coarsened: a range keeps implying the gold value or bound")
    else:
        raise NotApplicable("only a date or a year has a coarser statement that keeps the fact's kind")
    return _coarsen(item, "Stated the answer only several levels coarser (decade or century) than the query asks.")


_DATE_BEFORE = re.compile(
    r"(?:\b(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?|\d),?$|\d{4},?(?: and)?$"
)
_YEAR_LIST_AFTER = re.compile(r"^,?\s*(?:and\s+|or\s+|to\s+|[-–]\s*)?\d{4}\b")
_NAMED_BEFORE = re.compile(r"\b([A-Z][\w'’-]*),?$")  # "Christmas 2009", "the Punishment Act, 1997"
_LEADING_PREPOSITION = re.compile(r"^(?:by|on|at|since|from|until|before|after|around|circa|c\.)\s", re.I)


_DECADE = re.compile(r"\b(?:1[0-9]|20)\d0s\b|['’]\d0s\b")
_JUBILEE = re.compile(rf"\b(?:{at.ANNIVERSARY_WORDS})\b", re.I)
_TIME_OF_DAY = re.compile(r"\b(?:morning|afternoon|evening|night|dawn|dusk|noon|midnight)\s+of\s*$", re.I)
_SCHEDULED = re.compile(r"\b(?:scheduled|upcoming|set to|slated|expected|planned|will be|due to)\b[^.]*$", re.I)


def _temporal_slot_ok(item: Item) -> None:
    """Raise NotApplicable where a decade or century cannot take the answer's place: the answer opens its
    sentence or carries its own preposition ("By 1912," would become "The 20th century,"), or the year is
    part of a date or a list of years."""
    years = [int(y) for y in re.findall(r"(?<!\d)\d{4}(?!\d)", item.need_anchor())]
    if any(y % 100 == 0 for y in years):
        raise NotApplicable("a year ending in 00 sits on a century boundary that readers count both ways")
    for i in item.signal:
        decade = _DECADE.search(item.passages[i])
        if decade:  # "parody four of the most popular comics of the early 1980s": the decade narrows the century
            raise NotApplicable(f"the passage states a decade ({decade.group(0)!r}) that narrows the coarser value")
        jubilee = _JUBILEE.search(item.passages[i])
        if jubilee:  # "to mark Canada's centennial" gives 1967 back (the eightieth review's R099)
            raise NotApplicable(f"the passage marks an anniversary ({jubilee.group(0)!r}) that gives the year back")
        for a in item.answers:
            pat = answer_pattern(a)
            for m in pat.finditer(item.passages[i]) if pat else ():
                before = item.passages[i][: m.start()].rstrip()
                if before.endswith("(") or item.passages[i][m.end() :].lstrip().startswith(")"):
                    raise NotApplicable("the answer is a bracketed year after a name ('Philosopher's Stone (2001)')")
                if _TIME_OF_DAY.search(before):
                    # "on the evening of the 1980s" (the eightieth review's R030)
                    raise NotApplicable("the date follows a time of day ('the evening of'), which a decade cannot")
                if _SCHEDULED.search(before[-60:]):
                    raise NotApplicable("a scheduled date ('scheduled for release in the 2010s') reads unnaturally")
                if _LEADING_PREPOSITION.match(a) or not before or before.endswith((".", "!", "?", '"', ":")):
                    raise NotApplicable("an answer opens its sentence or carries a preposition the century cannot take")
                if item.atype == at.YEAR and (
                    _DATE_BEFORE.search(before) or _YEAR_LIST_AFTER.match(item.passages[i][m.end() :])
                ):
                    raise NotApplicable(
                        "the year is part of a date or a list of years ('1 September 1939', '1948, 1949')"
                    )
                named = _NAMED_BEFORE.search(before)
                if named and named.group(1).lower() not in PREPOSITIONS:
                    raise NotApplicable("the year follows a name ('Christmas 2009', 'the Punishment Act, 1997')")


_DO_AUXILIARY = re.compile(r"^when\s+(?:did|does|do)\s", re.I)
# words after which an -ed word is an adjective or participle, not the question's verb ("the united kingdom",
# "become a publicly traded company")
_BEFORE_PARTICIPLE = re.compile(r"^(?:the|a|an|be|become|became|get|got|been|is|was|\w+ly)$", re.I)


def _did_with_past_form(body: str) -> bool:
    """True for "when did the united kingdom entered ...": a source typo that "In what year did ..." would keep."""
    if not _DO_AUXILIARY.match(body):
        return False
    words = re.findall(r"[\w'’]+", body)[2:]
    return any(
        len(w) > 4 and w.lower().endswith("ed") and i > 0 and not _BEFORE_PARTICIPLE.match(words[i - 1])
        for i, w in enumerate(words)
    )


_MONTH_DATE_BEFORE = re.compile(
    rf"\b(?:{at.MONTH_NAMES})\.?(?:\s+\d{{1,2}})?,?\s*$|\b\d{{1,2}}\s+(?:{at.MONTH_NAMES})\.?,?\s*$"
)


@lever(GR, tx.LOW, "Year Asked of a Dated Event", QUERY)
def year_of_dated_event(item: Item) -> Proposal:
    """ "In what year did ...?" where the passage dates the answer to the month or day and a gold answer is the
    bare year: one level apart, bridged by reading the year off the date.

    Declined unless a gold answer is the year itself (a reply of "1983" against only "June 24, 1983" may be
    scored wrong, as a blind review noted), and where the passage also states the year on its own ("in 1983"):
    then the question and the passage are at the same level."""
    if item.multi:
        raise NotApplicable("the multi-passage Granularity target is the context")
    body = question_body(item.query)
    if not _WHEN_AUXILIARY.match(body):
        raise NotApplicable("the query does not ask 'when did / was ...'")
    if _did_with_past_form(body):
        raise NotApplicable(
            "the query pairs 'did' with a past form ('did the united kingdom entered'), kept by the new question"
        )
    years = [m.group("y") for a in item.answers if (m := at.YEAR_RE.fullmatch(a.strip()))]
    if not years:
        raise NotApplicable("no gold answer is the bare year")
    passage = item.passages[0]
    mentions = [m for y in years for m in re.finditer(rf"(?<![\d,.])({re.escape(y)})(?!\d)", passage)]
    if not mentions:
        raise NotApplicable("the passage does not state the answer's year")
    for m in mentions:
        if not _MONTH_DATE_BEFORE.search(passage[max(0, m.start() - 20) : m.start()]):
            raise NotApplicable("the passage states the year on its own ('in 1983'); nothing to read it off")
    return Proposal(
        as_question(_WHEN.sub("in what year", body, count=1)),
        list(item.passages),
        "Asked for the year of an event the passage dates to the month or day.",
    )


# "where is ... located", "where was ... signed", "where do ... play": a question about one spot (a building, a
# venue, the site of one act); a verb of one spot must follow the subject
_WHERE_SPOT = re.compile(
    r"^where\s+(?:is|are|was|were|did|does|do)\s+(?P<rest>.+)$",
    re.I,
)
_SPOT_VERBS = frozenset("located situated built signed held played play plays sink sank opened".split())
# questions whose subject has no single spot: events spread over venues, fiction and its setting ("where is quiet hours
# play set": "play" there is the work, not the verb; the seventy-second review's R039), films shot in many places,
# origins, regions and towns (an area, not a point) and things found in a body or a book
NOT_ONE_SPOT = re.compile(
    r"\b(?:olympics?|world cup|war|battle|fire|films?|filmed|movie|shows?|series|season|novel|book|tales?|"
    r"stor(?:y|ies)|set|setting|take place|takes place|come from|comes from|originate[sd]?|map|bible|body|cell|empire|"
    r"dynasty|colony|countr(?:y|ies)|republic|kingdom|nation|states?|province|county|region|continent|territory|district|"
    r"city|town|village|capital|islands?|rivers?|mountains?|lakes?|sea|ocean|desert|forest|valley|bay|gulf|coast|"
    r"peninsula|canyon|park|used|found|grown?|live|lives|go|goes|"
    # an oil or gas field covers an area (the seventy-third review's J005)
    r"oil\s?field|gas\s?field)\b",
    re.I,
)
_SECOND_QUESTION = re.compile(r"\b(?:what|which|who|whom|when|why|how|and)\b", re.I)
COORDINATES = re.compile(r"°|\blatitude\b|\blongitude\b|\bcoordinates?\b|\bgrid reference\b", re.I)
_NOT_A_NAME = at.PLACE_WORDS | at.ORG_WORDS | {"in", "the", "of", "at", "on"}  # "Twickenham / Wembley Stadium"
_PRECISE = "at exactly what latitude and longitude, to the nearest metre,"


@lever(GR, tx.MEDIUM, "Metre-precise Coordinates of a Named Place", QUERY)
def coordinates_of_named_place(item: Item) -> Proposal:
    """ "At exactly what latitude and longitude, to the nearest metre, is ... located?" where the passage places
    the answer only by name (a town, a stadium): the position asked lies several levels of precision below the
    one the passage gives, and nothing in the passage narrows a name down to a point (MEDIUM: blind reviews read
    a town against the metre as a finer scale of the same kind, not as categories that do not line up).

    Only for a question about one spot (a building or a venue, the site of one signing or sinking); declined for
    events spread over venues, fiction, films, origins, regions and towns (an area or a story's setting has no
    single position), where the gold answers name different places, and where the passage gives any coordinates."""
    if item.multi:
        raise NotApplicable("the multi-passage Granularity target is the context")
    body = question_body(item.query)
    m = _WHERE_SPOT.match(body)
    if not m:
        raise NotApplicable("the query does not ask 'where is / was / did ...'")
    rest = m.group("rest")
    first, *after = rest.split()
    if first.lower() in _SPOT_VERBS:
        raise NotApplicable("the verb comes before the subject ('where was held ...')")
    spot_verbs = [w for w in after if w.lower() in _SPOT_VERBS]
    other_verbs = [w for w in after if re.fullmatch(r"\w{3,}ed", w) and w.lower() not in _SPOT_VERBS]
    if other_verbs or not spot_verbs:
        # "where is X based", "where was X filmed", "where did X go", and a bare "where is X" (the tablets of
        # the ten commandments "in the Ark of the Covenant"): only the verbs of one spot are asked; an -ed word
        # inside a name ("the united nations") declines too (precision first)
        raise NotApplicable("the question's verb is not one of a single spot ('located', 'signed', 'played')")
    area = NOT_ONE_SPOT.search(rest)
    if area:
        raise NotApplicable(f"the subject has no single position: {area.group(0)!r}")
    if _SECOND_QUESTION.search(rest):
        raise NotApplicable("the query asks a second question ('where did the titanic sink at what ocean')")
    if item.atype not in (at.PLACE, at.ORGANISATION):
        raise NotApplicable("the answer is not a named place")
    item.need_anchor()
    folded = [set(re.findall(r"[a-z]+", a.lower())) - _NOT_A_NAME for a in item.answers]
    if any(not (f & folded[0]) for f in folded[1:]):
        raise NotApplicable("the gold answers name different places; coordinates of which would be asked")
    coordinates = COORDINATES.search(item.passages[0])
    if coordinates:
        raise NotApplicable(f"the passage gives a position ({coordinates.group(0)!r})")
    return Proposal(
        as_question(re.sub(r"^where\b", _PRECISE, body, count=1, flags=re.I)),
        list(item.passages),
        "Asked for the metre-precise coordinates of a place the passage names only.",
    )
