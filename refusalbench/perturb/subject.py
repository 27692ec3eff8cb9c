"""What kind of thing a passage is about, read from its opening sentence ("Holiday Road is a 1983 song by ...").

Levers that ask a new question about the passage's subject (an aesthetic judgement, a forecast, a
rival year) need to know that the subject is a creative work and of which kind, so that the question
makes sense for it. Only an opening sentence of the form "<Title> is/was a [1983] [adjectives] <kind>"
counts; anything else is left unknown and those levers decline.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Optional

from refusalbench.perturb.text import split_sentences

# kind word in the passage → (the kind as the new question names it, the field it belongs to)
KINDS = {
    "song": ("song", "popular music"),
    "single": ("song", "popular music"),
    "ballad": ("song", "popular music"),
    "album": ("album", "popular music"),
    "film": ("film", "cinema"),
    "movie": ("film", "cinema"),
    "novel": ("novel", "literature"),
    "poem": ("poem", "poetry"),
    "play": ("play", "theatre"),
    "musical": ("musical", "theatre"),
    "sitcom": ("series", "television"),
    "series": ("series", "television"),
    "painting": ("painting", "the art of painting"),  # bare "painting" read as this painting
    # built places: the field is what their absence would have changed
    "bridge": ("bridge", "the region around it"),
    "cathedral": ("cathedral", "the city around it"),
    "church": ("church", "the town around it"),
    "castle": ("castle", "the region around it"),
    "palace": ("palace", "the city around it"),
    "stadium": ("stadium", "the city around it"),
    "tower": ("tower", "the city around it"),
    "museum": ("museum", "the city around it"),
    "temple": ("temple", "the region around it"),
}
BUILT = frozenset("bridge cathedral church castle palace stadium tower museum temple".split())
WORKS = frozenset(k for k, _ in KINDS.values()) - BUILT
# the kind must end its noun phrase ("a film directed by", not "a film actor")
_FOLLOWERS = (
    "by|from|written|directed|released|recorded|performed|produced|composed|sung|based|starring|about|that|which|"
    "in|on|for|and|with|originally|first|created|developed|located|built|designed|set|featuring|adapted|co-written"
)
_KIND_WORDS = "|".join(sorted(KINDS, key=len, reverse=True))
# up to four modifiers between the article (and year) and the kind: "American romantic comedy-drama film"
_OPENING = re.compile(
    rf"^\s*(?P<name>.+?)(?:\s*\([^)]*\))?\s+(?:is|was)\s+(?:a|an)\s+(?:(?P<year>1[5-9]\d\d|20[0-2]\d)\s+)?"
    rf"(?P<mods>(?:[A-Za-z][\w'-]*\s+){{0,4}}?)(?P<kind>{_KIND_WORDS})(?=[,.;:]|\s+(?:{_FOLLOWERS})\b|$)",
)
# a series or sitcom in another medium than television ("a children's book series", "a video game series")
_OTHER_MEDIUM = re.compile(r"\b(?:book|novel|comic|manga|game|film|movie|radio|podcast|web|toy)s?\b", re.I)
# modifiers that make the kind something else ("a song cycle", "a film studio" are caught by (?!...) above; a
# "graphic novel" is drawn, and a question about "the novel" misnames it: the seventy-first review's R055)
_NOT_A_WORK = re.compile(
    r"\b(?:series of|studio|festival|company|award|franchise|character|soundtrack)\b|"
    r"\b(?:graphic|light|web|visual|verse)\s+novel\b",
    re.I,
)

# a "series" the opening sentence ties to books and never to the screen
_WRITTEN = re.compile(r"\b(?:novels?|books?|volumes|novelist|author|poet|illustrat\w+|published|publisher)\b", re.I)
_SCREEN = re.compile(
    r"\b(?:television|TV|aired|airs|broadcast|premiered|network|episodes?|seasons?|streaming|drama|sitcom|comedy|"
    r"soap|anime|miniseries|web)\b",
    re.I,
)


@dataclass(frozen=True)
class Subject:
    """The passage's subject: its name as the passage writes it, its kind, field and stated year."""

    name: str
    kind: str
    field: str
    year: Optional[int]
    opening: str


def title_core(title: str) -> str:
    """ "Deadpool (film)" → "Deadpool"."""
    return re.sub(r"\s*\([^)]*\)\s*$", "", title).strip()


@functools.lru_cache(maxsize=8192)
def work_subject(passage: str, title: Optional[str]) -> Optional[Subject]:
    """The creative work the passage opens on, or None when its opening sentence does not say so."""
    if not title:
        return None
    sentences = split_sentences(passage)
    if not sentences:
        return None
    m = _OPENING.match(sentences[0])
    if not m:
        return None
    name = m.group("name").strip().strip("\"'“”‘’")
    core = title_core(title)
    if name.casefold() != core.casefold() or _NOT_A_WORK.search(m.group("mods") + m.group("kind")):
        return None
    if not re.search(r"[A-Za-z]{3}", name) or len(name) > 60:
        return None
    kind, field = KINDS[m.group("kind").lower()]
    if field == "television" and _OTHER_MEDIUM.search(m.group("mods")):
        return None  # "a children's book series": not television, whatever the kind word
    if field == "television" and _WRITTEN.search(sentences[0]) and not _SCREEN.search(sentences[0]):
        return None  # "a fantasy series by the Spanish author ...": a series of books (the eighty-fifth review)
    year = int(m.group("year")) if m.group("year") else None
    return Subject(name, kind, field, year, sentences[0])


def quoted(subject: Subject) -> str:
    """'the song "Holiday Road"' (titles of works in quotation marks); a building whose name holds its kind by its
    name alone ("Takanosu Castle", not 'the castle "Takanosu Castle"')."""
    if subject.kind in BUILT and re.search(rf"\b{subject.kind}\b", subject.name, re.I):
        return re.sub(r"^The\b", "the", subject.name)
    return f'the {subject.kind} "{subject.name}"'
