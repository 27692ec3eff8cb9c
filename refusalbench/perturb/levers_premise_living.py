"""P-FalsePremise MEDIUM: ask where a living person is buried (in one of a few wordings, drawn by the person).

Only the query changes. The passage must be the lead of a living person's article, "<Name> (born 9 May 1957) is an
English actress ...": a birth with no death in the bracket, the present tense, a human role. Then "Where is Tessa
Peake-Jones buried?" presupposes a death the passage contradicts, and nothing in it could answer. Declined where the
passage mentions a death, a burial or anything that could make the premise partly true (a memorial, a funeral, the
late ...), or where the article is about a fictional character.
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb.base import QUERY, Item, NotApplicable, Proposal, lever, wording

FP = tx.FALSE_PREMISE

# "Tessa Peake-Jones (born 9 May 1957) is an English actress": the name, a bracket with a birth, the present tense
_LIVING_LEAD = re.compile(
    r"^(?P<name>[^(.;]{3,80}?)\s*\((?P<bracket>[^()]*\bborn\b[^()]*)\)\s+is\s+(?:a|an)\s+(?P<role>[^.;]{3,160})"
)
# anything that could make a death or burial partly true, or a subject that is not a real person
_DEATH_OR_FICTION = re.compile(
    r"\b(?:died|dies|death|deaths|dead|funeral|buried|burial|grave|graves|cemetery|tomb|interred|cremated|"
    r"posthumous|posthumously|killed|murdered|suicide|passed\s+away|memorial|obituary|fictional|character|"
    r"legend|mythical|deceased)\b"
    # "the late Lady Hale", "her estate", "his mortal remains"; not "the late 1990s", "real estate", "remains active"
    r"|\bthe\s+late\s+[A-Z]|(?<!real )\bestate\b|\b(?:mortal|human)\s+remains\b",
    re.I,
)
# the lead's role must be a person's (not "is an American band", "is a racehorse")
_PERSON_ROLE = re.compile(
    r"\b(?:actor|actress|singer|songwriter|singer-songwriter|musician|rapper|player|footballer|cricketer|golfer|"
    r"athlete|coach|manager|comedian|comedienne|presenter|host|writer|author|novelist|poet|playwright|screenwriter|"
    r"journalist|broadcaster|politician|artist|painter|director|filmmaker|producer|model|dancer|choreographer|"
    r"businessman|businesswoman|entrepreneur|executive|composer|drummer|guitarist|bassist|pianist|violinist|"
    r"wrestler|boxer|fighter|skater|swimmer|cyclist|racer|driver|jockey|chef|designer|architect|scientist|"
    r"physicist|chemist|biologist|economist|lawyer|judge|activist|personality|vocalist|DJ|youtuber|astronaut|"
    r"artiste|performer|entertainer|magician|photographer|illustrator|cartoonist|animator|voice)\b",
    re.I,
)
_BRACKET_DEATH = re.compile(r"\d{3,4}\s*[-–—]\s*\d{3,4}|\bdied\b|\bd\.\s", re.I)


def living_subject(passage: str, title: str) -> str | None:
    """The person's name (the article's title, without a bracketed disambiguator) when the passage is the lead
    of a living person's article, else None."""
    name = re.sub(r"\s*\([^)]*\)\s*$", "", title).strip()
    m = _LIVING_LEAD.match(passage.strip())
    if not m or _BRACKET_DEATH.search(m.group("bracket")) or _DEATH_OR_FICTION.search(passage):
        return None
    words = name.split()
    if not 2 <= len(words) <= 4 or not all(w[:1].isupper() for w in words):
        return None
    # the lead names the title's person: its last word stands before the bracket, and so does its first, or a longer
    # form of it ("Greg Wise" for "Matthew Gregory Wise"; not "Richard Keith" for "Keith Thibodeaux", the fortieth
    # review's R018)
    lead = m.group("name")
    first = re.escape(words[0])
    if not re.search(rf"\b{re.escape(words[-1])}\b", lead) or not re.search(rf"\b{first}", lead, re.I):
        return None
    return name if _PERSON_ROLE.search(m.group("role")) else None


# several wordings of the one premise, drawn by the person (`wording`), so that no single question form gives the
# label away
_BURIAL_QUESTIONS = (
    "Where is {name} buried?",
    "In which cemetery is {name} buried?",
    "Where was {name} laid to rest?",
    "Where is the grave of {name}?",
)


@lever(FP, tx.MEDIUM, "Burial for a Living Person", QUERY)
def burial_of_the_living(item: Item) -> Proposal:
    """Ask where the living subject of the passage is buried; the passage gives a birth, no death, in the present."""
    if item.multi or not item.title:
        raise NotApplicable("the item has no titled single passage")
    name = living_subject(item.passages[0], item.title)
    if name is None:
        raise NotApplicable("the passage is not the lead of a living person's article ('X (born 1957) is an actress')")
    return Proposal(
        wording(_BURIAL_QUESTIONS, name).format(name=name),
        list(item.passages),
        f"Asked where {name} is buried; the passage presents them as living (a birth, no death, 'is a ...').",
    )
