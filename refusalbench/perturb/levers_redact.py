"""P-MissingInfo MEDIUM "Count Redacted": the count a "how many" question asks for, replaced by "an unspecified
number of", so the passage says there is a count and no longer gives it ("ran for 291 episodes" → "ran for an
unspecified number of episodes"). After a collective noun the count alone goes ("a group of 19 windmills" → "a group
of windmills"; "a group of an unspecified number of windmills" read awkwardly in the thirty-first blind review).

Declined wherever the rest could give the count back or the stand-in would not read right: any other figure,
number word or multiplier left in the passage (sums, spans) but years, an ordinal of what the query counts ("the
third level" for "how many levels") or any ordinal where years would also count, and no year
either where years can give the count back (a span, "how many years"; events or works dated one a year, "how many
times / seasons / albums"), a list of three or more
names (the count by enumeration), a count after a determiner ("its 12 members", "all 291 episodes"), or one
with no plural noun after it to count ("a population of 53,000").
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import (
    _WORD_BEFORE,
    ARTICLES,
    CONTEXT,
    PREPOSITIONS,
    Item,
    NotApplicable,
    Proposal,
    at_sentence_start,
    in_compound,
    lever,
    replace_spans,
)
from refusalbench.perturb.text import answer_pattern, capitalise, question_body, tidy

STAND_IN = "an unspecified number of"
_HOW_MANY = re.compile(r"^how\s+many\s+[a-z]", re.I)
_HEDGE = re.compile(
    r"(?:^|(?<=\s))(?:(?:more|less|fewer)\s+than|over|under|about|around|approximately|nearly|almost|roughly|"
    r"some|at\s+least|at\s+most|up\s+to|exactly|just|only)\s+$",
    re.I,
)
_DETERMINERS = ARTICLES | frozenset(
    "its his her their our my your this that these those all both each every any some the first last only other "
    "number".split()
)
_TOTAL_OF = re.compile(r"(?:^|(?<=\s))(?:a\s+)?(?:total|sum)\s+of\s+$", re.I)
# a plural noun for the stand-in to count: lower case, not a function word
_NOUN_AFTER = re.compile(r"\s+(?:[a-z][a-z-]*\s+){0,2}?[a-z][a-z-]*s\b")
_FUNCTION = PREPOSITIONS | frozenset("and or but as than that which who whose is was were are has had have".split())
_NUMBERISH = re.compile(
    r"\d|\b(?:" + "|".join(sorted(at.NUMBER_WORDS, key=len, reverse=True)) + r"|dozens?|scores?|hundreds|thousands|"
    r"millions|billions|twice|thrice|once|double|triple|single|sole|both|pair|couple|trio|quartet|half)\b",
    re.I,
)
_ORDINAL = re.compile(
    r"\b(?:second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\w+teenth|twentieth|last|"
    r"final|top)\b((?:[\s-]+[\w'’]+){0,3})",
    re.I,
)


def _counted_stem(query: str) -> str:
    """The stem of the plural the query counts ("how many levels ..." → "level", "countries" → "countr")."""
    words = re.findall(r"[a-z]+", query.lower().split("how many", 1)[-1])
    noun = next((w for w in words[:4] if w.endswith("s") and len(w) > 3), words[0] if words else "")
    return noun[:-3] if noun.endswith("ies") else noun[:-1] if noun.endswith("s") else noun


_YEAR = re.compile(r"(?<![\d,.])(?:1[0-9]|20)\d\d(?![\d,.]\d)(?!\d)")
# a count that years can give back: a span ("how many years", "how old"), or events and works dated one a year
# ("won in 1960, 1985 and 1998" counts the titles, "aired from 2009 to 2017" the seasons)
_SPAN_QUERY = re.compile(
    r"\b(?:years?|decades?|centur(?:y|ies)|old|age|times|seasons|series|terms|editions|titles|championships|cups|"
    r"trophies|wins|medals|games|tournaments|elections|olympics|albums|films|movies|books|novels|songs|singles|"
    r"awards|grammys|oscars|presidents|ceremonies|matches|races|finals|bowls|rings|pennants|volumes|sequels)\b",
    re.I,
)
# "A, B, C and D": three or more short items, the count by enumeration
_LIST = re.compile(r"(?:[^,.;]{1,40},\s+){2,}(?:and|or)\s+[^,.;]{1,40}")
# the counted things listed right after the stand-in's noun, with or without a serial comma: "an unspecified number
# of languages: Oshiwambo, English, Afrikaans and Rukwangali" (the fifty-eighth review's R011)
_MEMBERS_LISTED = re.compile(rf"{STAND_IN}\s+(?:[\w-]+\s+){{0,2}}?[\w-]+s\s*[:(–—]\s*[^.;]*,[^.;]*\b(?:and|or)\b", re.I)


# a collective noun that already says "several" ("a record fleet of", "a small group of"): the count alone goes
_COLLECTIVE_OF = re.compile(
    r"\b(?:a|an)\s+(?:[\w-]+\s+){0,2}?(?:group|fleet|collection|team|set|series|network|chain|cluster|crew|field|"
    r"cast|squad|flotilla|convoy|string|row|range|flock|herd|pack|troupe|delegation|contingent|panel|roster)\s+of\s+$",
    re.I,
)


# a count in a phrase that opens its sentence: "With around 410,000 weekly listeners, it is ...", "Rated at 44 guns,
# she was ..." ("With an unspecified number of weekly listeners" and "Rated at an unspecified number of guns" read
# as stilted in the forty-seventh review's R001 and the fifty-eighth's R025): the whole phrase goes instead
_OPENER = re.compile(r"(?:With|Rated\s+at|[A-Z][a-z]+(?:ed|ing)(?:\s+(?:at|with|by|to|of))?)\s+$")
_OPENER_REST = re.compile(r"(?:\s+[a-z][\w'-]*){1,4},\s+(?=[a-z])")
_SENTENCE_BEGINS = re.compile(r"(?:^|(?<=[.!?])\s+)(?=\S)")


_COUNTING_VERB = re.compile(r"\b(?:numbered|numbers|numbering|totall?ed|totals|totall?ing|counted|counts)\s+$", re.I)


def _opening_phrase_end(text: str, start: int, m: re.Match) -> tuple[int, int] | None:
    """(phrase start, main clause start) where the count at `start`..`m.end()` stands in a short phrase that opens
    its sentence and is followed by a comma and a lower-case main clause, else None."""
    opening = [b.end() for b in _SENTENCE_BEGINS.finditer(text[:start])]
    if not opening or not _OPENER.fullmatch(text[opening[-1] : start]):
        return None
    rest = _OPENER_REST.match(text, m.end())
    return (opening[-1], rest.end()) if rest else None


def _slot(text: str, m: re.Match) -> tuple:
    """Where the stand-in goes for one stated count (a hedge before it goes with it), or NotApplicable."""
    if in_compound(text, m.start(), m.end()):
        raise NotApplicable("the count is part of a compound ('a 12-member board')")
    start = m.start()
    hedge = _HEDGE.search(text[:start])
    if hedge:
        start = hedge.start()
    if _COUNTING_VERB.search(text[:start]):
        # "the community numbered an unspecified number of nuns" (the sixty-first review's R103)
        raise NotApplicable("a verb of counting comes before the count ('numbered', 'totalled')")
    total = _TOTAL_OF.search(text[:start])
    if total:  # "a total of 360 members" → "an unspecified number of members"
        start = total.start()
    w = _WORD_BEFORE.search(text[:start])
    if w and w.group(1).lower() in _DETERMINERS:
        raise NotApplicable("the count follows a determiner ('its 12 members', 'all 291 episodes')")
    noun = _NOUN_AFTER.match(text, m.end())
    first = text[m.end() :].split(maxsplit=1)[0] if text[m.end() :].strip() else ""
    if not noun or first.lower() in _FUNCTION or not first[:1].islower():
        raise NotApplicable("no plural noun follows the count for 'an unspecified number of' to count")
    phrase = _opening_phrase_end(text, start, m)
    if phrase:  # the main clause opens the sentence instead: "It is the most listened-to ..."
        return phrase[0], text[phrase[1]].upper(), phrase[1] + 1
    if not total and _COLLECTIVE_OF.search(text[:start]):
        # "a group of 19 windmills" → "a group of windmills", not "a group of an unspecified number of windmills"
        return start, ""
    return start, capitalise(STAND_IN) if at_sentence_start(text[:start]) else STAND_IN


_COUNT = re.compile(
    r"(?:(?:more|less|fewer)\s+than\s+|over\s+|about\s+|around\s+|approximately\s+|nearly\s+|almost\s+)?"
    r"(\d[\d,.]*(?:\s+(?:thousand|million|billion))?|[a-z]+)\b",
    re.I,
)


def _count_of(answer: str) -> str | None:
    """The figure of a count answer without its hedge or noun ("more than 203 members" → "203"); the noun stays
    in the passage for the stand-in to count."""
    m = _COUNT.match(answer.strip())
    if not m or not (m.group(1)[0].isdigit() or m.group(1).lower() in at.NUMBER_WORDS):
        return None
    return m.group(1)


@lever(tx.MISSING_INFO, tx.MEDIUM, "Count Redacted", CONTEXT)
def count_redacted(item: Item) -> Proposal:
    item.need_anchor()
    if not _HOW_MANY.match(question_body(item.query)) or item.atype != at.NUMBER:
        raise NotApplicable("the query does not ask 'how many' for a count")
    pieces = sorted({c for a in item.answers if (c := _count_of(a))}, key=len, reverse=True)
    if not pieces:
        raise NotApplicable("no answer is a count written in figures or number words")
    alternatives = [p.pattern for p in (answer_pattern(a) for a in pieces) if p is not None]
    union = re.compile("|".join(f"(?:{a})" for a in alternatives), re.I)

    def edit(passage: str) -> str:
        new = replace_spans(passage, union, _slot)
        if new == passage:
            return passage
        rest = new.replace(STAND_IN, "").replace(capitalise(STAND_IN), "")
        years = set(_YEAR.findall(rest))
        if years and _SPAN_QUERY.search(item.query):
            raise NotApplicable(f"years stay in the passage ({sorted(years)}) that could give the count")
        left = _NUMBERISH.search(_YEAR.sub(" ", rest))
        if left:
            raise NotApplicable(f"another figure or number word stays ({left.group(0)!r}) and could give the count")
        stem = _counted_stem(item.query)
        for m in _ORDINAL.finditer(rest):
            # "the third level is the top" counts the levels; "the second-largest chain" counts no store
            if _SPAN_QUERY.search(item.query) or not stem or re.search(rf"\b{re.escape(stem)}", m.group(1), re.I):
                raise NotApplicable(f"an ordinal of what the query counts stays ({m.group(0)!r})")
        if _LIST.search(new) or _MEMBERS_LISTED.search(new):
            raise NotApplicable("the passage lists three or more items, which can be counted")
        return tidy(new)

    passages = item.edit_signal(edit)
    return Proposal(
        item.query,
        passages,
        "Replaced the count the 'how many' question asks for with 'an unspecified number of' (after 'a group of' and "
        "the like, removed it; in a short phrase opening its sentence, removed the phrase).",
    )
