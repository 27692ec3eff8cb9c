"""P-Ambiguity levers: the query's named subject becomes a pronoun.

LOW replaces the subject (the passage's title, named in the query) with "it", whose only salient
referent in the passage is that subject. MEDIUM and HIGH also add the passage of another question
of exactly the same form ("who sang it?" for two songs), so the pronoun has two equally eligible
antecedents with different answers; HIGH puts the other subject first and refers back with "that
one". The added passage states none of the item's answers and the item's passage none of the
other's, so no answer is safe under both readings. Items whose subject is a person, is not named
in the query, or has no partner question of the same form are declined.
"""

from __future__ import annotations

import functools
import re
from typing import Optional

from refusalbench import taxonomy as tx
from refusalbench.perturb.base import BOTH, QUERY, Item, NotApplicable, Proposal, append_sentence, lever
from refusalbench.perturb.levers_missing import whole_sentences
from refusalbench.perturb.text import as_question, balanced, contains, contains_any, split_sentences, starts_sentence

AM = tx.AMBIGUITY
KIND_NOUNS = ("song", "film", "movie", "book", "novel", "show", "series", "tv show", "album", "band", "game", "poem",
              "play", "musical", "episode", "season", "company", "river", "city", "bridge", "building", "ship", "law", "act")
_WH = re.compile(r"^(?:who|whom|what|when|where|which|how|why)\b", re.I)
_PERSONAL = re.compile(r"\b(?:he|his|him|she|her|hers|himself|herself)\b", re.I)
_HAS_PRONOUN = re.compile(r"\b(?:it|its|this|that one)\b", re.I)
MAX_PARTNER_SENTENCES = 3
# a pronoun may follow these words ("who sang it", "in it") and be followed by these ("it come out", "it in")
BEFORE = frozenset("""who whom what when where which how why is was are were did does do has have had will can could would
should in on of for from at by about with to into after before during sang sings sing wrote writes write plays played
play directed produced made owns owned built designed created invented founded started voices voiced narrates narrated
composed performs performed recorded released hosts hosted won wins leads led runs ran sponsors sponsored""".split())
AFTER = frozenset("""in on of for from at by about with to into after before during come came take takes took get got
start started end ended begin began air aired open opened happen happened released made written filmed set located built
based founded published recorded produced directed created launched formed become became first last originally""".split())


def title_core(title: str) -> str:
    """"Deadpool (film)" → "Deadpool"."""
    return re.sub(r"\s*\([^)]*\)\s*$", "", title).strip()


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
    before = re.findall(r"[a-z']+", query[:start].lower())
    after = re.findall(r"[a-z']+", query[end:].lower())
    if {w for w in re.findall(r"[a-z']+", title.lower()) if len(w) > 3} & set(before + after):
        return None  # "who won the battle of the first battle of bull run": the rest repeats the name
    if {"are", "were", "do", "have"} & set(before):
        return None  # a plural subject, which "it" cannot replace
    if not before or before[-1] not in BEFORE or (after and not possessive and after[0] not in AFTER):
        return None  # the name is part of a noun phrase ("the last name Roberts", "Hey Jude lyrics")
    word = ("its" if pronoun == "it" else f"{pronoun}'s") if possessive else pronoun
    rest = query[end:]
    if not rest.strip(" ?") and pronoun == "it" and re.search(r"\b(?:is|are|was|were)\s*$", query[:start]):
        return None  # "what is it?" asks nothing
    return as_question(query[:start] + word + rest)


@functools.lru_cache(maxsize=8192)
def _about_thing(passage: str, title: str) -> bool:
    """The passage opens on its title and is about a thing, not a person (few personal pronouns)."""
    sents = split_sentences(passage)
    return bool(sents) and contains(sents[0], title_core(title)) and len(_PERSONAL.findall(passage)) <= 1


@functools.lru_cache(maxsize=8192)
def _template(query: str, title: str) -> Optional[str]:
    q = pronoun_query(query, title, "it")
    return re.sub(r"[^a-z ]", "", q.lower()).strip() if q else None


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
    return title


def _partner_text(passage: str, answers: tuple[str, ...]) -> Optional[str]:
    """The partner passage's whole sentences up to the one stating its answer (at most a few)."""
    sents = split_sentences(whole_sentences(passage))
    for k, s in enumerate(sents[:MAX_PARTNER_SENTENCES]):
        if contains_any(s, list(answers)):
            text = " ".join(sents[: k + 1])
            return text if balanced(text) else None
    return None


def partner(item: Item, title: str) -> tuple[str, str]:
    """(title, text) of another question of exactly the same form about another thing, with another answer."""
    mine = _template(item.query, title)
    options = []
    for sid, query, other_title, answers, passage in item.pool.questions:
        if sid == item.source_id or title_core(other_title).lower() == title_core(title).lower():
            continue
        if _template(query, other_title) != mine or not _about_thing(passage, other_title):
            continue
        text = _partner_text(passage, answers)
        if not text or contains_any(text, item.answers) or contains(text, title_core(title)):
            continue
        if contains_any(item.passages[0], list(answers)) or contains(item.passages[0], title_core(other_title)):
            continue
        options.append((other_title, text))
    if not options:
        raise NotApplicable("no other question of the same form about another thing to pair with")
    return item.rng.choice(sorted(options))


@lever(AM, tx.LOW, "Salient-antecedent Pronoun", QUERY)
def salient_pronoun(item: Item) -> Proposal:
    title = _own_subject(item)
    query = pronoun_query(item.query, title, "it")
    return Proposal(query, list(item.passages),
                    f"Replaced '{title_core(title)}' in the query with 'it'; the passage is about that one subject only.")


@lever(AM, tx.MEDIUM, "Dual-eligible Pronoun", BOTH)
def dual_pronoun(item: Item) -> Proposal:
    title = _own_subject(item)
    other, text = partner(item, title)
    query = pronoun_query(item.query, title, "it")
    passage = append_sentence(item.passages[0], text)
    return Proposal(query, [passage], f"Replaced '{title_core(title)}' with 'it' and added a passage on "
                                      f"'{title_core(other)}', of which the same question has another answer.")


@lever(AM, tx.HIGH, "Anaphoric 'One' Collision", BOTH)
def one_collision(item: Item) -> Proposal:
    title = _own_subject(item)
    other, text = partner(item, title)
    query = pronoun_query(item.query, title, "that one")
    if query is None:
        raise NotApplicable("the query cannot take 'that one'")
    if not starts_sentence(item.passages[0]):
        raise NotApplicable("the passage starts mid-sentence, so nothing can go before it")
    passage = f"{text} {item.passages[0]}"
    return Proposal(query, [passage], f"Put a passage on '{title_core(other)}' before the passage on "
                                      f"'{title_core(title)}' and asked about 'that one', which fits both equally.")
