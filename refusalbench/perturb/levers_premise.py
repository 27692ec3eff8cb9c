"""P-FalsePremise levers: only the query changes; the passage is the evidence and stays byte-identical.

HIGH makes the question a category error; LOW names the passage's work with a wrong year (a
peripheral detail the asked fact does not depend on). MEDIUM asks why the passage's work was never
released where the passage says it was: the asked-for thing exists only if the premise holds. (A
presupposition that restates the answer with another value, "Knowing that the song was released in
1985, who sang ...", was judged invalid in blind review: the question still asks the original fact,
so a careful reader corrects the premise from the passage and answers.)
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import QUERY, Item, NotApplicable, Proposal, lever
from refusalbench.perturb.levers_ambiguity import SECOND_REFERENT, pronoun_query, subject_span
from refusalbench.perturb.subject import BUILT, title_core, work_subject
from refusalbench.perturb.text import as_question, inside_quotes, question_body, split_sentences

FP = tx.FALSE_PREMISE
# "Which empty box ..." left the list in the forty-ninth review: an empty box reads as a blank to fill in
NON_AGENTS = ("Which prime number", "Which shade of blue", "Which grain of sand", "Which mathematical theorem")
_WHO = re.compile(r"^(?P<wh>who|who's|whom)\s+(?P<rest>.+)$", re.I)


# acts only a person (or a group of people) can perform: the category error needs the verb to demand an agent
PERSON_VERBS = frozenset(
    """sang sings wrote writes composed composes painted paints directed directs invented invents
    discovered discovers said says voiced voices narrated narrates starred stars married marries killed kills
    murdered murders assassinated portrayed portrays played plays performed performs recorded records designed
    designs coined coins founded hosted hosts commissioned choreographed raps rapped""".split()
)
# "who said have you no sense of decency": the object of "said" is an utterance the question gives unquoted
_UTTERANCE_VERBS = frozenset({"said", "says"})
_CLAUSE = frozenset("if when who whom what which where while before after because and or that than".split())
_KINDS = r"(?:song|single|film|movie|novel|book|poem|play|musical|album|show|series)"
_TITLE_KIND = re.compile(rf"^the\s+{_KINDS}\s+", re.I)
# "wrote song what a friend ...": a kind noun without its article, a source slip the new question would keep
_BARE_KIND = re.compile(rf"^{_KINDS}\s+", re.I)
# "wrote the music Phantom of the Opera": a title after a noun that is not its kind reads as broken English
_NOUN_BEFORE_NAME = re.compile(r"^the\s+(?P<noun>[a-z]+)\s+[A-Z\"]")


# the lead of a person's article: "Amara Osei (born 5 May 1992) is ...", "Jan Veld (1901–1980) was ..."
_PERSON_LEAD = re.compile(r"^[^(.]{3,80}\((?:born\b|[^)]*\d{3,4}\s*[-–—]\s*\d{3,4})")
# a name that ends on what it names is a place or a building, not a title to quote ("Carn Dubh Lighthouse": the
# eighty-second review's R085)
_STRUCTURE_NAME = re.compile(
    r"\b(?:lighthouse|bridge|tower|castle|palace|cathedral|church|chapel|abbey|temple|mosque|museum|gallery|station|"
    r"stadium|arena|hall|house|dam|tunnel|canal|airport|harbour|harbor|pier|hospital|school|university|college|"
    r"library|theatre|theater|park|gardens?|square|building|centre|center|hotel|mill|fort|monument|memorial)$",
    re.I,
)


def _agent_object(item: Item, rest: str) -> str:
    """The object of the person's act, written as English: the passage's title in its capitals, quoted unless it
    names a building ("sang the song should have been a cowboy" gave a garbled question); NotApplicable when the rest
    of the question holds a word the passage writes in more than one way (or never), a second clause, or more than
    the act and its object. Other words take the passage's capitals ("plays lindsay denton" → "plays Lindsay
    Denton")."""
    verb, _, obj = rest.partition(" ")
    if verb.lower() not in PERSON_VERBS:
        raise NotApplicable(f"'{verb}' is not an act that needs a person")
    if verb.lower() in _UTTERANCE_VERBS:
        raise NotApplicable("the object of 'said' is an utterance the question gives without quotation marks")
    if _BARE_KIND.match(obj):
        raise NotApplicable("the question names the work's kind without an article ('wrote song ...')")
    kind = _TITLE_KIND.match(obj)
    bare = obj[kind.end() :] if kind else obj
    core = title_core(item.title) if item.title else ""
    person = bool(_PERSON_LEAD.match(item.passages[0]))  # a person's name is no title to quote (fifty-seventh, R042)
    if core and bare.casefold().strip(" ?") == core.casefold() and not item.multi and not person:
        subject = work_subject(item.passages[0], item.title)
        if not kind and _STRUCTURE_NAME.search(core) and (subject is None or subject.kind in BUILT):
            return f"{verb} {core}"
        return f'{verb} {obj[: kind.end()] if kind else ""}"{core}"'
    if kind:
        # "wrote the book a winter in kharkov" of "A Winter in Kharkiv": a title the passage does not give as the
        # question does, which would stay unquoted with its own words' capitals ("the Book a Winter in Kharkov",
        # the seventy-fourth review's R094)
        raise NotApplicable("the question names the work by kind and a title other than the passage's")
    words = re.findall(r"[A-Za-z']+", obj)
    if set(w.lower() for w in words) & _CLAUSE or len(words) > 6:
        raise NotApplicable("the rest of the question has a second clause or a long unquoted title")
    text = " ".join(item.passages)
    for w in words:
        if len(w) < 3 or w.lower() in _CLAUSE | {"the", "for", "with", "from", "most", "first"}:
            continue
        name = passage_form(re.sub(r"'s$", "", w), text)
        if name is None:
            raise NotApplicable(
                f"'{w}' may be a name (or a misspelling) the question writes in lower case: the passage never has "
                "it, has it both ways, or capitalises it only inside a quoted title"
            )
        if name == name.lower():
            continue
        spans = [name, re.sub(r"^(?:The|A|An)\s+", "", name)]
        patterns = [re.compile(rf"(?<![\w']){re.escape(n)}(?![\w])", re.I) for n in spans]
        found = next((p for p in patterns if p.search(obj)), None)
        if found is None:
            raise NotApplicable(f"'{w}' is part of the name '{name}', which the question does not give whole")
        # every time the question has it ("kopf an kopf" of "Kopf an Kopf": the seventy-seventh review's R064)
        obj = found.sub(lambda m, name=name: text_of(name, m.group(0)), obj)
    noun = _NOUN_BEFORE_NAME.match(obj)
    if noun and not re.fullmatch(_KINDS, noun.group("noun"), re.I):
        raise NotApplicable(
            f"a title follows 'the {noun.group('noun')}', which is not its kind ('the music Phantom ...')"
        )
    return f"{verb} {obj}"


# a name as a passage writes it: capitalised words, with the small words a name keeps in lower case between them
# ("Line of Duty", "Dennis the Menace"), without a possessive "'s"
_NAME = re.compile(
    r"[A-Z][\w.-]*(?:['’](?!s\b)\w+)?(?:\s+(?:(?:of|the|de|von|van|da|du|del|la|le)\s+)*[A-Z][\w.-]*(?:['’](?!s\b)\w+)?)*"
)


def text_of(name: str, written: str) -> str:
    """`name` cut to the words the question wrote (the name without its leading article when the question has none)."""
    return name if len(written.split()) == len(name.split()) else name.split(" ", 1)[1]


def passage_form(word: str, text: str) -> str | None:
    """How the passage writes `word` away from a sentence start, when it always writes it one way: the whole name
    it belongs to when capitalised ("Lindsay Denton" for the query's "denton"), the word itself when not ("river");
    None when the passage never has it, has it both ways, or capitalises it only inside a quoted title (the
    query's "the cowboy song" is not "the Cowboy song")."""
    seen = [
        m
        for m in re.finditer(rf"(?<![\w'])(?i:{re.escape(word)})(?![\w'])", text)
        if not re.search(r"(?:^|[.!?][\"”]?\s+|[\"“(]\s*)$", text[: m.start()])
    ]
    forms = {m.group(0) for m in seen}
    if len(forms) != 1:
        return None
    form = forms.pop()
    if form == form.lower():
        return form
    free = [m for m in seen if not inside_quotes(text, m.start())]
    if not free:
        return None
    # None for a form no name pattern covers ("iPhone")
    name = next((n for n in _NAME.finditer(text) if n.start() <= free[0].start() < n.end()), None)
    if name is None:
        return None
    if re.match(r"(?:The|A|An)\s", name.group(0)) and re.search(_SENTENCE_START_BEFORE, text[: name.start()]):
        return name.group(0).split(" ", 1)[1]  # "The Orsolan tree frog (...) is ...": the capital is the sentence's
    return name.group(0)


_SENTENCE_START_BEFORE = r"(?:^|[.!?][\"”]?\s+)$"


@lever(FP, tx.HIGH, "Inanimate Agent Verb", QUERY)
def inanimate_agent(item: Item) -> Proposal:
    """ "Which prime number sang ...?": an abstract thing performing an act only a person can (sing, write,
    paint, marry ...; not "who is", "who won", "who owns", which a team or a company can be said to do)."""
    m = _WHO.match(question_body(item.query))
    if not m or m.group("wh").lower() != "who":
        raise NotApplicable("the query is not a 'who <verb>' question")
    if item.atype not in (at.PERSON, at.ORGANISATION):
        raise NotApplicable("the answer is not a person or a group")
    rest = _agent_object(item, m.group("rest"))
    query = as_question(f"{item.rng.choice(NON_AGENTS)} {rest}")
    return Proposal(
        query, list(item.passages), "Asked which abstract, inanimate thing performed a person's act: a category error."
    )


_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20[0-2]\d)(?!\d)")
LATEST_YEAR = 2017  # the NQ passages were written by then; a later year would be in the future for some
_WHEN = re.compile(r"^(?:when|what year|which year|in what year|in which year|how long|how old)\b", re.I)


@lever(FP, tx.LOW, "Mis-dated Discovery", QUERY)
def misdated_work(item: Item) -> Proposal:
    """Name the passage's work with a wrong year ("who sang the 1981 song holiday road", where the passage
    says it is a 1983 song); the fact asked for does not depend on the year. Only where the passage's
    opening sentence dates the work itself ("is a 1983 song by ...") and the query names it."""
    item.need_anchor()
    if item.multi or not item.title:
        raise NotApplicable("the item has no titled single passage")
    subject = work_subject(item.passages[0], item.title)
    if subject is None or subject.year is None or subject.kind in BUILT:
        raise NotApplicable("the passage does not open by dating its work ('is a 1983 song')")
    body = question_body(item.query)
    if item.atype in (at.DATE, at.YEAR) or _WHEN.match(body) or _YEAR.search(body):
        raise NotApplicable("the question asks about time or already names a year")
    span = subject_span(body, item.title)
    if span is None or pronoun_query(item.query, item.title, "it") is None:
        raise NotApplicable("the query does not name the passage's work")
    start, end, possessive = span
    core = re.search(r"\s+".join(re.escape(w) for w in title_core(item.title).split()), body[start:end], re.I)
    if possessive or core is None:
        raise NotApplicable("the work is named in a possessive")
    if SECOND_REFERENT.search(item.passages[0]):
        raise NotApplicable("the passage names another version or namesake the wrong year could point to")
    stated = {int(y) for p in item.passages for y in _YEAR.findall(p)}
    options = [
        y for d in (-3, -2, 2, 3) if (y := subject.year + d) <= LATEST_YEAR and all(abs(y - x) > 1 for x in stated)
    ]
    if not options:
        raise NotApplicable("no nearby year is free of the passage's years")
    year = item.rng.choice(options)
    named = f'"{subject.name}"'  # the title as the passage writes it, not the query's lower case
    query = as_question(f"{body[:start]}the {year} {subject.kind} {named}{body[end:]}")
    return Proposal(
        query,
        list(item.passages),
        f"Called the {subject.kind} a {year} {subject.kind}; the passage dates it {subject.year}, and the asked fact "
        "does not depend on the year.",
    )


# the noun a sentence may use for the passage's work, per kind as subject.KINDS names it
_WORK_NOUNS = {
    "song": "song|single|track",
    "album": "album|record",
    "film": "film|movie",
    "novel": "novel|book",
    "poem": "poem",
    "play": "play",
    "musical": "musical",
    "series": "series|show|sitcom|programme|program",
}
_VERBS = "released|published|broadcast|aired"
_ADVERB = r"(?:(?:first|originally|officially|initially|also|subsequently|later)\s+)?"
# anything that makes "never released" partly true, or the release a matter of degree
_UNRELEASED = re.compile(
    r"\b(?:never|unreleased|unpublished|not\s+(?:been\s+)?(?:released|published|broadcast|aired)|cancel+ed|"
    r"cancel+ation|shelved|scrapped|withdrawn|banned|leaked|unfinished|abandoned|postponed|delayed|rejected)\b",
    re.I,
)
# other works a bare "It" could point back to ("a song from the film ...")
_OTHER_WORKS = (
    "album",
    "record",
    "EP",
    "soundtrack",
    "film",
    "movie",
    "novel",
    "book",
    "series",
    "show",
    "musical",
    "play",
)


_CREDIT = r"(?:,?\s+(?:written\s+|created\s+|directed\s+)?by\s+(?:the\s+)?[A-Z][\w'’.&!-]*(?:\s+[A-Z][\w'’.&!-]*)*)?"
_PARTICIPLE = rf"{_ADVERB}(?P<verb>{_VERBS})\b"
_AIRED = rf"{_ADVERB}(?P<aired>aired|premiered)\b"  # a series "aired on Fox from 2002"


def _release_statement(item: Item, subject) -> tuple[str, str] | None:
    """(the query's "never ..." phrase, sentence) for the passage's plain statement that its work was released
    (published, broadcast, aired) in a given year, with the work itself as the grammatical subject (or the
    work's noun right before "released" in the opening sentence); None when there is none."""
    nouns = _WORK_NOUNS.get(subject.kind)
    if nouns is None:
        return None
    series = subject.kind == "series"
    opening_forms = rf"{_PARTICIPLE}|(?:that\s+|which\s+)?{_AIRED}" if series else _PARTICIPLE
    forms = rf"was\s+{_PARTICIPLE}|{_AIRED}" if series else rf"was\s+{_PARTICIPLE}"
    sents = split_sentences(item.passages[0])
    name = re.escape(subject.name)
    others = "|".join(w for w in _OTHER_WORKS if not re.fullmatch(nouns, w))
    # the opening's own "is a ... song" noun, not a later one ("from the film, whose title track, released ...")
    kind = rf"^.*?\b(?:is|was)\s+(?:a|an)\s+(?:[\w'-]+\s+){{0,5}}?(?:{nouns})"
    candidates = [(re.match(rf"{kind}{_CREDIT},?\s+(?:{opening_forms})(?P<rest>[^;]*)$", sents[0]), sents[0])]
    for k, sent in enumerate(sents[1:], start=1):
        starts = rf"(?:The\s+(?:{nouns})|[\"“]?{name}[\"”]?)"
        if k == 1 and not re.search(rf"\b(?:{others})s?\b", sents[0].replace(subject.name, "")):
            starts = rf"(?:It|{starts})"  # "It" right after an opening that names no other work
        candidates.append((re.match(rf"{starts}\s+(?:{forms})(?P<rest>.*)$", sent), sent))
    for m, sent in candidates:
        if m and _YEAR.search(m.group("rest")):
            never = "air" if m.groupdict().get("aired") else m.group("verb")
            return never, sent
    return None


@lever(FP, tx.MEDIUM, "Stopped vs. Never Started", QUERY)
def never_released(item: Item) -> Proposal:
    """Ask why the passage's work was never released (published, broadcast) where the passage says outright
    that it was, in a given year ("It was first released in October 1989"): the asked-for reason exists only
    if the premise holds, so nothing in the passage answers it.

    Only a single titled passage that opens on its work ("Sacrifice is a ballad by ...") and states its release
    with the work as the sentence's subject ("The song was released ...", "It was released ..." right after an
    opening that names no other work). Declined: a passage that mentions anything unreleased, cancelled,
    shelved or withdrawn (a premise that is partly true), a bare "is a 1983 song" (a date, not a release)."""
    if item.multi or not item.title:
        raise NotApplicable("the item has no titled single passage")
    subject = work_subject(item.passages[0], item.title)
    if subject is None or subject.kind in BUILT:
        raise NotApplicable("the passage does not open on a creative work ('X is a 1983 song by ...')")
    if _UNRELEASED.search(item.passages[0]):
        raise NotApplicable("the passage mentions something unreleased, cancelled or withdrawn")
    found = _release_statement(item, subject)
    if found is None:
        raise NotApplicable("the passage does not state that the work itself was released in a given year")
    verb, sentence = found
    did = "did" if verb == "air" else "was"
    query = as_question(f'Why {did} the {subject.kind} "{subject.name}" never {verb}')
    return Proposal(
        query,
        list(item.passages),
        f"Asked why the {subject.kind} was never {verb}; the passage says it was: {sentence[:120]!r}.",
    )
