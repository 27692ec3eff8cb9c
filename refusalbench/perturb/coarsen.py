"""A date or year stated several levels coarser: an exact date as its decade, a year as its century.

`coarse_phrase(item)` gives the replacement text; `coarsen_passage` rewrites a passage with it, fixing the
preposition in front of a date ("on May 18, 2018" → "in the 2010s"). Counts, amounts, people and places are
not coarsened (see `levers_granularity.one_level_coarser` for why).
"""

from __future__ import annotations

import re

from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import (
    _SENTENCE_START,
    _WORD_BEFORE,
    ARTICLES,
    PREPOSITIONS,
    Item,
    NotApplicable,
    a_or_an,
    at_sentence_start,
    in_compound,
    replace_spans,
)
from refusalbench.perturb.text import (
    FLOWS_ON,
    answer_pattern,
    capitalise,
    contains,
    contains_any,
    split_sentences,
    tidy,
)


def decade(year: int) -> str:
    return f"the {year // 10 * 10}s"


def century(year: int) -> str:
    n = (year - 1) // 100 + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"the {n}{suffix} century"


def coarse_phrase(item: Item) -> tuple[str, str]:
    """(the anchor to replace, its coarser statement): a date's decade, a year's century."""
    anchor = item.need_anchor()
    if item.atype == at.DATE:
        d = at.parse_date(anchor)
        if d is None or d.year is None:
            raise NotApplicable("the date has no year to coarsen to")
        return anchor, decade(d.year)
    if item.atype == at.YEAR:
        lead = "in " if anchor.lower().startswith("in ") else ""
        return anchor, lead + century(at.parse_year(anchor))
    raise NotApplicable(f"a {item.atype} answer is not coarsened")


_DATE_PREP = ("on", "in")
_POSSESSIVES = frozenset("his her its their our my your".split())


def attributive(phrase: str) -> str:
    """A time phrase as a modifier: "the 1960s" → "1960s", "the 20th century" → "20th-century"."""
    phrase = phrase.removeprefix("in ").removeprefix("the ")
    return phrase.replace(" century", "-century")


# a part of a year named before the year: "the summer of", "the end of"
_WITHIN_YEAR = re.compile(
    r"\b(?:spring|summer|autumn|fall|winter|end|start|beginning|middle|close|half|quarter)\s+of\s+$", re.I
)
# a year that bounds a period: "Since 1957, when ..." would become "Since the 20th century", which reads as the
# century's start (the sixty-fourth review's R017)
_PERIOD_BOUND = re.compile(r"\b(?:since|until|till|through|from)\s+$", re.I)
# a date written "September 6, 1991", whose year a comma closes in running text; the comma goes with the date where
# the sentence flows on ("released on September 6, 1991, by ..."), not where it closes an opening phrase ("First
# published on March 1, 1981, it is aimed ...": the sixtieth review's R043)
_US_DATE = re.compile(r"\d{1,2},\s*\d{4}$")
_CLOSING_COMMA = re.compile(rf",\s+{FLOWS_ON}")


def coarsen_passage(item: Item, passage: str) -> str:
    """Every statement of the answer in `passage` replaced by its coarser description.

    A date's "on"/"in" becomes "in" ("on May 18, 2018" → "in the 2010s"); a year used as a modifier after
    "a" becomes an adjective ("a 1967 film" → "a 20th-century film") and after "the" (an event named by its
    year: "the 1998 World Cup") is not coarsened; two answers in one sentence would collapse into one
    description and make the lever not applicable.
    """
    target, phrase = coarse_phrase(item)
    same_type = [a for a in item.answers if at.detect(a, item.query) == item.atype] + item.aliases()
    pieces = sorted({target, *same_type}, key=len, reverse=True)
    alternatives = [p.pattern for p in (answer_pattern(x) for x in pieces) if p is not None]
    if not alternatives:
        raise NotApplicable("no answer to coarsen")
    union = re.compile("|".join(f"(?:{a})" for a in alternatives), re.I)
    for sentence in split_sentences(passage):
        named = {
            next(
                (a for a in sorted(item.answers, key=len, reverse=True) if contains(a, m.group(0))), m.group(0).lower()
            )
            for m in union.finditer(sentence)
        }
        if len(named) > 1:
            raise NotApplicable("a sentence names several answers, which one description would merge")

    def decide(text: str, m: re.Match) -> tuple[int, str]:
        if in_compound(text, m.start(), m.end()):
            raise NotApplicable("the answer is part of a compound")
        begin, matched = m.start(), m.group(0)
        # a gold answer with its verb ("published in 1994"): only the date phrase changes, the verb stays
        core = re.search(rf"\b(?:on|in)\s+|\d|\b(?:{at.MONTH_NAMES})\b", matched, re.I)
        if core and core.start() > 0:
            begin, matched = m.start() + core.start(), matched[core.start() :]
        before, after = text[:begin], text[m.end() :]
        if _WITHIN_YEAR.search(before):
            # "during the summer of 1997" would become "the summer of the 1990s" (the fifty-ninth review's R040)
            raise NotApplicable("the passage dates something within the year ('the summer of 1997')")
        if _PERIOD_BOUND.search(before):
            raise NotApplicable("the year bounds a period ('since 1957'); coarsened, it would read as the start")
        w = _WORD_BEFORE.search(before)
        prev = w.group(1).lower() if w else ""
        start, repl = begin, phrase
        if (
            w
            and w.group(1)[:1].isupper()
            and not _SENTENCE_START.search(before[: w.start(1)])
            and prev not in PREPOSITIONS
            and at.parse_date(w.group(1) + " 1") is None
        ):
            raise NotApplicable('the year is part of a name ("Housing Act 1980")')
        lead = matched.split(maxsplit=1)[0].lower()
        if lead in _DATE_PREP and len(matched.split()) > 1:
            # the matched answer carries its own preposition ("in 1931"): keep one
            repl = "in " + phrase.removeprefix("in ")
        elif prev in _POSSESSIVES and re.match(r"\s+[\w-]", after):
            repl = attributive(phrase)  # "their 1973 album" → "their 20th-century album"
        elif prev in _DATE_PREP:
            start, repl = w.start(1), "in " + phrase.removeprefix("in ")
        elif prev in ARTICLES or re.search(r"'s\s+$", before):
            if prev not in ("a", "an") or not re.match(r"\s+[\w-]", after):
                raise NotApplicable('the year names a specific event ("the 1998 World Cup")')
            adj = attributive(phrase)
            start, repl = w.start(1), f"{a_or_an(adj)} {adj}"
        if at_sentence_start(text[:start]):
            return start, capitalise(repl)
        if _US_DATE.search(matched) and _CLOSING_COMMA.match(after) and not before.rstrip().endswith(","):
            # "released on September 6, 1991, by ...": the comma that closed the date goes with it (R024)
            return start, repl, m.end() + 1
        return start, repl

    text = replace_spans(passage, union, decide)
    if contains_any(text, [a for a in item.answers if a not in same_type]):
        raise NotApplicable("another answer of a different type still answers the query")
    return tidy(text)
