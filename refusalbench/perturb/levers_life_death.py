"""P-Contradiction HIGH, "Life/Death Status Inconsistency" (catalogue): the person who answers a "who" question is
stated to have died years before the act the passage dates.

"Who was appointed chairman of the board?" is answered by "Ajay Tyagi was appointed chairman on 10 January 2017".
Adding "Ajay Tyagi died in 2006." leaves two statements that cannot both be true: a man dead since 2006 was not
appointed in 2017. Neither reads as a slip of the other (a death is a fact of its own, not a mistyped figure), and
the clash is about the answer itself: if he died first, someone else was appointed. No coherent answer is left.

Precision first, the act must be one only a living person does and the year must date that act:
- the answer sentence names the person as the doer of a live act (appointed, elected, sang, directed, discovered,
  founded, won, ...), with the year next to it ("In 1492 Columbus sailed", "devised in the 1940s by Walter Pauk",
  "a 1993 film directed by Henry Selick"); acts a dead person's name can still take are declined (written,
  composed, published, released, awarded, inducted, named after), and so is any other name between the person
  and the year (the year may date someone else's act: "written by Billy Hill, recorded by Benny Goodman in 1936");
- the sentence holds one year, the gold answers are one person, and the passage says nothing of anyone's birth,
  death or age (a stated birth year can make the new death date absurd rather than contradictory);
- the dated act is the one the question asks ("who discovered" / "first charted in 1793"), unless the question
  asks what the person is now ("who is the current chair"): a death before a dated patent leaves an older, undated
  invention standing (thirty-second blind review);
- the death year is 8 to 15 years before the act (too far for a posthumous release or a delayed premiere to
  explain it) and is none of the passage's years.

The death closes the passage, never before a cut-off last sentence that opens on a pronoun ("His work was"),
whose reference it would take over.
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb import answer_types as at
from refusalbench.perturb import contradiction_gates as gates
from refusalbench.perturb.base import NOISE, Item, NotApplicable, Proposal, append_sentence, lever
from refusalbench.perturb.text import answer_pattern, ends_sentence, question_body, split_sentences

CO = tx.CONTRADICTION
# acts only a living person does; forms as they follow the person ("Walter Pauk devised") or precede "by"
_LIVE_ACT = (
    r"(?P<act>sang|sung|recorded|performed|played|starred|directed|conducted|hosted|presented|won|defeated|beat|scored|"
    r"captained|led|commanded|sailed|flew|ran|climbed|discovered|invented|devised|designed|founded|co-founded|"
    r"established|appointed|elected|re-elected|sworn\s+in|became|succeeded|replaced|married|declared|signed|"
    r"delivered|coached|drove|rode|proposed|introduced|unveiled|broke|reprised|cast|crowned|inaugurated|painted|"
    r"portrayed|voiced|created|developed|patented|observed|identified|coined|headlined|toured|hired|chosen|"
    r"selected|deciphered|built|carved|sculpted|photographed|filmed|produced|choreographed|staged|premiered|"
    r"took\s+office|took\s+charge|charted|surveyed|mapped)"
)
_AUXILIARY = r"(?:(?:was|is|had|has)\s+)?(?:(?:first|jointly|later|then|also)\s+)?(?:\w+ly\s+)?"
_YEAR = re.compile(r"(?<![\d.])(?<!\d,)(?P<y>1[0-9]\d\d|20\d\d)(?:s|–\d\d)?(?!\d)")
# what may stand between the year and the person: a day and month, a comma, lower-case words (no other name)
_DATE_WORDS = rf"(?:(?:{at.MONTH_NAMES})\.?|\d{{1,2}}(?:st|nd|rd|th)?,?)"
_GAP = rf"(?:\s*,?\s+(?:{_DATE_WORDS}|[a-z][\w-]*))*?\s*,?\s*"
# anything in the passage about birth, death or age
_LIFESPAN = re.compile(
    r"\b(?:born|died|dies|death|dead|deceased|the\s+late|posthumous\w*|killed|murdered|assassinated|executed|"
    r"buried|funeral|widow\w*|aged?\s+\d+|\d+-year-old|years?\s+old|lifetime|obituary)\b|\(\s*(?:b\.|d\.)|"
    r"\(\s*\d{4}\s*[–-]\s*\d{4}\s*\)",
    re.I,
)
MIN_GAP, MAX_GAP = 8, 15


def dated_act(sentence: str, name: str) -> tuple[int, str] | None:
    """The year and verb of the person's own live act in `sentence`, or None when no pattern ties the two
    together."""
    n = re.escape(name)
    y = r"(?P<y>1[0-9]\d\d|20\d\d)(?:s)?"
    by = rf"by\s+(?:the\s+)?(?:[\w'-]+\s+){{0,4}}?{n}"  # "by the Spanish navigator Diego de Alcorta"
    when = rf"(?:in|on|during)\s+(?:the\s+)?(?:{_DATE_WORDS}\s+)*{y}\b"
    shapes = (
        # "In 1492 Christopher Columbus sailed", "On 5 May 1891, Tchaikovsky conducted"
        rf"\b(?:[Ii]n|[Oo]n|[Bb]y|[Dd]uring)\s+(?:the\s+)?(?:{_DATE_WORDS}\s+)*{y}{_GAP}{n}\s+{_AUXILIARY}{_LIVE_ACT}\b",
        # "Ajay Tyagi was appointed chairman on 10 January 2017", "Ingrid Mjelde, who succeeded Arne Vassbotn in
        # 2019"
        rf"{n}(?:,\s*who)?\s+{_AUXILIARY}{_LIVE_ACT}\b(?:\s+[\w'-]+){{0,6}}?\s+{when}",
        # "discovered by German botanist Hugo von Mohl in 1835"
        rf"\b{_LIVE_ACT}\s+{by}\s+{when}",
        # "devised in the 1940s by Walter Pauk", "founded in Aarhus in 1992 by the nurse Margrethe Holm"
        rf"\b{_LIVE_ACT}\s+(?:in\s+[A-Z][\w-]+\s+)?{when}\s+{by}",
        # "a 1993 American ... film directed by Henry Selick", "The 2009 tournament was won by the golfer ..."
        rf"\b(?:[Aa]n?|[Tt]he|[Hh]is|[Hh]er|[Tt]heir)\s+{y}\s+(?:[A-Za-z][\w-]*\s+){{0,7}}?"
        rf"(?:written\s+and\s+)?{_LIVE_ACT}\s+{by}\b",
    )
    for shape in shapes:
        m = re.search(shape, sentence)
        if m and not re.search(r"[;()]|\band\s+[A-Z]|,\s*and\b", m.group(0).replace(name, "")):
            return int(m.group("y")), re.sub(r"\s+", " ", m.group("act").lower())
    return None


# verbs of one act, as a question and a passage word them ("who discovered ..." / "first charted in 1793 by")
_ACT_FAMILIES = tuple(
    frozenset(f.split())
    for f in (
        "discover discovered discovers discoverer charted surveyed mapped identified observed",
        "invent invented invents inventor devised developed created",
        "found founded founds founder established establish start started starts co-founded",
        "win won wins winner defeated beat declared",
        "sing sang sings sung singer recorded record performed perform performs",
        "play played plays portrayed starred star stars voiced voices reprised cast",
        "design designed designs designer built build builder",
        "lead led leads leader commanded command commander captained captain",
        "host hosted hosts presenter presented",
        "become became appointed elected re-elected chosen selected hired inaugurated crowned succeeded replaced",
    )
)
# a question about what the person is or has now, which a death before the act undoes whatever the act was
_PRESENT = re.compile(r"^who(?:'s|\s+is|\s+are|\s+has|\s+have)\b|\b(?:current|currently|present|now|today)\b", re.I)


def asks_the_dated_act(query: str, act: str) -> bool:
    """True when the question asks about the act the passage dates ("who discovered" / "charted in 1793") or
    about what the person is now ("who is the current chair" / "appointed in 2021"). Not for another act of
    the same person: "who invented" answered by "patented the design in 1887" (the invention may be older)."""
    if _PRESENT.search(question_body(query)):
        return True
    words = set(re.findall(r"[a-z-]+", query.lower()))
    family = next((f for f in _ACT_FAMILIES if act.split()[0] in f), frozenset({act.split()[0]}))
    return bool(words & family) or any(w[:5] == act[:5] for w in words if len(w) >= 5)


_TITLES = frozenset("sir dame lord lady dr mr mrs ms st saint king queen prince princess jr sr the".split())


def _name_words(name: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", name.lower()) if len(w) > 2 and w not in _TITLES}


def one_person(item: Item) -> bool:
    """True when every gold answer shares a name word with the anchor ("Robert Downey, Jr." / "Robert Downey Jr.",
    "Lexie Grey" / "Lexie"), so the answers are forms of one name, not two people."""
    anchor = _name_words(item.anchor_text)
    return all(_name_words(a) & anchor for a in item.answers)


# what a band, a company or a team is called where it is named ("the investment bank Friedman Billings Ramsey",
# "Argent were a British band"): the answer types take a capitalised name for a person or a performing group
_GROUP_NOUNS = at.ORG_WORDS | frozenset(
    """band bands group groups duo trio quartet quintet ensemble choir firm label sponsor brand manufacturer
    publisher broadcaster channel airline carrier franchise partnership practice house dynasty family brothers
    sisters""".split()
)


def not_one_person(text: str, name: str) -> str | None:
    """A word that shows `name` is a group or an organisation where the text names it, else None: a group noun
    in the four words before it or the six after it, or a plural verb right after it ("Eagles were ...")."""
    for m in re.finditer(re.escape(name), text):
        before = re.findall(r"[a-z]+", text[max(0, m.start() - 50) : m.start()].lower())[-4:]
        after = re.findall(r"[a-z]+", text[m.end() : m.end() + 60].lower())[:6]
        found = next((w for w in before + after if w in _GROUP_NOUNS), None)
        if found:
            return found
        if after[:1] and after[0] in ("were", "are", "have"):
            return after[0]
    return None


@lever(CO, tx.HIGH, "Life/Death Status Inconsistency", NOISE)
def dead_before_the_act(item: Item) -> Proposal:
    """Add "<person> died in <year>." 8 to 15 years before the live act the passage dates for the person who
    answers a "who" question (closing the passage; a noise passage of its own for multi-passage items)."""
    item.need_anchor()
    if not re.match(r"who\b", question_body(item.query), re.I):
        raise NotApplicable("the query does not ask 'who'")
    if item.atype != at.PERSON:
        raise NotApplicable("the answer is not a person")
    if not one_person(item):
        raise NotApplicable("the gold answers are not one person; a death leaves another answer standing")
    gates.grounded(item)
    passages = [item.passages[i] for i in item.answer_passages()]
    lifespan = next((m for p in item.passages if (m := _LIFESPAN.search(p))), None)
    if lifespan:
        raise NotApplicable(f"the passages speak of a birth, death or age ({lifespan.group(0)!r})")
    name = item.anchor_text
    group = not_one_person(" ".join(passages), name)
    if group:
        raise NotApplicable(f"the passage calls the answer a group or an organisation ({group!r}), not one person")
    pattern = answer_pattern(name)
    sentences = [s for p in passages for s in split_sentences(p) if pattern and pattern.search(s)]
    dated = [(s, *found) for s in sentences if (found := dated_act(s, name)) is not None]
    if not dated:
        raise NotApplicable("no sentence dates a live act of the person (appointed, sang, discovered ...)")
    sentence, year, act = dated[0]
    if not asks_the_dated_act(item.query, act):
        raise NotApplicable(f"the passage dates another act of the person ({act!r}) than the question asks")
    if len(set(_YEAR.findall(sentence))) != 1:
        raise NotApplicable("the answer sentence holds more than one year; which one dates the act is unclear")
    taken = set(gates.passage_years(item))
    options = [year - k for k in range(MIN_GAP, MAX_GAP + 1) if year - k not in taken]
    if not options:
        raise NotApplicable("every death year 8 to 15 years before the act is already a year of the passage")
    death = item.rng.choice(options)
    statement = f"{name} died in {death}."
    gates.well_formed(item, statement)
    return Proposal(
        item.query,
        _placed(item, statement),
        f"Added that {name} died in {death}, {year - death} years before the act the passage dates to {year}.",
    )


_POINTER = re.compile(r"[\"'“]?(?:he|she|it|they|his|her|its|their|this|these|that)\b", re.I)


def _placed(item: Item, statement: str) -> list[str]:
    """The passages with `statement` closing the passage that dates the act (single), or as one noise passage
    (multi). At the end, not beside the act: a death put between two sentences about a film or a song would take
    over their "it" and "the film"."""
    if item.multi:
        if not item.noise:
            raise NotApplicable("the item has no noise passage to edit")
        return item.with_passages({item.rng.choice(sorted(item.noise)): statement})
    last = split_sentences(item.passages[0])[-1]
    if not ends_sentence(last) and _POINTER.match(last):
        # the passage is cut inside a sentence that points back ("His work was"): it would follow the death
        raise NotApplicable("the passage ends on a cut sentence opening on a pronoun, which the death would take")
    return [append_sentence(item.passages[0], statement)]
