"""P-Ambiguity levers: the query's named subject becomes a pronoun.

LOW replaces the subject (the passage's title, named in the query) with "it", whose only salient
referent in the passage is that subject. Items whose subject is a person, is not named in the query,
or heads a longer phrase ("the inner core of the earth") are declined. MEDIUM and HIGH are in
`levers_ambiguity_pair` (whole leads of other works asked the same question beside the passage).
"""

from __future__ import annotations

import functools
import re
from typing import Optional

from refusalbench import taxonomy as tx
from refusalbench.perturb.base import QUERY, Item, NotApplicable, Proposal, lever
from refusalbench.perturb.distractors import STOPWORDS
from refusalbench.perturb.subject import title_core, work_subject
from refusalbench.perturb.text import as_question, contains, contains_any, split_sentences

AM = tx.AMBIGUITY
KIND_NOUNS = (
    "song",
    "film",
    "movie",
    "book",
    "novel",
    "show",
    "series",
    "tv show",
    "album",
    "band",
    "game",
    "poem",
    "play",
    "musical",
    "episode",
    "season",
    "company",
    "river",
    "city",
    "bridge",
    "building",
    "ship",
    "law",
    "act",
)
# query kind nouns the passage's opening calls by another name
_SAME_KIND = {"movie": "film", "tv show": "series", "show": "series", "book": "novel"}
_WH = re.compile(r"^(?:who|whom|what|when|where|which|how|why)\b", re.I)
_PERSONAL = re.compile(r"\b(?:he|his|him|she|her|hers|himself|herself)\b", re.I)
_HAS_PRONOUN = re.compile(r"\b(?:it|its|this|that one)\b", re.I)
# a pronoun may follow these words ("who sang it", "in it") and be followed by these ("it come out", "it in")
BEFORE = frozenset(
    """who whom what when where which how why is was are were did does do has have had will can could would
should in on of for from at by about with to into after before during sang sings sing wrote writes write plays played
play directed produced made owns owned built designed created invented founded started voices voiced narrates narrated
composed performs performed recorded released hosts hosted won wins leads led runs ran sponsors sponsored""".split()
)
PREPOSITIONS = frozenset("in on of for from at by about with to into after before during".split())
# two determiners in a row or a doubled word: "a another name", "the the"
DOUBLED = re.compile(r"\b(?:a|an|the)\s+(?:a|an|the|another)\b|\b(\w+)\s+\1\b", re.I)
# no preposition after the pronoun: "what is it on the computer", "who sings it by the eagles" attach a
# modifier that the name carried and "it" cannot
AFTER = frozenset(
    """come came take takes took get got
start started end ended begin began air aired open opened happen happened released made written filmed set located built
based founded published recorded produced directed created launched formed become became
first last originally""".split()
)


def subject_span(query: str, title: str) -> Optional[tuple[int, int, bool]]:
    """(start, end, possessive) of the query's mention of `title` with any "the [song]" before it."""
    core = title_core(title)
    if len(core) < 4 or not re.search(r"[A-Za-z]{3}", core):
        return None
    body = r"\s+".join(re.escape(w) for w in core.split())
    nouns = "|".join(re.escape(n) for n in KIND_NOUNS)
    m = re.search(rf"(?<!\w)(?:the\s+)?(?:(?:{nouns})\s+)?{body}(?!\w)('s)?", query, re.I)
    if not m or m.start() == 0:
        return None
    return m.start(), m.end(), bool(m.group(1))


def pronoun_query(query: str, title: str, pronoun: str) -> Optional[str]:
    """The query with its subject replaced by `pronoun` ("it" / "that one"), or None."""
    if not _WH.match(query.strip()) or _HAS_PRONOUN.search(query):
        return None
    span = subject_span(query, title)
    if span is None:
        return None
    start, end, possessive = span
    before = re.findall(r"[a-z0-9']+", query[:start].lower())
    after = re.findall(r"[a-z0-9']+", query[end:].lower())
    if set(before[-2:]) & set(KIND_NOUNS) or before[-1:] == ["to"]:
        return None  # "the song to make you feel my love", "i'm going to soak up the sun": the title began earlier
    if {w for w in re.findall(r"[a-z']+", title.lower()) if len(w) > 3} & set(before + after):
        return None  # "who won the battle of the first battle of bull run": the rest repeats the name
    if {"are", "were", "do", "have"} & set(before):
        return None  # a plural subject, which "it" cannot replace
    if before[-1:] == ["of"] or possessive:
        return None  # "the new episodes of it", "its lyrics": the pronoun is buried in a longer noun phrase
    if before[-1:] and before[-1] in PREPOSITIONS:
        return None  # "What is the enrollment at it?": a pronoun after a preposition reads awkwardly
    if DOUBLED.search(query[:start]):
        return None  # "what is a another name for": a source typo the new question would keep
    if not before or before[-1] not in BEFORE or (after and after[0] not in AFTER):
        return None  # the name is part of a noun phrase ("the last name Roberts", "Hey Jude lyrics")
    word = ("its" if pronoun == "it" else f"{pronoun}'s") if possessive else pronoun
    rest = query[end:]
    if not rest.strip(" ?") and pronoun == "it" and re.search(r"\b(?:is|are|was|were)\s*$", query[:start]):
        return None  # "what is it?" asks nothing
    return as_question(query[:start] + word + rest)


@functools.lru_cache(maxsize=8192)
def _about_thing(passage: str, title: str) -> bool:
    """The passage opens on its title and is about a thing, not a person (few personal pronouns, no birth in the
    opening sentence: "Aino Kettunen (born 1955) is a Finnish politician ... She served ..." has one pronoun)."""
    sents = split_sentences(passage)
    return (
        bool(sents)
        and contains(sents[0], title_core(title))
        and len(_PERSONAL.findall(passage)) <= 1
        and not re.search(rf"{re.escape(title_core(title))}\s*{_BORN.pattern}", sents[0], re.I)
    )


# the bracket right after the title gives a birth: the title names a person
_BORN = re.compile(r"\((?:[^()]*[;,]\s*)?(?:born|b\.)\s")


def _own_subject(item: Item) -> str:
    if item.multi or not item.title:
        raise NotApplicable("the item has no titled single passage")
    item.need_anchor()
    title = item.title
    if contains_any(title, item.answers) or any(contains(a, title_core(title)) for a in item.answers):
        raise NotApplicable("the title is (part of) the answer")
    if not _about_thing(item.passages[0], title):
        raise NotApplicable("the passage is not about a thing named in its first sentence (or is about a person)")
    if pronoun_query(item.query, title, "it") is None:
        raise NotApplicable("the query does not name the passage's subject where a pronoun could stand")
    start, end, _ = subject_span(item.query, title)
    rest = re.findall(r"[A-Za-z']+", item.query[end:])
    for a, b in zip(rest, rest[1:]):
        m = re.search(rf"\b{re.escape(a)}\s+{re.escape(b)}\b", item.passages[0], re.I)
        if m and m.group(0)[:1].isupper() and m.group(0).split()[-1][:1].isupper():
            raise NotApplicable("a name follows the subject in the query ('when did it come out lionel richie')")
    return title


# a passage naming a second thing "it" could point to: another work it is based on, shares a title with, covers
SECOND_REFERENT = re.compile(
    r"\b(?:based on|adapted from|adaptation|same (?:name|title)|title (?:comes|is taken) from|named after|"
    r"cover(?:ed)? (?:version|by)|covered|remake|original version|inspired by|sequel|prequel)\b",
    re.I,
)


def _one_referent(item: Item, title: str) -> None:
    """Raise NotApplicable unless the passage offers "it" exactly one salient referent of the query's kind: the
    kind the query names ("the poem ...") is the passage's own (a novel's passage for "the poem" gave "Who wrote
    it?", answered by the novelist), and no second work is named (a source, a namesake, a cover, a sequel)."""
    passage = item.passages[0]
    start, _, _ = subject_span(item.query, title)
    kind = re.match(rf"(?:the\s+)?({'|'.join(KIND_NOUNS)})\b", item.query[start:], re.I)
    if kind:
        subject = work_subject(passage, title)
        opening = split_sentences(passage)[0]
        asked = _SAME_KIND.get(kind.group(1).lower(), kind.group(1).lower())
        if (subject is None or subject.kind != asked) and not re.search(rf"\b{kind.group(1)}\b", opening, re.I):
            raise NotApplicable(f"the query calls it a {kind.group(1)}, the passage's subject is another kind")
    plural = rf"{re.escape(title_core(title))}(?:\s*\([^)]*\))?,?\s+(?:are|were|have)\b"
    if re.search(plural, split_sentences(passage)[0], re.I):
        raise NotApplicable("the subject is plural ('The Red Guards were ...'); 'it' cannot stand for it")
    if SECOND_REFERENT.search(passage):
        raise NotApplicable("the passage names a second work 'it' could refer to (a source, namesake, cover or sequel)")
    quoted_titles = {q.strip().casefold() for q in re.findall(r'"([^"]{2,80})"', passage)}
    if quoted_titles - {title_core(title).casefold()}:
        raise NotApplicable("the passage quotes another title 'it' could refer to")


@lever(AM, tx.LOW, "Salient-antecedent Pronoun", QUERY)
def salient_pronoun(item: Item) -> Proposal:
    """The query's subject as "it", where the passage has exactly one salient referent for it and the question
    keeps enough words to say what it asks ("Who wrote it?" asks nearly nothing: underspecified)."""
    title = _own_subject(item)
    _one_referent(item, title)
    query = pronoun_query(item.query, title, "it")
    if len(query.split()) < 4:
        raise NotApplicable("too little of the question is left besides the pronoun ('Who wrote it?')")
    text = " ".join(item.passages)
    for w in re.findall(r"[a-z]{2,}", query[1:].lower()):
        if w in STOPWORDS or w in BEFORE or w in AFTER:
            continue
        if re.search(rf"\b{w}\b", text, re.I) and not re.search(rf"\b{w}\b", text):
            # "When does it come out in us?": the passage writes "US"; beside a pronoun it reads as "us"
            raise NotApplicable(f"'{w}' is a name or abbreviation the question writes in lower case")
    return Proposal(
        query,
        list(item.passages),
        f"Replaced '{title_core(title)}' in the query with 'it'; the passage is about that one subject only.",
    )
