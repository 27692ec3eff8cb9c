"""Coarser descriptions of an answer value: date → year → decade → century, number → range →
order of magnitude, person → the role group they belong to → a collective, place → its region → Earth.

`coarse_phrase(item, level)` gives the replacement text for level 1 (one step coarser than the
query asks) or 2 (far coarser); `coarsen_passage` rewrites a passage with it, fixing the
preposition in front of a date ("on May 18, 2018" → "in 2018").
"""

from __future__ import annotations

import math
import re
from typing import Optional

from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import (
    _NAME_GOES_ON,
    _SENTENCE_START,
    _WORD_BEFORE,
    ARTICLES,
    PREPOSITIONS,
    Item,
    NotApplicable,
    a_or_an,
    at_sentence_start,
    in_compound,
    replace_spans,
)
from refusalbench.perturb.distractors import person_kind
from refusalbench.perturb.text import answer_pattern, capitalise, contains, contains_any, split_sentences, tidy

# query verb → (a member of the group, the definite form, someone in a far wider world); each reads as a
# noun phrase wherever a name stood ("written by a writer", "Someone in the music industry sang it")
ROLES = (
    (
        r"\b(?:play|plays|played|playing|portray\w*|star\w*|voice[sd]?|voicing|act\w*|cast)\b",
        "a member of the cast",
        "that cast member",
        "someone in the film and television industry",
    ),
    (
        r"\b(?:sing|sings|sang|sung|singing|perform\w*|record\w*|song)\b",
        "a recording artist",
        "that recording artist",
        "someone in the music industry",
    ),
    (
        r"\b(?:write|writes|wrote|written|writing|compos\w*|author\w*|pen\w*)\b",
        "a writer",
        "that writer",
        "someone in the world of letters",
    ),
    (r"\b(?:direct\w*|produc\w*)\b", "a film-maker", "that film-maker", "someone in the film industry"),
    (
        r"\b(?:invent\w*|discover\w*|develop\w*|creat\w*|found\w*|design\w*|built|build\w*|propos\w*|coin\w*)\b",
        "an innovator",
        "that innovator",
        "someone in science or industry",
    ),
    (
        r"\b(?:win|wins|won|winning|score\w*|beat\w*|coach\w*|captain\w*|champion\w*|record holder|mvp|player|"
        r"medal\w*|olympic\w*|athlete|race|cup|league|match|tournament)\b",
        "a competitor",
        "that competitor",
        "someone in the sporting world",
    ),
    (
        r"\b(?:president|king|queen|prime minister|rule[sd]?|ruling|govern\w*|elect\w*|leader|chancellor|"
        r"minister|senator|mayor|speech|represent\w*|declar\w*|congress|parliament|secretary|department|constitution\w*|treaty|party)\b",
        "a politician",
        "that politician",
        "someone in public life",
    ),
    (
        r"\b(?:led|lead|leads|command\w*|conque\w*|general|army|war|battle|invad\w*|surrender\w*)\b",
        "a commander",
        "that commander",
        "someone in the military",
    ),
    (
        r"\b(?:own|owns|owned|owner|ceo|chairman|company|business|brand|franchise|nba|nfl|mlb|nhl|team|season|game)\b",
        "an executive",
        "that executive",
        "someone in business",
    ),
)


def role(query: str) -> tuple[str, str, str]:
    """(member, definite, far wider) for the group the query's verb puts the person in; NotApplicable when
    the query names no role (no group to coarsen to: "society as a whole" is no description of a person)."""
    for pattern, member, definite, collective in ROLES:
        if re.search(pattern, query, re.I):
            return member, definite, collective
    raise NotApplicable("the query names no role whose group could stand for the person")


def decade(year: int) -> str:
    return f"the {year // 10 * 10}s"


def century(year: int) -> str:
    n = (year - 1) // 100 + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"the {n}{suffix} century"


def region_of(item: Item, passage: str) -> Optional[tuple[str, str]]:
    """(text to replace, region) for a place answer written "<place>, <Region>" in the passage or answer."""
    anchor = item.need_anchor()
    m = re.fullmatch(r"(.+?),\s+([A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,2})", anchor)
    if m:
        return anchor, m.group(2)
    pat = answer_pattern(anchor)
    m = re.search(f"(?i:{pat.pattern})" + r",\s+([A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,2})", passage) if pat else None
    return (m.group(0), m.group(1)) if m else None


def number_phrase(num: at.NumberValue, level: int) -> Optional[str]:
    """A range (level 1) or an order-of-magnitude phrase (level 2) around the number, with its unit."""
    value = num.magnitude
    if value <= 0 or num.prefix.strip() in ("$", "£", "€") and level == 2:
        return None
    cur = num.prefix.strip() if num.prefix.strip() in ("$", "£", "€") else ""
    if level == 1:
        if value < 10:
            phrase = "fewer than ten"
        else:
            base = num.value if num.scale else value  # "247.3 million" → "between 200 and 300 million"
            step = 10 ** int(math.floor(math.log10(base)))
            lo = int(base // step * step)
            phrase = f"between {cur}{lo:,} and {cur}{lo + step:,}{num.scale}"
    else:
        words = (
            (10, "a number of"),
            (100, "dozens of"),
            (1e3, "hundreds of"),
            (1e6, "thousands of"),
            (1e9, "millions of"),
        )
        phrase = next((w for limit, w in words if value < limit), "billions of")
    return f"{phrase}{num.unit}"


def coarse_phrase(item: Item, level: int, passage: str = "") -> tuple[str, str]:
    """(what to replace: the anchor or a longer span, replacement) for one coarsening level."""
    anchor = item.need_anchor()
    t = item.atype
    if t == at.DATE:
        d = at.parse_date(anchor)
        if d is None or d.year is None:
            raise NotApplicable("the date has no year to coarsen to")
        return anchor, [str(d.year), decade(d.year), century(d.year)][level - 1]
    if t == at.YEAR:
        year = at.parse_year(anchor)
        lead = "in " if anchor.lower().startswith("in ") else ""
        return anchor, lead + [decade(year), century(year)][min(level, 2) - 1]
    if t == at.NUMBER:
        num = at.parse_number(anchor)
        phrase = number_phrase(num, level) if num else None
        if not phrase:
            raise NotApplicable("the number cannot be put as a range")
        return anchor, phrase
    if t == at.PERSON:
        if person_kind(anchor, item.passages) == "group":
            raise NotApplicable("the answer is a group (a band, a team), not one person with a role")
        member, _, collective = role(item.query)
        return anchor, member if level == 1 else collective
    if t == at.PLACE:
        if level == 2:
            return anchor, "somewhere on Earth"
        found = region_of(item, passage)
        if not found:
            raise NotApplicable("the passage names no larger region for the place")
        return found
    raise NotApplicable(f"a {t} answer has no coarser level")


_DATE_PREP = ("on", "in")
# words after which a name can give way to "a writer" / "someone in ...": prepositions, conjunctions,
# verbs (-ed/-ing, "is"), list commas; not after a noun or title ("rock band Los Lonely Boys")
_SLOT_WORDS = (
    PREPOSITIONS
    | ARTICLES
    | frozenset(
        "by and or with as than including featuring starring feat ft of is was were are be been became become "
        "made make makes gave give gives told tell tells saw see sees met meet meets beat beats hit took take takes "
        "left leave leaves join joins replace replaces succeed succeeds".split()
    )
)
_NAMING = frozenset("named called titled entitled nicknamed dubbed renamed known".split())


_LIST_GOES_ON = re.compile(r",\s+(?:and|or|but|while|when|after|before|because|although|though|as|which)\b")
_FUNCTION = frozenset("and or but which who that as than".split())
_POSSESSIVES = frozenset("his her its their our my your".split())
#: Words after which a number is a determiner's count ("all 250 episodes", "these 12 states"), which a range
#: cannot take ("all between 200 and 300 episodes").
_QUANTIFIERS = frozenset("all these those both each every first last only other remaining such whole entire".split())
_QUALIFIER = re.compile(
    r"(?:^|(?<=\s))(?:more|less|fewer|greater|larger|higher|lower)\s+than\s+$|"
    r"(?:^|(?<=\s))(?:over|under|about|around|approximately|nearly|almost|roughly|some|at\s+least|up\s+to)\s+$",
    re.I,
)
_ASIDE = re.compile(r"^\s*(?:\([^()]*\)|/[^/]{1,40}/)(?=[\s,;.])")  # "(born 1977)", "/ˈbæŋkwoʊ/" right after a name


def name_slot_ok(before: str, after: str) -> bool:
    """True when a name between `before` and `after` can be replaced by a descriptive noun phrase.

    Not before an appositive ("Banquo /ˈbæŋkwoʊ/, the Thane of Lochaber, ..."), which describes one
    specific person (a pronunciation or bracketed aside right after the name goes with it); only
    after a sentence start, a list comma or a word that takes a noun phrase (preposition,
    conjunction, verb), never after a noun ("rock band Los Lonely Boys").
    """
    rest = _ASIDE.sub("", after, count=1)
    if re.match(r"\s*[(/\[]|\s+[A-Z]", rest) or (re.match(r",\s+[a-z]", rest) and not _LIST_GOES_ON.match(rest)):
        return False
    if _SENTENCE_START.search(before) or re.search(r"[,(]\s*$", before):
        return True
    w = _WORD_BEFORE.search(before)
    word = w.group(1).lower() if w else ""
    if not word or word in _NAMING:
        return False
    return word in _SLOT_WORDS or (w.group(1).islower() and bool(re.search(r"(?:ed|ing)$", word)))


def attributive(phrase: str) -> str:
    """A time phrase as a modifier: "the 1960s" → "1960s", "the 20th century" → "20th-century"."""
    phrase = phrase.removeprefix("in ").removeprefix("the ")
    return phrase.replace(" century", "-century")


def coarsen_passage(item: Item, passage: str, level: int, name_tokens: list[str] = ()) -> str:
    """Every statement of the answer in `passage` replaced by its coarser description.

    A date's "on"/"in" becomes "in" ("on May 18, 2018" → "in 2018"); a year used as a modifier after
    "a" becomes an adjective ("a 1967 film" → "a 1960s film") and after "the" (an event named by its
    year: "the 1998 World Cup") is not coarsened. A person is coarsened only where a noun phrase fits
    (see `name_slot_ok`), later mentions by the definite form ("that writer"); two replaced mentions
    in one sentence (a list of answers) would collapse into nonsense and make the lever not applicable.
    """
    target, phrase = coarse_phrase(item, level, passage)
    temporal = item.atype in (at.DATE, at.YEAR)
    same_type = [a for a in item.answers if at.detect(a, item.query) == item.atype] + item.aliases()
    pieces = [target] + [a for a in same_type if a != target and (item.atype != at.PLACE or level == 2)]
    pieces = sorted(set(pieces), key=len, reverse=True)
    alternatives = [p.pattern for p in (answer_pattern(x) for x in pieces) if p is not None]
    alternatives += [rf"(?-i:(?<!\w){re.escape(w)}(?!\w))" for w in name_tokens]  # name words: exact case
    if not alternatives:
        raise NotApplicable("no answer to coarsen")
    union = re.compile("|".join(f"(?:{a})" for a in alternatives), re.I)
    owners = [a.lower() for a in pieces] + [w.lower() for w in name_tokens]
    for sentence in split_sentences(passage):
        named = (
            {
                next(
                    (a for a in sorted(item.answers, key=len, reverse=True) if contains(a, m.group(0))),
                    m.group(0).lower(),
                )
                for m in union.finditer(sentence)
            }
            if owners
            else set()
        )
        if len(named) > 1:
            raise NotApplicable("a sentence names several answers, which one description would merge")
    definite = role(item.query)[1] if item.atype == at.PERSON else phrase
    if item.atype == at.PERSON and level == 2:
        definite = "that person"
    seen = [0]

    def decide(text: str, m: re.Match) -> tuple[int, str]:
        if in_compound(text, m.start(), m.end()):
            raise NotApplicable("the answer is part of a compound")
        begin, matched = m.start(), m.group(0)
        if temporal:
            # a gold answer with its verb ("published in 1994"): only the date phrase changes, the verb stays
            core = re.search(rf"\b(?:on|in)\s+|\d|\b(?:{at.MONTH_NAMES})\b", matched, re.I)
            if core and core.start() > 0:
                begin, matched = m.start() + core.start(), matched[core.start() :]
        before, after = text[:begin], text[m.end() :]
        w = _WORD_BEFORE.search(before)
        prev = w.group(1).lower() if w else ""
        start, repl = begin, phrase
        if temporal:
            if (
                w
                and w.group(1)[:1].isupper()
                and not _SENTENCE_START.search(before[: w.start(1)])
                and prev not in PREPOSITIONS
                and at.parse_date(w.group(1) + " 1") is None
            ):
                raise NotApplicable('the year is part of a name ("Housing Act 1980")')
            lead = matched.split(maxsplit=1)[0].lower()
            if lead in _DATE_PREP and len(matched.split()) > 1:
                # the matched answer carries its own preposition ("in 1931"): keep one
                repl = "in " + phrase.removeprefix("in ")
            elif prev in _POSSESSIVES and re.match(r"\s+[\w-]", after):
                repl = attributive(phrase)  # "their 1973 album" → "their 1970s album"
            elif prev in _DATE_PREP:
                start, repl = w.start(1), "in " + phrase.removeprefix("in ")
            elif prev in ARTICLES or re.search(r"'s\s+$", before):
                if prev not in ("a", "an") or level > 2 or not re.match(r"\s+[\w-]", after):
                    raise NotApplicable('the year names a specific event ("the 1998 World Cup")')
                adj = attributive(phrase)
                start, repl = w.start(1), f"{a_or_an(adj)} {adj}"
        elif item.atype == at.PERSON:
            if not name_slot_ok(before, after):
                raise NotApplicable("the name stands where no description fits (after a noun, before an aside)")
            repl = phrase if seen[0] == 0 else definite
            seen[0] += 1
            if prev in ARTICLES:
                start = w.start(1)  # "the President" → "a politician", not "the a politician"
            aside = _ASIDE.match(after)
            if aside:  # the aside belongs to the name: "Zachary Quinto (born June 2, 1977) is ..."
                return (
                    start,
                    (capitalise(repl) if at_sentence_start(text[:start]) else repl),
                    m.end() + aside.end(),
                )
        elif item.atype == at.NUMBER:
            if prev in ARTICLES | _POSSESSIVES | _QUANTIFIERS:
                raise NotApplicable('the number follows a determiner ("the eight hoops", "all 250 episodes")')
            if (
                phrase.endswith(" of")
                and not re.match(r"\s+[a-z]", after)
                or re.match(r"\s+(?:" + "|".join(PREPOSITIONS | ARTICLES | _FUNCTION) + r")\b", after)
                and phrase.endswith(" of")
            ):
                raise NotApplicable("no noun follows the number for 'thousands of' to count")
            q = _QUALIFIER.search(before)
            if q and (phrase.startswith("between") or not re.match(r"(?:over|under)\b", q.group(0), re.I)):
                start = q.start()  # "more than 247.3 million" → "between 200 and 300 million", not "more than between"
        elif item.atype == at.PLACE and level == 2:
            m2 = re.search(
                r"(?:^|(?<=\s))(?:(in|at)\s+(?:the\s+)?|(?:on|to|from|near|across|throughout)\s+(?:the\s+)?)$",
                before,
                re.I,
            )
            if not m2 or _NAME_GOES_ON.match(text, m.end()) or re.match(r",\s+(?:the|a|an)\s", after):
                raise NotApplicable("the place name is not a location phrase ('in Virginia') that 'somewhere' can take")
            start = m2.start(1) if m2.group(1) else m2.end() - len(re.search(r"(?:the\s+)?$", before).group(0))
        if at_sentence_start(text[:start]):
            repl = capitalise(repl)
        return start, repl

    text = replace_spans(passage, union, decide)
    if contains_any(text, [a for a in item.answers if a not in same_type]):
        raise NotApplicable("another answer of a different type still answers the query")
    return tidy(text)
