"""P-GranularityMismatch HIGH, "Global Average from Street Data" (catalogue): the world's average asked of one
instance.

"How many beds does Ridgemont General Hospital have?" is answered by one hospital's figure ("612 beds"). Asked
"How many beds does the average hospital in the world have?", a reader has the same measure for a single hospital
and nothing else: one instance cannot be averaged into the world's, so the query sits at a scale the passage
cannot reach, though the kind of information it asks for is there (the evaluated model is told to use the
granularity code, not the missing-information one, in exactly this case: information present at the wrong scale,
reaching the scale asked needing an unjustified aggregation or average).

Applied only to a standing count of the passage's own subject ("how many <things> does <subject> have / hold /
seat / carry", "how many <things> in <subject>"), present tense, where the passage opens by saying what kind of
thing the subject is ("Ridgemont General Hospital is a public teaching hospital in ...") or its title ends on its
kind ("Eiffel Tower"), and that kind is one of a list of kinds that exist the world over in many instances
(hospitals, lakes, stadiums, choirs; not a bare "club" or "park": a golf club's holes are no club's). Declined where
the passage gives any average, typical figure, share or world-wide comparison, or a second figure of the counted
thing (a second instance to average with), and where the count is not a number.

An earlier design of this lever asked "the population averaged over every country in the world" of one town's
passage and was read as missing data: it asked about countries of a town and named a measure the passage did not
use. This one keeps the passage's own kind and the question's own counted noun and verb.
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import QUERY, Item, NotApplicable, Proposal, lever
from refusalbench.perturb.subject import title_core
from refusalbench.perturb.text import as_question, folded, question_body, split_sentences

GR = tx.GRANULARITY

# kinds of which the world holds many instances, each with a count that varies from one to the next (compound
# kinds first: "opera house", not "house")
_KINDS = (
    "opera house|concert hall|shopping centre|shopping center|shopping mall|botanical garden|botanic garden|"
    "national park|theme park|golf club|football club|cruise ship|lake|palace|hospital|stadium|hotel|library|"
    "university|museum|bridge|skyscraper|tower|building|cathedral|church|castle|airport|theatre|theater|arena|"
    "choir|orchestra|airline|garden|zoo|market|village|archipelago|school|college|prison|lighthouse|mosque|temple|"
    "monastery|abbey|reservoir|dam|canal|tunnel|port|harbour|harbor|marina|airship|ship|ferry|cruiseferry|"
    "schooner|locomotive|aircraft|factory|brewery|winery|distillery|mine|newspaper|magazine|podcast|festival|"
    "marathon|league|council|parliament"
)
_FOLLOWERS = (
    r"in|on|at|of|near|by|from|that|which|built|founded|based|located|situated|serving|run|operated|owned|"
    r"with|for|between|across|above|below|overlooking|housed|held|published|hosted|designed|used|headquartered"
)
# "<Name> is a [1913] [up to four modifiers] <kind>" ending its noun phrase
_OPENING = re.compile(
    rf"^\s*(?P<name>.+?)(?:\s*\([^)]*\))?\s+(?:is|was)\s+(?:a|an)\s+(?:\d{{4}}\s+)?"
    rf"(?:(?!(?:the|of|in|on|at|above|below|near|by)\s)[\w'-]+\s+){{0,4}}?"
    rf"(?P<kind>{_KINDS})(?=[,.;:]|\s+(?:{_FOLLOWERS})\b)",
    re.I,
)
# the counted thing: one or two words, the last a plural ("beds", "member choirs") or a collective noun
_NOUN = r"(?P<noun>(?:[a-z-]+\s+)?(?:[a-z-]+s|people|staff|crew|aircraft|personnel))"
_VERBS = r"have|hold|seat|carry|employ|contain|house|accommodate|feature|own|operate|run|sleep"
_QUESTIONS = (
    # how many beds does X have / can X carry
    re.compile(rf"^how\s+many\s+{_NOUN}\s+(?P<aux>does|do|can)\s+(?P<subject>.+?)\s+(?P<verb>{_VERBS})$", re.I),
    # how many islands (are there) in X
    re.compile(
        rf"^how\s+many\s+{_NOUN}\s+(?:are\s+(?:there\s+)?|is\s+(?:there\s+)?)?(?:in|on)\s+"
        r"(?P<subject>(?:(?!\b(?:a\s+row|did|does|do|was|were|has|have|had|can|could|will|would)\b).)+)$",
        re.I,
    ),
)
# anything that gives a figure beyond the one instance, or compares it with the rest of the world
_BEYOND_ONE = re.compile(
    r"\b(?:average\w*|mean|median|typical\w*|usual\w*|norm|per\s+cent|percent|share|proportion|world\w*|global\w*|"
    r"international\w*|national\s+(?:figure|total|rate)|total\s+of\s+all|all\s+(?:the\s+)?other|"
    r"compared|comparison|than\s+(?:any|all|most|the\s+(?:national|world|country|rest)))\b|%",
    re.I,
)
_WORD = re.compile(r"[a-z0-9]+")
# kind words inside a name that a question may give in English ("Hôpital Sainte-Valérie": "sainte valerie hospital")
_FOREIGN_KIND_WORDS = frozenset({"hopital", "palacio", "teatro"})


def names_the_subject(subject: str, name: str) -> bool:
    """True when the question's subject carries every distinctive word of the passage's name for it (accents and
    hyphens aside: "sainte valerie hospital" of "Hôpital Sainte-Valérie" needs "sainte" and "valerie")."""
    asked = set(_WORD.findall(folded(subject)))
    distinctive = [w for w in _WORD.findall(folded(name)) if len(w) > 3 and w not in _FOREIGN_KIND_WORDS]
    return bool(distinctive) and all(w in asked for w in distinctive)


def _kind(item: Item) -> tuple[str, str]:
    """The passage's name for its subject and its kind: the kind the passage opens by calling it ("... is a public
    teaching hospital"), else the kind its title ends on ("Eiffel Tower")."""
    sentences = split_sentences(item.passages[0])
    m = _OPENING.match(sentences[0]) if sentences else None
    if m:
        return m.group("name").strip().strip("\"'“”‘’"), m.group("kind").lower()
    name = title_core(item.title or "")
    last = name.split()[-1].lower() if name.split() else ""
    # the title's kind counts only where the passage calls its subject by it ("The tower has three levels"; an
    # album called "Nocturnes for an Empty Harbour" is no harbour)
    called = re.search(rf"(?:^|[.!?]\s+)The {last}\b", item.passages[0])
    if len(name.split()) > 1 and re.fullmatch(_KINDS, last) and called:
        return name, last
    raise NotApplicable("neither the passage's opening nor its title says what kind of thing its subject is")


def _counted_figures(passage: str, noun: str) -> set[str]:
    """The figures the passage gives for the counted noun ("612 beds", "1,412 islands")."""
    head = re.escape(noun.split()[-1].lower())
    pattern = rf"(\d[\d,.]*|\b(?:{'|'.join(at.SINGLE_WORD_NUMBERS)}))\s+(?:[\w-]+\s+){{0,2}}?{head}\b"
    return {m.group(1).lower() for m in re.finditer(pattern, passage, re.I)}


@lever(GR, tx.HIGH, "Global Average from Street Data", QUERY)
def world_average_of_one(item: Item) -> Proposal:
    """ "How many beds does the average hospital in the world have?" of a passage giving one hospital's beds."""
    if item.multi:
        raise NotApplicable("the multi-passage Granularity target is the context")
    body = question_body(item.query)
    m = next(filter(None, (q.match(body) for q in _QUESTIONS)), None)
    if not m:
        raise NotApplicable("the query does not ask a standing count of its subject ('how many beds does X have')")
    if item.atype != at.NUMBER:
        raise NotApplicable("the answer is not a count")
    item.need_anchor()
    name, kind = _kind(item)
    if not names_the_subject(m.group("subject"), name):
        raise NotApplicable("the question's subject is not the passage's subject")
    noun = m.group("noun").lower()
    if kind in noun or any(kind in folded(a) for a in item.answers):
        raise NotApplicable("the counted thing is the subject's own kind")
    passage = item.passages[0]
    beyond = _BEYOND_ONE.search(passage)
    if beyond:
        raise NotApplicable(f"the passage reaches beyond its one instance ({beyond.group(0)!r})")
    if len(_counted_figures(passage, noun)) > 1:
        raise NotApplicable(f"the passage gives more than one figure of {noun}")
    if m.groupdict().get("aux"):
        aux = "can" if m.group("aux").lower() == "can" else "does"
        query = f"how many {noun} {aux} the average {kind} in the world {m.group('verb').lower()}"
    else:
        query = f"how many {noun} does the average {kind} in the world have"
    return Proposal(
        as_question(query),
        list(item.passages),
        f"Asked for the world's average of a count the passage gives for one {kind} only.",
    )
