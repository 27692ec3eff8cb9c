"""P-MissingInfo MEDIUM: the time adjunct that answers a "when" question removed, the event it dated kept.

"It was released as a single on 3 May 1983 by Warner Bros. Records." becomes "It was released as a single by
Warner Bros. Records.": the passage still tells what happened, never when. The cut takes the whole prepositional
phrase ("on 3 May 1983", "in May 1983", "in 1983") and only where that phrase alone states the answer; it declines
where anything left could date the event again (a clock time, another year, a decade, a month, an age, a duration,
an ordinal edition, a named era such as a war), where "the following year" in its sentence would count from it,
where the verb before it would be left bare ("It premiered.", "It was released and written by ..."), where it was a
bracket's whole content, and inside quotations.
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import CONTEXT, Item, NotApplicable, Proposal, lever
from refusalbench.perturb.missing_gates import TIME_POINTER
from refusalbench.perturb.text import (
    FLOWS_ON,
    IRREGULAR_PARTICIPLES,
    capitalise,
    contains_any,
    inside_quotes,
    raw_contains_any,
    tidy,
)

MI = tx.MISSING_INFO

_DAY = at.DAY_NUMBER
_MONTH = at.MONTH_NAME
_YEAR = at.MODERN_YEAR
# the phrase with its preposition, and a comma right after it
_ADJUNCT = re.compile(
    rf"\b(?:[Oo]n\s+(?:{_DAY}\s+{_MONTH}|{_MONTH}\s+{_DAY},?)|[Ii]n\s+(?:{_MONTH},?\s+)?)\s*{_YEAR}\b(?P<comma>,)?"
    r"(?!\s*(?:[-–—]|to\b|and\s+\d))"
)
_WHEN_QUESTION = re.compile(r"^(?:when|what\s+(?:year|date)|which\s+year|in\s+what\s+year)\b", re.I)
# what could date the event again once the phrase is gone: a clock time ("At about 8:20 p.m.,"), a year, a decade
# ("the 1990s": the thirty-seventh review's R012), a month, an age, a duration, an ordinal edition, a named era
# ("the Klondike Gold Rush": R027)
_TIME_HINT = re.compile(
    rf"\b{_YEAR}\b|\b(?:1[5-9]|20)?\d0s\b|'\d0s|\bcentur(?:y|ies)\b|\b{_MONTH}\b|\bage[sd]?\s+\d|\b\d+(?:-|\s+)years?\b"
    r"|\b\d{1,2}[:.]\d\d\b|\b[ap]\.m\b|\b\d+(?:st|nd|rd|th)\b|\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\s+"
    r"(?:annual|edition|season|series|anniversary|congress|ceremony)\b"
    r"|\b(?:War|Olympics?|Depression|Revolution|Cup|Super Bowl|World Series|Expo|Jubilee|Prohibition|Reformation|"
    r"Renaissance|Era|Age|Rush|Dynasty|Reign|Regency|Occupation)\b",
)
# a verb or participle right before the phrase: where the sentence ends after the phrase ("It premiered on 3 May
# 1983.") or goes on with "and" or a comma, the verb is left bare ("It premiered.", "released and written by")
_BARE_VERB = re.compile(
    rf"\b(?:\w+ed|\w+ing|{IRREGULAR_PARTICIPLES}|begin|open|opens|"
    r"release|released|airs|aired|ended|died|came|went|ran|took place)\s*$",
    re.I,
)
_SENTENCE_END = re.compile(r"\s*(?:[.!?;]|$)")
_SENTENCE_END_AFTER = re.compile(r"[.!?](?=\s|$)")
_FLOWS_ON = re.compile(rf"\s*{FLOWS_ON}")
# a name of the removed date in apposition, up to the sentence's end: ", International Mother Language Day."
_NAMES_THE_DAY = re.compile(r"\s+(?:the\s+)?[A-Z][\w'’-]*(?:\s+(?:of\s+)?[A-Z][\w'’-]*)*\s*[.;]")


def _cut(passage: str, m: re.Match) -> str | None:
    """The passage without the phrase, its commas mended; None where what is left would read badly."""
    before, after = passage[: m.start()], passage[m.end() :]
    if not before.strip() or re.search(r"[.!?][\"')\]]*\s*$", before):
        # the sentence opens on the phrase ("On 3 May 1983, the band ..."): its next word opens it instead
        rest = after.lstrip(" ,")
        return before + capitalise(rest) if rest[:1].isalpha() else None
    stripped = before.rstrip()
    if stripped.endswith(("(", "[")) or after.lstrip(" ,").startswith((")", "]")):
        return None  # "(in 2003, )": the phrase was a bracket's whole content
    comma = bool(m.group("comma"))
    if comma and _NAMES_THE_DAY.match(after):
        return None  # "on 21 February 2014, International Mother Language Day." would name the government the day
    ends = bool(_SENTENCE_END.match(after))
    if _BARE_VERB.search(stripped) and (
        ends or re.match(r"\s*,?\s*and\b", after) or (comma and not _FLOWS_ON.match(after))
    ):
        return None  # "It premiered." / "It was released and written by ..." / "The song, released, reached ..."
    if stripped.endswith(","):
        # ", on 3 May 1983, was ..." or ", in 1983.": the phrase was set off, and its commas go with it
        if ends:
            return stripped[:-1] + after
        return (stripped[:-1] + " " + after.lstrip(" ,")) if comma else stripped + after
    if comma and not _FLOWS_ON.match(after):
        return stripped + "," + after  # the comma opens what follows ("..., reaching number 5")
    return stripped + (" " + after.lstrip(" ,") if comma else after)


@lever(MI, tx.MEDIUM, "Missing Temporal Adjunct", CONTEXT)
def temporal_adjunct(item: Item) -> Proposal:
    """A "when" question's dating phrase removed where it alone states the answer and nothing left dates it."""
    item.need_anchor()
    if not _WHEN_QUESTION.match(item.query.strip()):
        raise NotApplicable("not a 'when' question")
    dated = [a for a in item.answers if at.parse_date(a) or at.parse_year(a)]
    if not dated:
        raise NotApplicable("no answer is a date or a year")

    def edit(passage: str) -> str:
        spans = [m for m in _ADJUNCT.finditer(passage) if contains_any(m.group(0), dated)]
        if len(spans) != 1 or inside_quotes(passage, spans[0].start()):
            return passage
        new = _cut(passage, spans[0])
        if new is None or raw_contains_any(new, item.answers) or _TIME_HINT.search(new):
            return passage
        cut_at = max(0, spans[0].start() - 2)  # the cut phrase may have ended its sentence: its full stop is now here
        sentence_end = _SENTENCE_END_AFTER.search(new, cut_at)
        if TIME_POINTER.search(new, cut_at, sentence_end.end() if sentence_end else len(new)):
            # "for Windows on November 4, 2014, and for PlayStation 4 in the following year" (the fifty-ninth
            # review's R026): in the cut's own sentence the pointer reads as dating the same event (in a later
            # sentence, "It received the Prix Louis-Delluc the following year", it was judged valid four times)
            raise NotApplicable("a time phrase after the cut counts from the removed date ('the following year')")
        return tidy(new)

    passages = item.edit_signal(edit)
    return Proposal(
        item.query, passages, "Removed the phrase that dates the event the question asks about; the event stays."
    )
