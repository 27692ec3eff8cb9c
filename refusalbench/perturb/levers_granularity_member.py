"""P-GranularityMismatch LOW, "Superclass Trait Made Explicit" (catalogue): the author of a whole written series
asked of one book the passage names as part of it.

"Who wrote the Tidewater Chronicles?" is answered by a passage opening "The Tidewater Chronicles is a series of
fantasy novels by American author Lena Marchetti. The first book, The Drowned Crown, was published in 1994."
Asked "Who wrote The Drowned Crown?", a reader finds the author stated for the series (the superclass) and the book
named as its member, and carries the trait down one level: the query and the passage differ by one level of
specificity, bridged by an easy inference, and the gold answer stays right.

The trait must pass to every member, so the lever keeps to authorship (and illustration) of a series, trilogy,
sequence, cycle or single-author collection whose opening sentence credits one person with it, and declines any
passage that lets another hand into a part of the work (a co-writer, a continuation after the author's death, an
editor, contributors, a pen name) or credits the named member to anyone. The member must be named
by the passage itself ("The first book, The Drowned Crown, ...", "beginning with Salt Road (1994)", "consisting of
The Thorn Gate (1993), ..."), so the membership is the passage's, not the question's.
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb.base import QUERY, Item, NotApplicable, Proposal, lever
from refusalbench.perturb.levers_granularity_world import names_the_subject
from refusalbench.perturb.text import as_question, contains, folded, question_body, split_sentences

GR = tx.GRANULARITY

# "who wrote the tidewater chronicles (books)", "who is the author of ...", "who illustrated ..."
_QUESTION = re.compile(
    r"^who\s+(?P<verb>wrote|writes|write|has\s+written|is\s+the\s+(?:author|writer)\s+of|was\s+the\s+(?:author|writer)"
    r"\s+of|illustrated|illustrates|drew|draws)\s+(?:the\s+(?:poetry\s+book|poem\s+cycle|book\s+series)\s+)?"
    r"(?P<subject>.+)$",
    re.I,
)
_GROUPS = r"series|trilogy|tetralogy|quartet|quintet|duology|sequence|cycle|saga|collection"
_MEMBERS = (
    r"novels|novellas|books|picture\s+books|stories|short\s+stories|tales|poems|sonnets|essays|graphic\s+novels|"
    r"comics|plays"
)
_KINDS = r"novel|book|comic|comic\s+book|picture[\s-]book|graphic\s+novel|fantasy|crime|detective|mystery|poetry"
# "<Name> is a [modifiers] series of [modifiers] novels ...", "<Name> is an epic fantasy series by ..."
_OPENING = re.compile(
    rf"^\s*(?P<name>.+?)(?:\s*\([^)]*\))?\s+(?:is|was|are)\s+(?:a|an)\s+(?:[\w'’-]+\s+){{0,6}}?"
    rf"(?:(?:{_GROUPS})\s+of\s+(?:[\w'’-]+\s+){{0,5}}?(?:{_MEMBERS})|(?:{_KINDS})\s+(?:series|trilogy|saga|cycle))\b"
    r"(?P<rest>.*)$",
    re.I | re.S,
)
# another hand in some part of the work, or a name under which the credit may not pass to every book
_OTHER_HAND = re.compile(
    r"\b(?:co-?(?:wr\w*|author\w*)|with\s+(?:the\s+)?(?:\w+\s+)?(?:writer|author|novelist|poet)|completed\s+by|"
    r"continued\s+by|finished\s+by|taken\s+over|ghost-?writ\w*|after\s+(?:his|her|their)\s+death|posthumous\w*|"
    r"other\s+(?:writers|authors|poets|hands)|contributors?|contributions|edited\s+by|editor|anthology|"
    r"pen\s+name|pseudonym\w*|under\s+the\s+name|house\s+name|various|several\s+(?:writers|authors))\b",
    re.I,
)
_TITLE_WORD = r"[A-Z0-9][\w'’-]*"
_SMALL = (
    r"(?:of|the|and|in|a|an|on|to|at|for|from|with|by|under|over|de|la|le|les|del|della|di|da|das|do|dos|du|der|die|"
    r"den|des|het|el|los|las|al|en|et|und|e|i|van|von|y|och|og)"
)
# a title in title case ("The Drowned Crown", "A Sala das Balanças"), or in sentence case where a bracket follows
# ("Kaldt vann (Cold Water)", "A visegrádi halott (1997)")
_TITLE = (
    rf"(?P<m>{_TITLE_WORD}(?:\s+(?:{_SMALL}\s+)*{_TITLE_WORD}){{0,8}}"
    rf"|{_TITLE_WORD}(?:\s+[\w'’-]+){{1,6}}?(?=\s*\())"
)
_QUOTED = rf"(?P<open>[\"“]?){_TITLE}(?P<close>[\"”]?)"
# where the passage names one member: "The first book, The Drowned Crown, ...", "beginning with Salt Road (1994)",
# "consisting of The Thorn Gate (1993), ...", "The title poem, "Salt Hymn", ..."
_PART = r"(?:book|novel|volume|instal+ment|title|story|poem|sonnet|essay|tale|entry|play)"
_ORDINAL = r"(?:first|opening|second|third|fourth|fifth|sixth|seventh|final|last|debut|best-known|best\s+known)"
_STOP = r"(?=\s*\(|,|\.|\s+(?:was|is|appeared|came|followed|won|introduced|tells|follows|sold|opens|begins|became)\b)"
_MEMBER = (
    # "The first book, The Drowned Crown, ...", "Its opening poem, "Rain on the Galle Road", ..."
    re.compile(rf"\b(?:[Tt]he|[Ii]ts|[Tt]he\s+\w+'s)\s+{_ORDINAL}\s+{_PART}s?,\s+{_QUOTED}{_STOP}"),
    # "beginning with Salt Road (1994)", "The series began with ..."
    re.compile(
        rf"\b(?:[Bb]eginning|[Ss]tarting|[Oo]pening|began|begins|started|starts|opened|opens)\s+with\s+{_QUOTED}{_STOP}"
    ),
    # "consisting of The Thorn Gate (1993), ...", "Its volumes are The Tram Depot (1966), ..."
    re.compile(
        r"\b(?:consisting\s+of|comprising|comprises|consists\s+of|made\s+up\s+of|(?:[Ii]ts|[Tt]he)\s+"
        rf"(?:volumes|books|novels)\s+are)\s+(?:the\s+(?:novels|books|volumes|stories|poems)\s+)?{_QUOTED}{_STOP}"
    ),
    # ""The Weighing Stone", the opening story, ..."
    re.compile(rf"{_QUOTED},\s+(?:the|its)\s+{_ORDINAL}\s+{_PART}\b"),
)
_SENTENCE_END = re.compile(r"[.;]")
# a credit of the member itself: "..., written by ...", '"The Ferryman's Daughter" by Dragan Ilić'
_OWN_CREDIT = re.compile(
    r"\b(?:written|co-written|illustrated|drawn|penned|authored|composed)\s+by\b|^[\"”’]?\s*(?:\([^)]*\)\s*)?,?\s*by\s+[A-Z]"
)


def _credited(rest: str, role: str, answers: list[str]) -> str:
    """The gold answer the opening credits with the series ("by American author Lena Marchetti"), its one credit
    for the role: a second name beside it ("by A and B") or no credit declines."""
    if role == "illustrated":
        m = re.search(r"\billustrated\s+by\s+(?P<who>[^,.;(]+)", rest)
    else:
        rest = re.split(r"\s+(?:and\s+)?(?:illustrated|drawn)\s+by\b", rest)[0]
        m = re.search(r"\b(?:written\s+)?by\s+(?P<who>[^,.;(]+)", rest)
    if not m:
        raise NotApplicable(f"the opening does not credit the series to anyone for the question's role ({role})")
    who = m.group("who")
    if re.search(r"\s(?:and|&)\s+[A-Z]|\s+with\s+", who):
        raise NotApplicable(f"the opening credits the series to more than one person ({who.strip()!r})")
    named = [a for a in answers if contains(who, a)]
    if not named:
        raise NotApplicable("no gold answer is the person the opening credits")
    return named[0]


def _member(passage: str, sentences: list[str], name: str, answers: list[str], credited: str) -> str:
    """The first member the passage names ("The Drowned Crown"), none that is the series or an answer.

    Declined where the sentence naming it names the credited person too ("Felber's illustrations won a medal for the
    third book, Winter at the Millrace"): the passage then gives the trait for the member itself, at the query's
    level, and no step down is left (the eighty-fourth review)."""
    surname = credited.split()[-1]
    for pattern in _MEMBER:
        for m in pattern.finditer(passage):
            title = m.group("m")
            if folded(title) in folded(name):  # the series' own name ("Ashfall" of "The Ashfall trilogy")
                continue
            if any(contains(title, a) or contains(a, title) for a in answers):
                continue
            tail = _SENTENCE_END.split(passage[m.end() :], 1)[0]
            if _OWN_CREDIT.search(tail):
                raise NotApplicable(f"the passage credits its member {title!r} on its own")
            # the opening sentence's credit is the series' ("by ... Zaremba, comprising Stacja Hel (1974), ...")
            sentence = next((t for t in sentences[1:] if m.group("m") in t), "")
            if re.search(rf"\b{re.escape(surname)}\b", sentence):
                raise NotApplicable(f"the sentence naming {title!r} names {credited!r} too: nothing to infer")
            opened = m.group("open")
            return f"{opened}{title}{'”' if opened == '“' else opened}"
    raise NotApplicable("the passage names no single book of the series")


@lever(GR, tx.LOW, "Superclass Trait Made Explicit", QUERY)
def author_of_a_named_member(item: Item) -> Proposal:
    """ "Who wrote The Drowned Crown?" where the passage credits the series to its author and names that book as
    its first."""
    if item.multi:
        raise NotApplicable("the multi-passage Granularity target is the context")
    body = question_body(item.query)
    q = _QUESTION.match(body)
    if not q:
        raise NotApplicable("the query does not ask who wrote or illustrated the work")
    role = "illustrated" if q.group("verb").lower() in ("illustrated", "illustrates", "drew", "draws") else "wrote"
    passage = item.passages[0]
    sentences = split_sentences(passage)
    opening = _OPENING.match(sentences[0]) if sentences else None
    if not opening:
        raise NotApplicable("the passage does not open on a series or collection of written works")
    name = opening.group("name").strip().strip("\"'“”‘’")
    subject = q.group("subject")
    bare = re.sub(r"\s+(?:books|novels|series|stories|poems|essays|comics?)$", "", subject, flags=re.I)
    if not (names_the_subject(subject, name) or names_the_subject(bare, name)):
        raise NotApplicable("the question's subject is not the passage's series")
    other = _OTHER_HAND.search(passage)
    if other:
        raise NotApplicable(f"the passage lets another hand into the work ({other.group(0)!r})")
    credited = _credited(opening.group("rest"), role, item.answers)
    member = _member(passage, sentences, name, item.answers, credited)
    return Proposal(
        as_question(f"who {role} {member}"),
        list(item.passages),
        f"Asked who {role} one book the passage names as part of a series it credits to one person.",
    )
