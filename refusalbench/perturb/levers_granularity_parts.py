"""P-GranularityMismatch MEDIUM, "Part-of-part Detail" (catalogue): a part of the answer is asked where the
passage names only the whole, in two shapes: the member of a band, the street address of a building in a town.

"Who sang "One of These Nights"?" is answered by a band ("the American rock band Eagles"). Asked "Which member of
the band sang the lead vocal on ...?", a reader of the passage has the answer one level up, the group, and nothing
that names its members or its singer: the query sits below the grain of the context. Applied only to a sung
song whose gold answers are all the group, and declined wherever the passage says anything about voices or
members (a "lead singer", "vocals by", "featuring", "consisting of"), or names the song's writers or producers
(a writer in the band is a guess at the singer).

"Where is the country music hall of fame located?" is answered by a town ("Nashville, Tennessee"). Asked "At what
street address is ... located?", the passage has the town and nothing finer: no street, avenue, square, district
or house number. Applied only to a building or institution (a stadium, a museum, a hall of fame) that the
question asks to be located, never to an area, and declined where the passage gives any street-level place or
coordinates.
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import QUERY, Item, NotApplicable, Proposal, lever
from refusalbench.perturb.levers_granularity import COORDINATES
from refusalbench.perturb.subject import title_core
from refusalbench.perturb.text import answer_pattern, as_question, question_body

GR = tx.GRANULARITY
# "who sang / sings / performed ... <song>": the song follows the verb
_WHO_SANG = re.compile(
    r"^who\s+(?P<verb>sang|sings|sung|sing|performed|performs|recorded|records)\s+(?P<song>.+)$", re.I
)
_PRESENT = frozenset({"sings", "sing", "performs", "records"})
# the word the passage uses for the group, close before or after the answer ("the rock band Eagles", "Argent were
# a British band", "the duo")
_GROUP = re.compile(r"\b(?P<noun>band|group|duo|trio|quartet|quintet)\b", re.I)
_GROUP_WINDOW = 60
# anything that tells a reader which member sang, or who is in the group
_MEMBERS_OR_VOICES = re.compile(
    r"\b(?:vocal\w*|voices?|voiced|sung|sang|sings?|singer\w*|singing|frontman|front\s+man|frontwoman|lead|leads|"
    r"members?|line-?up|featur\w+|feat|ft|duet|harmon\w+|rap\w*|consist\w*|compris\w+|composed|made up of|"
    r"formed|founded|joined)\b",
    re.I,
)
# the song's makers: a writer or producer named in the passage may be the band's singer
_MAKERS = re.compile(r"\b(?:writ\w+|wrote|penned|co-?writ\w+|compos\w+|produc\w+|arrang\w+)\b", re.I)
# questions that are not about one song: a second question, a theme or album, a cover ("in the movie ...")
_NOT_ONE_SONG = re.compile(
    r"\b(?:album|theme|version|cover|soundtrack|(?:in|from|on|for)\s+(?:the\s+)?(?:movie|film|show|series|musical)|"
    r"(?:and|or)\s+(?:who|what|when|where|which|how))\b",
    re.I,
)


def _group_noun(item: Item, passage: str) -> str:
    """The group noun the passage uses beside every gold answer; NotApplicable when one answer is not called a
    group there (a singer among the answers asks for a person, and the question is no longer one level up)."""
    nouns = []
    for a in item.answers:
        pat = answer_pattern(a)
        mentions = list(pat.finditer(passage)) if pat else []
        if not mentions:
            raise NotApplicable(f"the gold answer {a!r} is not in the passage")
        found = [
            g.group("noun").lower()
            for m in mentions
            for g in _GROUP.finditer(passage[max(0, m.start() - _GROUP_WINDOW) : m.end() + _GROUP_WINDOW])
        ]
        if not found:
            raise NotApplicable(f"the passage does not call the gold answer {a!r} a band or group")
        nouns.append(found[0])
    if len(set(nouns)) > 1:
        raise NotApplicable("the passage calls the answers different kinds of group")
    return nouns[0]


@lever(GR, tx.MEDIUM, "Part-of-part Detail", QUERY)
def part_of_the_answer(item: Item) -> Proposal:
    """A part of the answer asked where the passage names only the whole: the member of a band that sang a song
    (`member_of_the_group`), the street address of a building the passage places in a town (`street_address`)."""
    if item.multi:
        raise NotApplicable("the multi-passage Granularity target is the context")
    body = question_body(item.query)
    if _WHO_SANG.match(body):
        return member_of_the_group(item, body)
    if _WHERE_LOCATED.match(body):
        return street_address(item, body)
    raise NotApplicable("the query asks neither who sang a song nor where a building is located")


def member_of_the_group(item: Item, body: str) -> Proposal:
    """ "Which member of the band sang the lead vocal on ...?" where the passage names only the band that sang the
    song: the query asks a part of the answer below anything the passage states.

    Declined unless the question asks who sang one song, every gold answer is called a band or group beside its
    mention, and the passage says nothing about voices or members and names no writer or producer."""
    m = _WHO_SANG.match(body)
    song = m.group("song")
    if _NOT_ONE_SONG.search(song):
        raise NotApplicable("the question is not about one song ('the theme song to ...', a second question)")
    passage = item.passages[0]
    noun = _group_noun(item, passage)
    told = _MEMBERS_OR_VOICES.search(passage)
    if told:
        raise NotApplicable(f"the passage speaks of voices or members ({told.group(0)!r})")
    makers = _MAKERS.search(passage)
    if makers:
        raise NotApplicable(f"the passage names the song's makers ({makers.group(0)!r}), a clue to its singer")
    if re.search(rf"\b(?:his|her)\s+{noun}\b", passage, re.I):
        # "Femi Adeyemo and his band": the leader the act is named after is the obvious singer (the seventy-eighth
        # review's R062)
        raise NotApplicable(f"the act is a person and 'his/her {noun}', whose leader is the obvious singer")
    if item.title and title_core(item.title).casefold() == song.strip(" ?\"'").casefold():
        song = f'"{title_core(item.title)}"'  # the title as the passage writes it, not the query's lower case
    verb = "sings" if m.group("verb").lower() in _PRESENT else "sang"
    return Proposal(
        as_question(f"which member of the {noun} {verb} the lead vocal on {song}"),
        list(item.passages),
        f"Asked which member of the {noun} sang the lead vocal, where the passage names only the {noun}.",
    )


# "where is the country music hall of fame located": a building or an institution housed in one, located
_WHERE_LOCATED = re.compile(r"^where\s+(?P<be>is|are|was|were)\s+(?P<subject>.+?)\s+(?:located|situated)$", re.I)
_BUILDING = re.compile(
    r"\b(?:hall of fame|stadium|arena|hall|museum|church|cathedral|palace|tower|headquarters|hotel|theat(?:er|re)|"
    r"hospital|library|airport|castle|temple|mosque|prison|factory|building|office|studio|mall|embassy|capitol|"
    r"monument|statue|memorial|house|school|university|college|cent(?:er|re))s?\b",
    re.I,
)
_STORY = re.compile(r"\b(?:fictional|fiction|novels?|films?|movies?|series|shows?|episodes?|games?|books?)\b", re.I)
# a place finer than a town anywhere in the passage: a street, a square, a district, a house number
_STREET_LEVEL = re.compile(
    r"\b(?:street|st\.|avenue|ave\.|road|rd\.|boulevard|blvd|lane|drive|way|square|plaza|broadway|parkway|highway|"
    r"route|quarter|district|neighbou?rhood|borough|downtown|uptown|midtown|suburb|campus|block|corner|address|"
    r"avenida|rua|calle|carrer|via|viale|rue|strasse|straße|stra[sß]e|gasse|platz|straat|gracht|gata|gatan|gade|"
    r"vej|ulica|aleja|plac|piazza|corso|largo|praça|praca|prospekt|embankment|quay|wharf|row|terrace|crescent|"
    r"near|next to|across|opposite|adjacent|north|south|east|west|northern|southern|eastern|western|central|"
    r"\d+(?:st|nd|rd|th))\b",
    re.I,
)


def street_address(item: Item, body: str) -> Proposal:
    """ "At what street address is ... located?" where the passage places the building only in a town.

    Declined unless the subject is a building or an institution housed in one (never an area, a story or an
    event), the answer is a named place, and nothing in the passage places it more finely than the town."""
    m = _WHERE_LOCATED.match(body)
    subject = m.group("subject")
    if not _BUILDING.search(subject):
        raise NotApplicable("the subject is not a building or an institution housed in one")
    story = _STORY.search(f"{subject} {item.passages[0]}")
    if story:
        raise NotApplicable(f"a building of a story or a show has no street address ({story.group(0)!r})")
    if item.atype not in (at.PLACE, at.ORGANISATION):
        raise NotApplicable("the answer is not a named place")
    finer = _STREET_LEVEL.search(item.passages[0]) or COORDINATES.search(item.passages[0])
    if finer:
        raise NotApplicable(f"the passage places something finer than a town ({finer.group(0)!r})")
    return Proposal(
        as_question(f"at what street address {m.group('be').lower()} {subject} located"),
        list(item.passages),
        "Asked for the street address of a building the passage places only in a town.",
    )
