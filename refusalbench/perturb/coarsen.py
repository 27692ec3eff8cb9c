"""Coarser descriptions of an answer value: date → year → decade → century, number → range →
order of magnitude, person → the role group they belong to → a collective, place → its region → Earth.

`coarse_phrase(item, level)` gives the replacement text for level 1 (one step coarser than the
query asks) or 2 (far coarser); `coarsen_passage` rewrites a passage with it, fixing the
preposition in front of a date ("on May 18, 2018" → "in 2018").
"""

from __future__ import annotations

import math
import re
from typing import Optional

from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import Item, NotApplicable
from refusalbench.perturb.text import answer_pattern, capitalise, contains_any, split_sentences, tidy

# query verb → (a member of the group, the definite form, a collective far above the person)
ROLES = (
    (r"\b(?:play|plays|played|playing|portray\w*|star\w*|voice[sd]?|voicing|act\w*|cast)\b",
     "a member of the cast", "that cast member", "the film and television industry"),
    (r"\b(?:sing|sings|sang|sung|singing|perform\w*|record\w*|song)\b",
     "a recording artist", "that recording artist", "the music industry"),
    (r"\b(?:write|writes|wrote|written|writing|compos\w*|author\w*|pen\w*)\b",
     "a writer", "that writer", "the world of letters"),
    (r"\b(?:direct\w*|produc\w*)\b", "a film-maker", "that film-maker", "the film industry"),
    (r"\b(?:invent\w*|discover\w*|develop\w*|creat\w*|found\w*|design\w*|built|build\w*|propos\w*|coin\w*)\b",
     "an innovator", "that innovator", "humanity as a whole"),
    (r"\b(?:win|wins|won|winning|score\w*|beat\w*|coach\w*|captain\w*|champion\w*|record holder|mvp|player|"
     r"medal\w*|olympic\w*|athlete|race|cup|league|match|tournament)\b",
     "a competitor", "that competitor", "the sporting world"),
    (r"\b(?:president|king|queen|prime minister|rule[sd]?|ruling|govern\w*|elect\w*|leader|chancellor|minister|senator|mayor)\b",
     "a politician", "that politician", "the political class"),
)
FALLBACK_ROLE = ("an individual", "that individual", "society as a whole")


def role(query: str) -> tuple[str, str, str]:
    for pattern, member, definite, collective in ROLES:
        if re.search(pattern, query, re.I):
            return member, definite, collective
    return FALLBACK_ROLE


def decade(year: int) -> str:
    return f"the {year // 10 * 10}s"


def century(year: int) -> str:
    n = (year - 1) // 100 + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"the {n}{suffix} century"


def region_of(item: Item, passage: str) -> Optional[tuple[str, str]]:
    """(text to replace, region) for a place answer written "<place>, <Region>" in the passage or answer."""
    anchor = item.need_anchor()
    m = re.fullmatch(r"(.+?),\s+([A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,2})", anchor)
    if m:
        return anchor, m.group(2)
    pat = answer_pattern(anchor)
    m = re.search(pat.pattern + r",\s+([A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,2})", passage, re.I) if pat else None
    return (m.group(0), m.group(1)) if m else None


def number_phrase(num: at.NumberValue, level: int) -> Optional[str]:
    """A range (level 1) or an order-of-magnitude phrase (level 2) around the number, with its unit."""
    value = num.magnitude
    if value <= 0 or num.prefix.strip() in ("$", "£", "€") and level == 2:
        return None
    cur = num.prefix.strip() if num.prefix.strip() in ("$", "£", "€") else ""
    if level == 1:
        if value < 10:
            phrase = "fewer than ten"
        else:
            step = 10 ** int(math.floor(math.log10(value)))
            lo = int(value // step * step)
            phrase = f"between {cur}{lo:,} and {cur}{lo + step:,}"
    else:
        words = ((10, "a number of"), (100, "dozens of"), (1e3, "hundreds of"), (1e6, "thousands of"), (1e9, "millions of"))
        phrase = next((w for limit, w in words if value < limit), "billions of")
    return f"{phrase}{num.unit}"


def coarse_phrase(item: Item, level: int, passage: str = "") -> tuple[str, str]:
    """(what to replace: the anchor or a longer span, replacement) for one coarsening level."""
    anchor = item.need_anchor()
    t = item.atype
    if t == at.DATE:
        d = at.parse_date(anchor)
        if d is None or d.year is None:
            raise NotApplicable("the date has no year to coarsen to")
        return anchor, [str(d.year), decade(d.year), century(d.year)][level - 1]
    if t == at.YEAR:
        year = at.parse_year(anchor)
        lead = "in " if anchor.lower().startswith("in ") else ""
        return anchor, lead + [decade(year), century(year)][min(level, 2) - 1]
    if t == at.NUMBER:
        num = at.parse_number(anchor)
        phrase = number_phrase(num, level) if num else None
        if not phrase:
            raise NotApplicable("the number cannot be put as a range")
        return anchor, phrase
    if t == at.PERSON:
        member, _, collective = role(item.query)
        return anchor, member if level == 1 else collective
    if t == at.PLACE:
        if level == 2:
            return anchor, "somewhere on Earth"
        found = region_of(item, passage)
        if not found:
            raise NotApplicable("the passage names no larger region for the place")
        return found
    raise NotApplicable(f"a {t} answer has no coarser level")


_DATE_PREP = r"\b(?:on|in)\s+"


def coarsen_passage(item: Item, passage: str, level: int, name_tokens: list[str] = ()) -> str:
    """Every statement of the answer in `passage` replaced by its coarser description."""
    target, phrase = coarse_phrase(item, level, passage)
    text = passage
    temporal = item.atype in (at.DATE, at.YEAR)
    same_type = [a for a in item.answers if at.detect(a, item.query) == item.atype] + item.aliases()
    pieces = [target] + [a for a in same_type if a != target and (item.atype != at.PLACE or level == 2)]
    for piece in sorted(set(pieces), key=len, reverse=True):
        pat = answer_pattern(piece)
        if pat is None:
            continue
        if re.search(pat.pattern + r"-", text, re.I):
            raise NotApplicable("the answer is part of a hyphenated compound")
        if temporal:
            text = re.sub(_DATE_PREP + pat.pattern, "in " + phrase, text, flags=re.I)
        elif item.atype == at.PLACE and level == 2:
            text = re.sub(r"\b(?:in|at)\s+(?:the\s+)?" + pat.pattern, phrase, text, flags=re.I)
        text = pat.sub(lambda _m: phrase, text)
    for w in name_tokens:
        text = re.sub(rf"(?<!\w){re.escape(w)}(?!\w)", phrase, text)
    text = re.sub(rf"(?:{re.escape(phrase)})(?:\s+{re.escape(phrase)})+", phrase, text)
    if contains_any(text, [a for a in item.answers if a not in same_type]):
        raise NotApplicable("another answer of a different type still answers the query")
    return " ".join(capitalise(s) for s in split_sentences(tidy(text)))
