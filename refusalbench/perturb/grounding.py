"""The source-item gate: is the original answer clearly stated by the passage for this query?

A perturbation is only as valid as its source: where the gold answer is not stated in the passage, or
the passage states it in a sentence unrelated to what the query asks about, or the answer is not the
kind of thing the question asks for ("in Eurasia" for "when did the soviet union start and end"), no
lever can make a valid item (a LOW item would not be answerable with the gold answer, a MEDIUM/HIGH item
would remove or blur what was never clearly there). `weak_grounding` names the reason such a question is
declined for every lever; the engine calls it before any lever runs.
"""

from __future__ import annotations

import re
from typing import Optional

from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import Item
from refusalbench.perturb.distractors import STOPWORDS
from refusalbench.perturb.text import contains, contains_any, folded, question_body, split_sentences

_WH_WHEN = re.compile(r"^(?:when|what year|which year|in what year|in which year)\b", re.I)
_WH_HOW_MANY = re.compile(r"^how\s+many\b", re.I)
_WH_WHO = re.compile(r"^(?:who|whom|who's)\b", re.I)
_WH_WHERE = re.compile(r"^(?:where|in what place|in which (?:country|city|state|place))\b", re.I)
_UNITS = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen".split()
_UNITS += "seventeen eighteen nineteen twenty".split()
_TENS = {30: "thirty", 40: "forty", 50: "fifty", 60: "sixty", 70: "seventy", 80: "eighty", 90: "ninety"}
_ORDINALS = "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth".split()
_ORDINALS += "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split()
# words of 2..20 and their ordinals, and 30..90: "first", "one" and "last" name no figure the passage must state
_NUMBER_WORDS = {w: n for n, w in enumerate(_UNITS, 1) if n > 1} | {w: n for n, w in enumerate(_ORDINALS, 1) if n > 1}
_NUMBER_WORDS |= {w: n for n, w in _TENS.items()}
_QUERY_NUMBER = re.compile(r"\b(\d+)(?:st|nd|rd|th)?\b|\b(" + "|".join(_NUMBER_WORDS) + r")\b", re.I)
# words that place an answer in time without a figure ("during the Cold War", "in the spring")
_TIME_WORDS = re.compile(
    r"\b(?:century|centuries|decade|decades|era|age|period|war|reign|dynasty|revolution|spring|summer|autumn|"
    r"fall|winter|season|ago|times|morning|evening|night|day|week|month|year|years|bc|bce|ad|ce)\b",
    re.I,
)
_MONTH = re.compile(r"\b(?:" + "|".join(m[:3] for m in at.MONTHS) + r")[a-z]*\b", re.I)
_PRONOUN_OPENING = re.compile(r"^[\"'“(]*(?:It|He|She|They|Its|His|Her|Their|This|These|The)\b")
# the kind noun of a name ("Harlem River", "Battle of Antietam"): the query naming the kind gives nothing away
_KIND_NOUNS = at.PLACE_WORDS | at.ORG_WORDS | frozenset("battle war mall house hall tower castle bridge palace".split())
_QUERY_NOISE = frozenset("name first last many much new old number called known mean means".split())


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if (len(w) > 2 or w.isdigit()) and w not in STOPWORDS}


def _same_word(a: str, b: str) -> bool:
    """The same word up to an ending ("age" / "ages", "open" / "opened"; "arive" / "arrived" is not caught)."""
    short, long_ = sorted((a, b), key=len)
    if short == long_ or long_ in (short + "s", short + "es"):
        return True
    return (len(short) >= 4 and long_.startswith(short)) or (len(short) >= 6 and long_[:5] == short[:5])


def _shares(sentence: str, words: set[str]) -> bool:
    have = _words(sentence)
    return any(_same_word(w, h) for w in words for h in have)


def answer_words(item: Item) -> set[str]:
    """Content words of the stated answers (names, figures, title words)."""
    return set().union(*(_words(a) for a in item.answers)) if item.answers else set()


def _fits_question(item: Item) -> Optional[str]:
    """A reason when the stated answer is not the kind of thing the question asks for."""
    body = question_body(item.query)
    anchor = item.anchor or ""
    if _WH_WHEN.match(body) and item.atype not in (at.DATE, at.YEAR, at.NUMBER):
        if not (re.search(r"\d", anchor) or _MONTH.search(anchor) or _TIME_WORDS.search(anchor)):
            return f"a 'when' question whose stated answer {anchor!r} is not a time"
    if _WH_HOW_MANY.match(body) and not re.search(r"\d", anchor) and at.parse_number(anchor) is None:
        return f"a 'how many' question whose stated answer {anchor!r} is not a figure"
    if _WH_WHO.match(body) and item.atype in (at.DATE, at.YEAR, at.NUMBER):
        return f"a 'who' question whose stated answer {anchor!r} is a date or figure"
    if _WH_WHERE.match(body) and (item.atype in (at.DATE, at.YEAR, at.NUMBER) or at.is_demonym(anchor)):
        # "where was it published" of "by American author ..., published in 1958": the place is never stated
        return f"a 'where' question whose stated answer {anchor!r} is a date, figure or nationality, not a place"
    return None


def _number_forms(n: int) -> list[str]:
    """Ways a passage may state `n`: digits (also "7th"), the word, the ordinal, a Roman numeral."""
    forms = [rf"\b{n}(?:st|nd|rd|th)?\b", rf"\b{n:,}\b"]
    forms += [rf"\b{w}\b" for w, k in _NUMBER_WORDS.items() if k == n]
    if n <= 20:
        forms += [rf"\b{_UNITS[n - 1]}\b", rf"\b{_ORDINALS[n - 1]}\b"]
    if 0 < n < 400:
        forms.append(rf"(?-i:\b{_roman(n)}\b)")
    return forms


def _roman(n: int) -> str:
    """51 -> "LI" (Super Bowl LI)."""
    out = ""
    for value, digits in ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV")):
        out += digits * (n // value)
        n %= value
    return out + "I" * n


_COUNTED = re.compile(r"(?:\s+[a-z]+){0,2}?\s+[a-z]+s\b", re.I)


def unstated_number(item: Item) -> Optional[str]:
    """A number or ordinal the query names ("season 7", "7th", "seventh") that no signal passage states in any
    form, nor its title: the passage then answers another question than the one asked ("season 6 was its last")."""
    text = " ".join(item.passages[i] for i in item.signal) + " " + (item.title or "")
    for m in _QUERY_NUMBER.finditer(item.query):
        if m.group(2) and m.group(2).lower() in _UNITS and _COUNTED.match(item.query, m.end()):
            continue  # "the three rightly guided caliphs", "water on three sides": a count describing the subject
        n = int(m.group(1)) if m.group(1) else _NUMBER_WORDS[m.group(2).lower()]
        if not any(re.search(f, text, re.I) for f in _number_forms(n)):
            return m.group(0)
    return None


# a model name or code mixing letters and figures ("f150", "ps4", "h1n1"), not an ordinal or decade ("7th", "70s")
_CODE = re.compile(r"\b(?=[a-z]*\d)(?=\d*[a-z])[a-z\d]+(?:-[a-z\d]+)*\b")
_NOT_CODE = re.compile(r"^(?:\d+(?:st|nd|rd|th|s)|[a-z]{1,3}\d{4})$")  # "1st", "1800s", "in1905" (a typo)
# order words of a query, each with the ways a passage may state the same thing
_RANKS = {
    "first": r"first|1st|earliest|inaugural|debut\w*|maiden|original\w*|pioneer\w*|premier\w*|launch\w*|"
    r"introduc\w*|found(?:ed|ing|er)|invent\w*|began|beginning|(?-i:\bI\b)",
    "last": r"last|final\w*|latest|most recent\w*|ended|until|since|conclud\w*|retir\w*|disband\w*|"
    r"(?:to|through|until) (?:\w+ ){0,2}\d{4}",
    "latest": r"last|final\w*|latest|most recent\w*|newest|current\w*",
}
# superlatives, each with the words a passage may state the same rank by ("best" / "highest ... average")
_SUPERLATIVES = {
    w: frozenset(f"{w} {same}".split())
    for w, same in {
        "highest": "tallest top peak",
        "tallest": "highest",
        "largest": "biggest most greatest",
        "biggest": "largest most greatest",
        "best": "greatest top leading highest record",
        "greatest": "best largest biggest most record",
        "fewest": "least lowest",
        "lowest": "least",
        "longest": "most",
        "oldest": "earliest first",
        "smallest": "least",
        "youngest": "",
        "fastest": "",
        "richest": "wealthiest",
        "deepest": "",
        "worst": "",
        "shortest": "",
    }.items()
}
# a name ending in one of these ("world economic forum", "colorado river") names an organisation or place
_NAME_ENDS = at.ORG_WORDS | (at.PLACE_WORDS - {"mount"}) | frozenset("forum summit alliance conference treaty".split())
# words before such an ending that are no part of a name ("the oldest team", "the united states" / "U.S.")
_NOT_NAME = frozenset("time times each every other modern current new next same united main".split())
_VERBISH = re.compile(r"(?:ed|en)$|^(?:come|air|appear|sing|open|use|meet|visit|arrive|arive|gain|go|start|become)$")


def _spelled_out(code: str, text: str) -> bool:
    """An abbreviation with a figure written out: "ww2" as "World War II" or "Second World War"."""
    m = re.fullmatch(r"([a-z]{1,3})(\d{1,2})", code)
    if not m:
        return False
    initials = r"\s+".join(rf"{c}\w*" for c in m.group(1))
    figure = "|".join(f[2:-2] if f.startswith(r"\b") else f for f in _number_forms(int(m.group(2))))
    return bool(
        re.search(rf"\b{initials}\s+(?:{figure})\b", text, re.I)
        or re.search(rf"\b(?:{figure})\s+{initials}\b", text, re.I)
    )


def _stated(text: str, word: str) -> bool:
    return any(_same_word(word, h) for h in re.findall(r"[a-z0-9]+", text))


def _unstated_rank(item: Item, tokens: list[str], raw: str, text: str) -> Optional[str]:
    """An order word or superlative of the query ("the first book made into a movie") the passage never states
    in any form. Skipped: "first/last name"; an adverb ("when did X first air": the passage dates X's airing);
    "first" before the passage's title ("the first mad max movie" of "Mad Max"). "Most" is left out: a passage
    giving the counts ("won 27") answers "who has won the most"."""
    title = set(_words(item.title or ""))
    for k, t in enumerate(tokens):
        after = tokens[k + 1 : k + 4]
        if t in _RANKS:
            if not after or after[:1] == ["name"] or _VERBISH.search(after[0]):  # "who sang it first"
                continue
            if t == "first" and any(_same_word(a, w) for a in after for w in title):
                continue
            if not re.search(rf"\b(?:{_RANKS[t]})\b", raw, re.I):
                return t
        group = _SUPERLATIVES.get(t)
        if group and not any(re.search(rf"\b{w}\b", text) for w in group):
            return t
    return None


def _unstated_name(tokens: list[str], text: str, answers: set[str]) -> Optional[str]:
    """A name ending in an organisation or place word ("world economic forum") whose distinctive words the
    passage never states (it is about the G8, not that forum)."""
    for k, t in enumerate(tokens):
        if t not in _NAME_ENDS:
            continue
        mods = []
        for u in reversed(tokens[max(0, k - 2) : k]):
            if u in STOPWORDS or len(u) <= 2 or u in _NOT_NAME or u in _SUPERLATIVES:
                break
            mods.append(u)
        if any(u not in _FRAME_WORDS for u in mods) and not any(
            _stated(text, u) or any(_same_word(u, a) for a in answers) for u in mods
        ):
            return " ".join(reversed(mods)) + " " + t
    return None


_FRAME_WORDS = frozenset("world national international".split())  # common in names, not distinctive alone


def unstated_term(item: Item) -> Optional[str]:
    """A distinctive term of the query that neither a signal passage nor its title states: a number or ordinal
    ("season 7"), a model code ("f150"), an order word or superlative ("first", "last", "highest": stated in
    some form), or the name of an organisation or place ("world economic forum"). Matching ignores case,
    diacritics, plurals and hyphens."""
    number = unstated_number(item)
    if number:
        return number
    raw = " ".join(item.passages[i] for i in item.signal) + " " + (item.title or "")
    text = folded(raw)
    squashed = re.sub(r"[^a-z0-9]", "", text)
    query = folded(item.query)
    for m in _CODE.finditer(query):
        code = m.group(0)
        if not _NOT_CODE.match(code) and re.sub(r"[^a-z0-9]", "", code) not in squashed:
            if not _spelled_out(code, raw):
                return code
    tokens = re.findall(r"[a-z0-9]+", query)
    return _unstated_rank(item, tokens, raw, text) or _unstated_name(tokens, text, answer_words(item))


def _name_words(answer: str, vocabulary: frozenset[str]) -> set[str]:
    """Capitalised words and years of an answer that are not common nouns of the passage ("Jakkur", "2017")."""
    words = set()
    for w in re.findall(r"[A-Za-z][\w'’-]*|\d{4}", answer):
        if w.isdigit() or (w[:1].isupper() and len(w) >= 3 and w.lower() not in STOPWORDS):
            if w.isdigit() or (w.lower() not in vocabulary and w.lower() not in _KIND_NOUNS):
                words.add(w.lower())
    return words


def _given_away(item: Item) -> str:
    """The answer's name word or year the query already holds, when every stated answer has one."""
    query = set(re.findall(r"[a-z0-9]+", item.query.lower()))
    stated = [a for a in item.answers if any(contains(item.passages[i], a) for i in item.signal)]
    hits = [_name_words(a, item.vocabulary) & query for a in stated]
    if stated and all(hits):
        return ", ".join(sorted(set().union(*hits)))
    return ""


def weak_grounding(item: Item) -> Optional[str]:
    """Why the passage does not clearly state a gold answer for the query (None when it does).

    Declined: no answer string in a signal passage; a query that already names the answer (every
    stated answer has a name word or year the query holds: "... jakkur campus" of "Jakkur, Bangalore"); an answer
    of the wrong kind for the question (a 'where' answered only by a year or a nationality); a number, ordinal,
    model code, order word, superlative or organisation name of the query that the passage does not state
    ("season 7", "f150", "the first book", "world economic forum": `unstated_term`); and an answer that no
    sentence ties to the query's subject (no answer sentence shares a content word of the query, nor, for one
    opening with a pronoun, an earlier sentence, nor the passage's title, nor any sentence of a passage about
    the answer itself).
    """
    if not item.anchor:
        return "no answer string occurs in the (signal) passage"
    query = _words(item.query) - _QUERY_NOISE
    given = _given_away(item)
    if given:
        return f"the query already names the answer ({given})"
    wrong = _fits_question(item)
    if wrong:
        return wrong
    term = unstated_term(item)
    if term:
        return f"the query names {term!r}, which the passage does not state in any form"
    subject = query - answer_words(item)
    if not subject:
        return "the query has no content word besides the answer's"
    for i in item.signal:
        sents = split_sentences(item.passages[i])
        answer_is_subject = bool(sents) and (
            contains_any(sents[0], item.answers) or bool(item.title and contains_any(item.title, item.answers))
        )
        for k, s in enumerate(sents):
            if not contains_any(s, item.answers):
                continue
            if _shares(s, subject):
                return None
            # "It was then released on ...": the sentence goes on about a subject named before it
            if k and _PRONOUN_OPENING.match(s) and any(_shares(x, subject) for x in sents[:k]):
                return None
        # a passage whose title is what the query asks about ("Hacksaw Ridge": "Andrew Garfield stars as ...")
        if item.title and not item.multi and _shares(item.title, subject):
            return None
        # a passage about the answer itself ("Megan Park (born 1986) is ...") that says what the query asks
        if answer_is_subject and any(_shares(x, subject) for x in sents):
            return None
    return "no sentence stating the answer is about what the query asks (it shares none of its content words)"
