"""Shape of the values and names in new text: is each a well-formed value of its kind, as written before?

Pure text tests, shared by the semantic detectors (`malformed_rival_value`, `name_case_changed`) and the
Contradiction levers' gates. A fault is reported only when the original passages do not have it already
(a passage may itself read "in 3360 BC" or "Gary player").
"""

from __future__ import annotations

import re
from typing import Iterable, Optional, Sequence

from refusalbench.perturb import answer_types as at

MONTHS = tuple(m.capitalize() for m in at.MONTHS) + tuple("Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec".split())
_MONTH = r"(?:" + "|".join(MONTHS) + r")"
# "in March April 2018": a month directly followed by another month (a date given two months)
_TWO_MONTHS = re.compile(rf"\b{_MONTH}\.?,?\s+(?:\d{{1,2}},?\s+)?{_MONTH}\b")
# "1965–64", "1963-1961": a season or year range
_DASH_RANGE = re.compile(r"(?<![\d.,])(1\d{3}|20\d{2})\s*[–—-]\s*(\d{4}|\d{2})(?![\d.,])")
# "from 1946 through 1946", "between 1503 and 1501"
_WORD_RANGE = re.compile(
    r"\b(?:from|between)\s+(?:\w+\s+){0,2}?(1\d{3}|20\d{2})\s+(?:to|through|until|till|and)\s+"
    r"(?:\w+\s+(?:\d{1,2},?\s+)?)?(1\d{3}|20\d{2})(?!\d)"
)
# a year slot: after a month (and day), or "in/since/until/by 2017" closing a clause, or "2017 season"
_YEAR_SLOT = re.compile(
    rf"(?:\b{_MONTH}\s+(?:\d{{1,2}},?\s+)?|\b(?:in|since|until)\s+)(\d{{3,6}})(?=\s*(?:[.,;:!?)]|$))"
    r"|\b(\d{3,6})(?=[\s–-]+season\b)"
)
_PERCENT = re.compile(r"(?<![\d.,])(\d[\d,]*(?:\.\d+)?)\s*(?:%|per ?cent\b)")
_AGE = re.compile(r"\b(?:at (?:the )?age (?:of )?|aged\s+)(\d[\d,]*)\b|\b(\d[\d,]*)[\s-]+years?[\s-]+old\b")
MAX_YEAR = 2030  # the passages are from about 2018; a year beyond this is no credible rival
MAX_AGE = 130


def _range_end(start: int, end: str) -> Optional[int]:
    """The range's end year ("64" after 1963 → 1964); None when a two-digit end does not follow the start."""
    if len(end) == 4:
        return int(end)
    for k in range(1, 11):
        if (start + k) % 100 == int(end):
            return start + k
    return None


def shape_faults(text: str) -> list[str]:
    """Malformed values in `text`: two months in one date, a range ending before it starts, a year slot
    holding a truncated or impossible year, a percentage over 100, an age over 130."""
    faults = []
    for m in _TWO_MONTHS.finditer(text):
        faults.append(f"a date with two months: {m.group(0)!r}")
    for m in _DASH_RANGE.finditer(text):
        start = int(m.group(1))
        end = _range_end(start, m.group(2))
        if end is None or end <= start:
            faults.append(f"a range that ends before it starts: {m.group(0)!r}")
    for m in _WORD_RANGE.finditer(text):
        if int(m.group(2)) <= int(m.group(1)):
            faults.append(f"a range that ends before it starts: {m.group(0)!r}")
    for m in _YEAR_SLOT.finditer(text):
        year = int(m.group(1) or m.group(2))
        digits = len(m.group(1) or m.group(2))
        if year > MAX_YEAR or (m.group(2) and digits < 4):
            faults.append(f"an impossible or truncated year: {m.group(0).strip()!r}")
    for m in _PERCENT.finditer(text):
        if float(m.group(1).replace(",", "")) > 100:
            faults.append(f"a percentage over 100: {m.group(0)!r}")
    for m in _AGE.finditer(text):
        if int((m.group(1) or m.group(2)).replace(",", "")) > MAX_AGE:
            faults.append(f"an impossible age: {m.group(0)!r}")
    return faults


def new_shape_faults(added: Iterable[str], original: Sequence[str]) -> list[str]:
    """Shape faults of the added sentences whose offending text the original passages do not have."""
    before = " ".join(original)
    out = []
    for s in added:
        for fault in shape_faults(s):
            quoted = fault.split(": ", 1)[1].strip("'\"")
            if quoted not in before:
                out.append(fault)
    return out


_NOT_NAMES = frozenset(
    """the a an in on at of to for from by with and or but this that these those it its his her their he she
they we you i as after before during when while since until its however one two three first second new""".split()
)


def _name_words(passages: Sequence[str]) -> set[str]:
    """Capitalised words the passages use as part of a name: right after another capitalised word that is
    not a sentence opener ("Gary Player", "I. Marlene King")."""
    words = set()
    for m in re.finditer(r"\b([A-Z][a-z]+|[A-Z]\.)\s+(?=([A-Z][a-z]{2,})\b)", " ".join(passages)):
        if m.group(1).lower() not in _NOT_NAMES:
            words.add(m.group(2))
    return words


def lowered_names(added: Iterable[str], original: Sequence[str]) -> list[str]:
    """Names the added text copies from an original sentence with their capital lost ("states that player,
    from South Africa, was ..." from "Player, from South Africa, was ..." beside "Gary Player")."""
    names = _name_words(original)
    text = " ".join(original)
    out = []
    for s in added:
        for m in re.finditer(r"(?<![\w'’-])([a-z]{3,})((?:\W+[\w'’-]+){3})", s):
            word, rest = m.groups()
            cap = word.capitalize()
            if cap in names and (cap + rest) in text and m.group(0) not in text:
                out.append(f"{cap!r} written {word!r}: {m.group(0)[:50]!r}")
    return out
