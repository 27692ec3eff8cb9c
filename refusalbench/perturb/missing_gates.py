"""Gates of the MissingInfo deletions: what a cut leaves must read right and must not point back to what went.

- `BACK_OPENER`: a sentence opening that needs the sentence before it ("Another account ...", "However, ...").
- `refers_to_figure`: a sentence that points back to a figure or time stated elsewhere ("has since increased",
  "that figure", "the increase", "up from", "the following year").
- `purgeable`: the question asks for a short factoid (a name, number, date or place), which deleting its
  sentences really removes; a description, definition, role or kind stays told by the rest of the passage.
- `rival_left`: after a purge, the text left still offers a value of the answer's kind (another date for a
  "when" question, a place named beside the query's own words for a "where" one).
- `fragment_left`: a cut that leaves too little to read as a passage.
"""

from __future__ import annotations

import re
from typing import Sequence

from refusalbench.perturb import answer_types as at
from refusalbench.perturb.text import contains_any, split_sentences

BACK_OPENER = re.compile(
    r"^[\"'“(]*(?:Another|Also|However|This|These|That|Those|Such|Both|Either|Neither|The other|The others|"
    r"The latter|The former|The same|Similarly|Likewise|In addition|Additionally|Furthermore|Moreover|"
    r"Nevertheless|Nonetheless|Instead|Conversely|In contrast|By contrast|Otherwise|Thus|Therefore|Hence|"
    r"Consequently|As a result|But|And|Yet|Still|Even so|Then|Meanwhile|In the meantime|At the same time|"
    r"Other|Others|Lesser|Fewer|More|Less|Further)\b"
    # "After this, Apple began ...": a preposition before a pointer back
    r"|^[\"'“(]*(?:After|Before|Following|Because of|Despite|Besides|Unlike|Like|Beyond|Apart from|Except for|"
    r"In addition to|Instead of|Along with|Due to|As with|By|Of|Among|From|In|At|On|Since|Until|Through)\s+"
    r"(?:this|that|these|those|them|which|the latter|the former|the same|such|both|each|either|neither)\b"
)

_REFERS_TO_FIGURE = re.compile(
    r"\b(?:has|have|had|having|is|are|was|were|ever|long)\s+since\b|\bsince\s+(?:then|that)\b|\bsince\s*[,.;]"
    r"|\b(?:that|this|these|those|the same|the previous|the earlier|the above|the latter|the former)\s+"
    r"(?:figures?|numbers?|rates?|totals?|amounts?|levels?|years?|period|dates?|times?|counts?|estimates?|"
    r"statistics?|percentages?|records?|peaks?|values?|points?|decades?)\b"
    r"|\bthe\s+(?:increase|decrease|rise|fall|drop|decline|growth|change|gain|loss|jump|reduction|difference)\b"
    r"|\b(?:up|down|increased|decreased|rose|fell|dropped|grew)\s+(?:from|by)\b|\bcompared\s+(?:to|with)\b"
    r"|\bthan\s+(?:before|that|this|then|previously|those|these)\b"
    r"|\b(?:higher|lower|fewer|more|less|larger|smaller|greater|earlier|later)\s*(?:[.,;]|$)"
    r"|\b(?:the\s+(?:following|next|previous|preceding|same)|that|a)\s+(?:year|decade|month|season)\s+later\b"
    r"|\b(?:the\s+(?:following|next|previous|preceding|same)|that)\s+(?:year|decade|month|season)\b"
    r"|\b(?:by then|by that time|at that time|at the time|thereafter|in turn)\b",
    re.I,
)


def refers_to_figure(sentence: str) -> bool:
    """True when the sentence points back to a figure or time given elsewhere ("has since increased")."""
    return bool(_REFERS_TO_FIGURE.search(sentence))


# a pronoun for people, a plural or "above" pointer back ("it" mostly means the passage's own subject, which stays),
# "the same chart" / "the remaining ten nerves", or an "also" that adds to what went ("It also became ...")
_PERSON_POINTER = re.compile(
    r"\b(?:he|him|his|himself|she|her|hers|herself|they|them|their|themselves|these|those|each one)\b"
    r"|\bthe\s+(?:above|aforementioned|latter|former|same|remaining)\b|^\W*(?:\S+\s+){0,2}also\b"
    r"|\binstead\b",  # "It premiered instead in Brussels" once the hoped-for Paris production went
    re.I,
)


def points_back_after_cut(sents: Sequence[str], gone: Sequence[bool]) -> bool:
    """True when a sentence kept right after a deleted one holds a pronoun for people or a pointer back anywhere
    ("He won his first Grand Prix ..." once the sentences naming him went: "he" now takes the last name left;
    "the above officers", "on the same chart" once the officers or the chart went), or adds to it ("It also ...")."""
    return any(not gone[k] and gone[k - 1] and _PERSON_POINTER.search(sents[k]) for k in range(1, len(sents)))


# "later the same year", "two days later", "have not appeared since.": a time given only by an earlier sentence
TIME_POINTER = re.compile(
    r"\b(?:the\s+(?:same|following|next|previous|preceding)|that)\s+(?:year|month|week|day|decade|season)\b"
    r"|\b(?:a|an|one|two|three|four|five|several|few|\d+)\s+(?:years?|months?|weeks?|days?|decades?)\s+later\b"
    r"|\bsince\s*[.,;]|\bsince\s+then\b|\b(?:by then|by that time|at that time)\b",
    re.I,
)


def refers_to_time_after_cut(sents: Sequence[str], gone: Sequence[bool]) -> bool:
    """True when a deleted sentence gives a date and a sentence kept after it points back to a time ("The treaty
    was confirmed ... later the same year" once the sentence with the signing date went); a story's own "the next
    day" after a cut that dated nothing is fine."""
    return any(
        not gone[k] and TIME_POINTER.search(sents[k]) and any(g and dates_left(s) for s, g in zip(sents[:k], gone))
        for k in range(1, len(sents))
    )


def refers_back_after_cut(sents: Sequence[str], gone: Sequence[bool]) -> bool:
    """True when a sentence kept right after a deleted one opens with a back-reference ("Another account ...")."""
    return any(not gone[k] and gone[k - 1] and BACK_OPENER.match(sents[k]) for k in range(1, len(sents)))


# a description, definition, role, kind or reason: the rest of the passage still tells it
_DESCRIPTIVE_Q = re.compile(
    r"\b(?:what|which)\s+(?:type|types|kind|kinds|sort|breed|species|genre|style|form|class|category|role|"
    r"job|purpose|function|duty|duties|responsibilit\w*|meaning|definition|use|uses|parts|components|divisions|"
    r"branches|elements|members)\b|\b(?:which|that|what it)\s+means?$"
    r"|\bwhat\s+(?:does|do|did|is|are|was|were)\b.*\b(?:do|does|mean|means|stand for|used for|made of|about)$"
    r"|\b(?:job|role|purpose|function|duty|duties|meaning|definition|responsibilit\w*)\s+of\b"
    r"|^(?:what|who)\s+(?:is|are|was|were)\s+(?:an?\s+|the\s+)?[\w'-]+(?:\s+[\w'-]+)?$"
    r"|^(?:why|how)\b|\bhow\s+(?:does|do|did|is|are|was|were)\b|^define\b|^describe\b|\bexplain\b",
    re.I,
)
_FACTOID_TYPES = (at.PERSON, at.PLACE, at.ORGANISATION, at.DATE, at.YEAR, at.NUMBER)


def descriptive_question(query: str) -> bool:
    """True for a question that asks for a description, meaning, role, kind or the parts of something ("what
    parts make up ...", "... zhongguo which means"): what is left of a passage keeps describing the answer."""
    return bool(_DESCRIPTIVE_Q.search(query.strip(" ?")))


def purgeable(query: str, answers: Sequence[str], atype: str) -> bool:
    """True for a short factoid answer (name, number, date, place) to a question that asks for one."""
    if descriptive_question(query):
        return False
    if any(len(a.split()) > 6 for a in answers):
        return False
    if atype in _FACTOID_TYPES:
        return True
    return atype == at.OTHER and all(at._capitalised_name(a) for a in answers)  # a title or name


def answer_in_query(query: str, answers: Sequence[str]) -> bool:
    """True when the query itself names an answer ("where did chocolate originate the americas spain asia"): a
    choice among options, which what is left of the passage can still pick out once the answer's sentences go."""
    return contains_any(query, [a for a in answers if len(a.strip()) > 2])


MIN_WORDS_LEFT = 25


def fragment_left(kept: Sequence[str]) -> bool:
    """True when what is left is too little to read as a passage: under two sentences or 25 words, or no
    whole sentence (a chunk's cut-off opening such as "that has been translated ..." alone)."""
    words = sum(len(s.split()) for s in kept)
    whole = [s for s in kept if s.lstrip("\"'“‘(")[:1].isupper() and s.rstrip("\"'”’)").endswith((".", "!", "?"))]
    return len(kept) < 2 or words < MIN_WORDS_LEFT or not whole


# "The office was ...", or "Recorded over six weeks in Sheffield, the album was ...": the sentence's subject
_DEFINITE = re.compile(
    r"^[\"'“(]*(?:The\s+([a-z][\w-]+)|[A-Z][a-z]+(?:ed|en|wn|ing)\b[^,;:.]{0,80},\s+the\s+([a-z][\w-]+))"
)


def unanchored_definite(sents: Sequence[str], gone: Sequence[bool]) -> bool:
    """True when a sentence kept right after a deleted one opens on "The <noun>", or on a participle phrase and
    then "the <noun>", that nothing kept before it names ("The office was first held by ..." once the sentence
    naming the office went; "Recorded over six weeks ..., the album was produced by ..." once its lead went)."""
    for k in range(1, len(sents)):
        if gone[k] or not gone[k - 1]:
            continue
        m = _DEFINITE.match(sents[k])
        if m:
            noun = (m.group(1) or m.group(2)).lower()
            before = " ".join(s for j, s in enumerate(sents[:k]) if not gone[j]).lower()
            if not re.search(rf"\b{re.escape(noun)}", before):
                return True
    return False


_YEAR = re.compile(r"(?<![\d,.])(?:1[0-9]{3}|20[0-9]{2})(?:s|'s)?(?!\d)")
# a month name ("May" only beside a day number: the verb is far more common)
_DATE_WORD = re.compile(r"\b(?:" + at.MONTH_NAMES.replace("|May|", "|") + r")\b|\bMay\s+\d|\d\s+May\b")
_INNER_NAME = re.compile(r"(?<=[a-z,] )[A-Z][a-z]{2,}")


# a century or decade still dates the answer at a coarser level ("the Arian controversy of the fourth century" for 336)
_COARSE_DATE = re.compile(
    r"\b(?:\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
    r"thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|twenty-first)"
    r"[\s-]+centur(?:y|ies)\b|['’]\d0s\b",
    re.I,
)


_ASKS_WHEN = re.compile(r"\s*(?:when|what year|which year|in what year|in which year|what century)\b", re.I)


def dates_left(text: str) -> bool:
    """True when the text holds a year, a decade, a century or a month name (it would read as the answer to a
    "when" question, or as the answer at a coarser level)."""
    return bool(_YEAR.search(text) or _DATE_WORD.search(text) or _COARSE_DATE.search(text))


# how a text names a country's people or things when it never names the country ("Spanish colonial government")
DEMONYMS = {
    "Spain": "Spanish",
    "France": "French",
    "Netherlands": "Dutch",
    "Holland": "Dutch",
    "Wales": "Welsh",
    "Switzerland": "Swiss",
    "Denmark": "Danish",
    "Finland": "Finnish",
    "Ireland": "Irish",
    "Britain": "British",
    "England": "English",
    "Greece": "Greek",
    "Norway": "Norwegian",
    "Sweden": "Swedish",
    "Poland": "Polish",
    "Turkey": "Turkish",
    "Scotland": "Scottish",
    "Thailand": "Thai",
    "Iceland": "Icelandic",
}


# places a query writes as an abbreviation or a short name
_QUERY_PLACES = {"uk": "British", "u.k.": "British", "usa": "American", "u.s.": "American", "america": "American"}


def names_query_place(text: str, query: str) -> bool:
    """True when `text` holds the adjective of a place the query names ("(British English)" for "... in the uk"):
    it ties the passage to the query as a query word would."""
    q = query.lower()
    adjectives = {adj for place, adj in DEMONYMS.items() if re.search(rf"\b{place.lower()}\b", q)}
    adjectives |= {adj for place, adj in _QUERY_PLACES.items() if re.search(rf"(?<!\w){re.escape(place)}(?!\w)", q)}
    return any(re.search(rf"\b{adj}\b", text) for adj in adjectives)


def _stem(word: str) -> str:
    return re.sub(r"(?:ings?|ed|es|s|ers?|ions?)$", "", word.lower())[:6]


# a rank or an extreme ("the most", "second", "the only", "best-selling"): in a query it asks for the top of a
# ranking, whose next names read as the answer once the top goes; in a sentence an opening clause often sets its
# scope ("In 2010, it was the best-selling album")
RANK_WORDS = re.compile(
    r"\b(?:most|least|only|first|second|third|fourth|fifth|last|best|worst|largest|biggest|highest|lowest|longest|"
    r"shortest|oldest|youngest|greatest|smallest|tallest|fastest|richest|busiest|deepest|earliest|latest|leading|"
    r"top|record|best-selling|highest-grossing|most-watched|sole|unique)\b",
    re.I,
)


def rival_left(text: str, atype: str, query_words: set[str], query: str = "", answers: Sequence[str] = ()) -> bool:
    """True when the text left after the answer's sentences went still offers a value of the answer's kind: any
    date for a date, a year or an answer holding years ("1780-1830"); for a place, person or organisation, a
    sentence sharing a query word's stem ("filming" of "filmed") that names something in capitals inside it
    ("filming locations included Bay of Plenty, Taupo"), or, when the query asks for the top of a ranking, a
    sentence counting something beside a name ("who has won the most ...": "Kamal Haasan and Mammootty have
    been honoured three times" reads as the answer once the top actor's sentence went)."""
    # "1780-1830": a period of years; "when was christmas first celebrated" (336): a year the type reads as a number
    if atype in (at.DATE, at.YEAR) or any(_YEAR.search(a) for a in answers) or _ASKS_WHEN.match(query):
        return dates_left(text)
    if atype not in (at.PLACE, at.PERSON, at.ORGANISATION):
        return False
    stems = {_stem(w) for w in query_words if len(w) >= 4}
    ranking = bool(RANK_WORDS.search(query))
    asked = set(re.findall(r"[a-z]+", query.lower())) | {w.lower() for w in query_words}  # "Formula One" asked
    for sentence in split_sentences(text):
        words = {_stem(w) for w in re.findall(r"[A-Za-z]{4,}", sentence)}
        names = [n for n in _INNER_NAME.findall(sentence) if _stem(n) not in stems and n.lower() not in asked]
        if (words & stems or ranking and _COUNT.search(sentence)) and names:
            return True
    return False


# a count of things ("three times", "four medals"), as a ranking's next rows state them; not a year
_COUNT = re.compile(r"\b(?:\d{1,3}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+[a-z]+s\b", re.I)


# a pronoun or demonstrative that may take an earlier sentence's subject as its antecedent
_REFERENCE_WORD = re.compile(
    r"\b(?:it|its|itself|they|them|their|theirs|themselves|he|him|his|himself|she|her|hers|herself|"
    r"this|these|those|such)\b|\b(?:of|in|to|for|with|on|at|by|from|after|before|like|than)\s+that\b"
    r"|\bthe\s+(?:above|aforementioned|latter|former)\b"
    # "LeBron James became the third in ..." once "Kobe Bryant became just the second player" went: an ordinal with
    # no noun counts on from what came before it (the fifty-second review's R005)
    r"|\bthe\s+(?:second|third|fourth|fifth|sixth)(?=\s*(?:[,.;]|(?:in|to|on|at|of|with|after|since)\b))",
    re.I,
)


def holds_reference_word(sentence: str) -> bool:
    """True when the sentence holds a pronoun or demonstrative ("Christians use it", "The first such voyage",
    "the above officers")."""
    return bool(_REFERENCE_WORD.search(sentence))


# "the graft", "this procedure", "these bones": a noun phrase that points back to something already named
_POINTING = re.compile(r"\b(?:[Tt]he|[Tt]his|[Tt]hese|[Tt]hose|[Ss]uch)\s+([a-z][\w-]+)")


def definite_from_cut(deleted: str, kept_before: str, sentence: str) -> bool:
    """True when `sentence` holds "the <noun>" (or "this", "these", "such") that the deleted sentence names and
    nothing kept before it does ("The voyage took ..." once "Cocoa went to Spain by boat; the voyage ..." went;
    "... while the graft fuses the two vertebrae" once the sentence on bone grafting went)."""
    named = {_stem(w) for w in re.findall(r"[A-Za-z]{3,}", deleted)}
    before = kept_before.lower()
    return any(
        _stem(m.group(1)) in named and not re.search(rf"\b{re.escape(_stem(m.group(1)))}", before)
        for m in _POINTING.finditer(sentence)
    )


def shares_query_word(sentence: str, query_words: set[str]) -> bool:
    """True when the sentence holds a content word of the query up to its ending ("powers" of "power",
    "government" of "governmental")."""
    stems = {_stem(w) for w in query_words if len(w) >= 3}
    return any(_stem(w) in stems for w in re.findall(r"[A-Za-z]{3,}", sentence))


# "Nicknamed the Herons, the club was founded in 1889 and plays at Marsh Lane ...": an opening participle phrase
_OPENING_PARTICIPLE = re.compile(r"^[\"'“(]*([A-Z][a-z]+(?:ed|ing|en|wn)\b[^,;:]{0,80}),\s+(.+)$")
MAIN_CLAUSE_WORDS = 8


def answer_only_in_opening_phrase(sentence: str, answers: Sequence[str]) -> bool:
    """True when the sentence states the answer only in an opening participle phrase and goes on with a main
    clause of its own facts: deleting the sentence would take those facts with the answer."""
    m = _OPENING_PARTICIPLE.match(sentence)
    return bool(
        m
        and contains_any(m.group(1), answers)
        and not contains_any(m.group(2), answers)
        and len(m.group(2).split()) >= MAIN_CLAUSE_WORDS
    )


# "Corvid Court is a collectible card game ...", "Northern Static is the second studio album by ...": an article's
# lead, which says what the passage is about
# the subject may carry a bracket with any punctuation: "Quang Tế Pagoda (Vietnamese: Chùa Quang Tế) is a Buddhist
# temple ..." (the seventy-seventh review's R027)
_DEFINING_LEAD = re.compile(
    r"^[\"'“(]*(?P<subject>[A-Z](?:[^.;:()]|\([^()]*\)){0,80}?)\s(?:is|was|are|were)\s+(?:a|an|the|one)\s"
)


def lead_subject_lost(sents: Sequence[str], gone: Sequence[bool], answers: Sequence[str]) -> bool:
    """True when the cut takes the article's lead sentence ("Corvid Court is a collectible card game created by
    ...") and no sentence left names its subject, so the rest no longer says what it is about. A lead whose subject
    is the answer ("In Time is a 2011 film ..." for "what's the movie called") must go with it."""
    m = _DEFINING_LEAD.match(sents[0]) if sents and gone[0] else None
    if not m or contains_any(m.group("subject"), answers):
        return False
    subject = re.sub(r"^(?:The|A|An)\s+", "", m.group("subject").strip("\"'“”‘’ "))
    names = [re.sub(r"\s*\([^)]*\)", "", subject).strip(), *re.findall(r"\(([^)]+)\)", subject)]  # "... (BLM)"
    kept = " ".join(s for s, g in zip(sents, gone) if not g)
    return not contains_any(kept, [n for n in names if n])


def answer_kind_left(sents: Sequence[str], gone: Sequence[bool], answers: Sequence[str]) -> str:
    """The word of a gold answer that a sentence kept after the cut still names as "the <word>" ("the shield" of
    "the Kelly-Braddon Shield", "the bridge" of "Tower Bridge"), or ''."""
    words = {w.lower() for a in answers for w in re.findall(r"[A-Za-z]{3,}", a)} - _ANSWER_FILLER
    for k, sentence in enumerate(sents):
        if gone[k] or not any(gone[:k]):
            continue
        for m in re.finditer(r"\bthe\s+([A-Za-z]{3,})\b", sentence, re.I):
            if m.group(1).lower() in words:
                return m.group(1).lower()
    return ""


_ANSWER_FILLER = frozenset(
    "the and for its was are not but all any can had has her his one our out who how with from that this their "
    "there they were have been".split()
)
