"""P-FalsePremise MEDIUM of a person: ask why they never became what the passage says they are.

Only the query changes. The passage must be the lead of a living person's article, "<Name> (born 9 May 1957) is an
English actress ...": a birth with no death in the bracket, the present tense, a human role. Then "Why did Tessa
Peake-Jones never become an actress?" rests on a premise the lead's own "is an English actress" contradicts, and the
asked-for reason exists only if the premise holds, so nothing in the passage could answer. Declined where the passage
mentions a death, a burial or a fictional subject, and where it says the person once fell short of a role
("aspiring", "never became").

The catalogue's "Burial for a Living Person" ("Where is Tessa Peake-Jones buried?" of the same leads) asked this
cell's question before. It left the rotation after the fifty-fourth review: five of its six items there, and
borderline ones in earlier reviews, were read as leaving the death unsaid (only the present tense shows the person
alive), not contradicted as MEDIUM asks.
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb.base import QUERY, Item, NotApplicable, Proposal, a_or_an, lever, wording

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
_ROLE_WORDS = (
    r"actor|actress|singer|songwriter|singer-songwriter|musician|rapper|player|footballer|cricketer|golfer|"
    r"athlete|coach|manager|comedian|comedienne|presenter|host|writer|author|novelist|poet|playwright|screenwriter|"
    r"journalist|broadcaster|politician|artist|painter|director|filmmaker|producer|model|dancer|choreographer|"
    r"businessman|businesswoman|entrepreneur|executive|composer|drummer|guitarist|bassist|pianist|violinist|"
    r"wrestler|boxer|fighter|skater|swimmer|cyclist|racer|driver|jockey|chef|designer|architect|scientist|"
    r"physicist|chemist|biologist|economist|lawyer|judge|activist|personality|vocalist|DJ|youtuber|astronaut|"
    r"artiste|performer|entertainer|magician|photographer|illustrator|cartoonist|animator|voice"
)
_PERSON_ROLE = re.compile(rf"\b(?:{_ROLE_WORDS})\b", re.I)
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
    # the lead names the title's person: its first and last words stand before the bracket (not "Richard Keith" for
    # "Keith Thibodeaux", the fortieth review's R018, nor a short form, "Greg Wise" for "Matthew Gregory Wise", which
    # both annotators of the fifty-fifth review read as a person the passage may not name)
    lead = m.group("name")
    if not all(re.search(rf"\b{re.escape(w)}\b", lead) for w in (words[0], words[-1])):
        return None
    return name if _PERSON_ROLE.search(m.group("role")) else None


# a word before the role noun that qualifies the person, not the role ("former", "professional"): left out, as is
# anything capitalised ("English", "American-born")
_QUALIFIER = re.compile(
    r"^(?:former|retired|professional|semi-professional|amateur|international|veteran|award-winning|best-selling|"
    r"multi-award-winning|prolific|noted|renowned|acclaimed|celebrated|popular|leading|independent|freelance|child)$"
)
# a premise the passage would make partly true: the person once failed at or gave up on a role
_FELL_SHORT = re.compile(
    r"\b(?:aspiring|would-be|wannabe|never\s+became|failed\s+to\s+become|gave\s+up|quit|abandoned|hoped\s+to|"
    r"dreamed\s+of|wanted\s+to\s+be|instead\s+of)\b",
    re.I,
)


# words that end the noun phrase before the role: articles, possessives, verbs and prepositions ("who has been
# director of ..." gave "a has been director": the eighty-third review's R046)
_PHRASE_STOPS = frozenset(
    "and or a an the its his her their our this that who which whose has have had been is was were be being "
    "became become becomes remained remains served serves worked works as of in at for by to from with on".split()
)


def role_noun(role: str) -> str | None:
    """The role a lead gives, as a noun phrase to ask about: "tennis player" of "Spanish former professional tennis
    player who ...", "voice actor" of "English film and voice actor"; None when it names no person's role."""
    m = _PERSON_ROLE.search(role)
    if m is None:
        return None
    # "singer-songwriter", "voice actor": the hyphenated or following role word belongs to the noun
    tail = re.match(rf"(?:-[a-z]+)*(?:\s+(?:{_ROLE_WORDS})\b)?", role[m.end() :], re.I)
    head = m.group(0) + (tail.group(0) if tail else "")
    before = []
    for word in reversed(role[: m.start()].split()[-2:]):
        # an article or possessive ends the noun phrase: "a the medical director" (the sixty-second review's R096)
        if not re.fullmatch(r"[a-z][a-z-]*", word) or _QUALIFIER.match(word) or word in _PHRASE_STOPS:
            break
        before.insert(0, word)
    return " ".join([*before, head])


# two wordings of the one premise, drawn by the person (`wording`), so that no single question form gives the
# label away
_NEVER_QUESTIONS = (
    "Why did {name} never become {role}?",
    "What kept {name} from ever becoming {role}?",
)


@lever(FP, tx.MEDIUM, "Stopped vs. Never Started", QUERY)
def never_became(item: Item) -> Proposal:
    """Ask why the living subject of the passage never became what its lead says they are ("is an English
    actress"): the premise is contradicted by the lead itself, and the asked-for reason cannot exist."""
    if item.multi or not item.title:
        raise NotApplicable("the item has no titled single passage")
    name = living_subject(item.passages[0], item.title)
    if name is None:
        raise NotApplicable("the passage is not the lead of a living person's article ('X (born 1957) is an actress')")
    if _FELL_SHORT.search(item.passages[0]):
        raise NotApplicable("the passage says the person once fell short of or gave up a role")
    role = role_noun(_LIVING_LEAD.match(item.passages[0].strip()).group("role"))
    if role is None:
        raise NotApplicable("the lead names no person's role")
    role = f"{a_or_an(role)} {role}"
    return Proposal(
        wording(_NEVER_QUESTIONS, name).format(name=name, role=role),
        list(item.passages),
        f"Asked why {name} never became {role}; the lead says they are one.",
    )
