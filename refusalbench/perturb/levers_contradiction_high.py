"""P-Contradiction HIGH: the passage says the dated event had not yet taken place by the end of its stated year.

The levers of the other intensities and the restatement machinery they share are in `levers_contradiction`.
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import NOISE, Item, NotApplicable, Proposal, lever
from refusalbench.perturb.levers_contradiction import CO, YEAR_TOKEN, conflict, dated_gates, other_figure
from refusalbench.perturb.not_yet import WORDINGS, not_yet
from refusalbench.perturb.text import IRREGULAR_PARTICIPLES

# Two earlier designs are out of the rotation. "Order-of-Magnitude Numeric Clash" (the same source restating a count
# ten times larger): in the thirty-first blind review, on fresh items rich in counts, 6 of its 15 items were valid.
# A tenfold count reads to a careful reader as a slip of the keyboard when the passage
# bounds it ("170 villages" beside a population of 4,312, "960 musicians" in a converted warehouse, "150 member
# states" of a regional accord), which no rule sees; gates on small counts, physical measures and a second figure
# in the restatement (after the twenty-ninth review) were not enough.
#
# "Life/Death Status Inconsistency" ("<person> died in <year>." closing a passage that dates the person's act 8-15
# years later), tried after it: in the thirty-second blind review 19 of 21 of
# its "who" items were valid, in the thirty-third 0 of 12 (both annotators: the death clashes with the person's
# dates, not with who did the act, and no rival is named), and its "when" form read 0 of 9 strictly in the
# thirty-fourth (one annotator: the date asked is never contested by another value). A careful reader may answer
# and flag the inconsistency; precision first.

# Two flat statements in the passage's own voice, no source named: the second says the event had not yet taken place
# by the end of the year the first gives it, so the passage asserts the event in that year and denies it. One-time
# dated facts only, with the dual-dates gates: an event that an added one ("He also won the 1994 contest"), a periodic
# edition or a stated chronology could reconcile is no contradiction at all.
# Earlier forms restated the sentence with another year and denied the stated one ("It opened on 2 April 1966, and
# not in 1964."; before that "...; that did not happen in 1964."): read as stilted in the forty-fourth and
# forty-ninth reviews, and as a mechanical copy of the sentence before it, or an erratum, by one annotator in every
# review since (six of six items in the seventy-eighth).
# after the date, only a short phrase saying where or by whom ("on 9 March 1873 by Bishop Okafor", "from Kourou")
_PLACE_OR_AGENT = re.compile(r"(?:by|in|at|from|aboard|near|off|on|to|with|under|for)\b", re.I)
_GOES_ON = re.compile(r"\b(?:and|or|but|which|who|where|when|while|after|before|as)\b|\d", re.I)
_TWO_PREDICATES = re.compile(
    rf"\band\s+(?:first\s+|later\s+|then\s+)?(?:[a-z]+ed|was|were|is|are|has|had|{IRREGULAR_PARTICIPLES})\b"
)
# a phrase set off by a comma before the sentence's subject ("Hit by the economic crisis, the airline ceased ..."),
# which the restatement would repeat word for word (the sixty-seventh review's R034)
_OPENING_PHRASE = re.compile(
    r"^(?:[A-Z][a-z]+(?:ed|ing)|Hit|Built|Made|Set|Held|Founded|After|Before|During|Following|Despite|With|Under|"
    r"Unlike|Like|As|Amid)\b[^,]*,\s"
)
# an aside right after the sentence's subject that states facts of its own, a figure or a second predicate: "The
# tower, 23 metres high and built of local granite, was ..." (not a list of places, "in Deerfield Beach, Florida and
# Pompano Beach, Florida in 1982", judged valid in the forty-third review)
_ASIDE = re.compile(r"^(?:The|A|An|Its|His|Her|Their)\s+(?:[\w'’-]+\s+){0,3}?[\w'’-]+,\s[^,]*(?:\d|\sand\s)[^,]*,\s")
# ... or what it is known for ("He is best known for leading the survey in 1986": the seventy-second review's R020)
_DESCRIBED = re.compile(r"\b(?:is|was|are|were)\s+(?:a|an|the|one|(?:best\s+|widely\s+|also\s+)?known)\b", re.I)
# a restatement opening on a personal pronoun, and a second clause after the answer's date that brings in a new thing
# ("and its members were transferred to a newly formed unit"), which such a pronoun could point to instead ("and the
# ISS is now the largest human-made body" brings in none: the forty-third and fiftieth reviews judged it valid)
_PRONOUN_SUBJECT = re.compile(r"(?:It|Its|He|His|She|Her|They|Their)\b")
_SECOND_CLAUSE = re.compile(
    r",?\s+(?:and|but|while|whereas)\s+(?:its|his|her|their|the|a|an)\s+(?:[\w'’-]+\s+){0,3}?"
    r"(?:was|were|is|are|had|has|became|moved|passed|joined)\b"
)
_NEW_THING = re.compile(r"\b(?:a|an|another)\s+[a-z]")
# a plan, not a fact: "is scheduled to be released on May 18, 2016; that did not happen in 2018" denies what
# was never said to have happened
_PLANNED = re.compile(r"\b(?:scheduled|upcoming|set to|slated|expected|planned|will|due to|to be)\b", re.I)


@lever(CO, tx.HIGH, "Mutual Exclusion Claim", NOISE)
def mutual_exclusion(item: Item) -> Proposal:
    """The dated event denied for its whole stated year ("The bridge had not yet opened by the end of 1931." after
    "The bridge opened on 12 June 1931."), built from the sentence restated up to its date (`not_yet`)."""
    item.need_anchor()
    if item.atype not in (at.DATE, at.YEAR):
        raise NotApplicable("the answer is not a date")
    # a rival date is drawn only so that the restatement, and the gates that read it, take the shape they had when
    # the statement gave the event another year: the denial itself names the stated year alone
    value = other_figure(item)
    year = YEAR_TOKEN.findall(item.anchor_text)[0]
    wording = item.rng.choice(WORDINGS)

    def gate(original: str, new: str) -> None:
        if YEAR_TOKEN.findall(original) != [year]:
            # "with Ice Age in 2002, Ice Age: The Meltdown in 2006, ...": the cut core would drop dates of other things
            raise NotApplicable("the answer sentence names another year, or the answer's twice")
        if _PLANNED.search(original):
            raise NotApplicable("the answer sentence states a plan ('scheduled to'), not an event that took place")
        if _ASIDE.search(new[: new.find(value)]):
            # "The tower, 23 metres high and built of local granite, was first lit on ..., not in 1856." repeats the
            # aside's facts (the fifty-seventh review's R035; "in Windsor, Ontario, on" stays)
            raise NotApplicable("an aside with facts of its own comes before the date; the restatement would repeat it")
        tail = new[new.find(value) + len(value) :].strip(" .")
        if tail and (not _PLACE_OR_AGENT.match(tail) or _GOES_ON.search(tail)):
            raise NotApplicable(
                "the answer sentence goes on after the date ('premiered in 2019 and ran for 16 episodes'); the "
                "denial would not follow the date it denies"
            )
        opening = _OPENING_PHRASE.match(new)
        if opening and opening.end() <= new.find(value):
            raise NotApplicable(
                "a phrase set off by a comma opens the answer sentence; the restatement would repeat it"
            )
        if _TWO_PREDICATES.search(new[: new.find(value)]):
            raise NotApplicable(
                "the answer sentence states another fact before the date ('was written by ... and first released "
                "on'), which the restatement would copy"
            )
        if _DESCRIBED.search(new[: new.find(value)]):
            raise NotApplicable(
                "the answer sentence describes what the subject is ('is an oil painting'); the denial would have no "
                "plain event to deny"
            )
        at = original.find(item.anchor_text)
        after = original[at + len(item.anchor_text) :] if at >= 0 else ""
        clause = _SECOND_CLAUSE.search(after)
        if _PRONOUN_SUBJECT.match(new) and clause and _NEW_THING.search(after, clause.end()):
            # "It was disbanded in 1921, and its members were transferred to a newly formed mounted rifles unit."
            # then "It ...": the second "It" can be that unit (the seventy-seventh review's R038, in the lever's
            # earlier form "It was disbanded in 1924, not in 1921.")
            raise NotApplicable(
                "the answer sentence names another thing after the date, which a pronoun opening the restatement "
                "could point to"
            )
        # the statement follows the answer sentence at once, so "It opened ..." keeps its antecedent (one passage)
        dated_gates(item, original, new, value, pronoun_subject=not item.multi)

    return conflict(
        item,
        value,
        "{S}",
        f"Stated that the event had not yet taken place by the end of its stated year, {year}.",
        plain=True,
        gate=gate,
        core_only=True,
        rewrite=lambda new: not_yet(new, value, year, wording),
    )
