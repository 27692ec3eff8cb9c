"""Which part of a sentence the answer-token purge (MissingInfo HIGH) may cut: the clause or predicate that alone
holds the answer, so the rest of the sentence stays, and never a cut that takes another fact with the answer."""

from __future__ import annotations

import re
from typing import Callable

from refusalbench.perturb import answer_types as at
from refusalbench.perturb.distractors import content_words
from refusalbench.perturb.text import capitalise

# a figure in words ("took almost four years"), not "one", which is as often a pronoun ("one of the ...")
_NUMBER_WORD = re.compile(
    r"\b(?:" + "|".join(w for w in at.SINGLE_WORD_NUMBERS if w != "one") + r"|thousand|million|billion|dozen)\b",
    re.I,
)
# a second clause or predicate: ", and introduced rats and cats are thought ...", "... and took almost four years"
_SECOND_CLAUSE = re.compile(
    r";|,\s+(?:and|but|while|whereas|which|who|whose|where)\s|\band\s+(?:was|were|is|are|has|had|have|took|"
    r"became|remains?|remained|won|made|uses|runs|features|includes|contains|serves|holds|hosts|operates|offers|"
    r"carries|covers|[a-z]+ed)\b",
    re.I,
)


def carries_other_facts(deleted: str, named: list[str], whole: bool = True) -> bool:
    """True when the `deleted` text would take more than the answer: a figure (in digits or words) stays in it once
    what `named` holds (the answers, the query) is taken out ("until 1898" of "which country ruled puerto rico
    before 1898" is the question's own), or, for a `whole` sentence, a second clause or predicate does ("..., and
    took almost four years to complete", "and uses Lua as its scripting language")."""
    rest = deleted
    for text in named:
        rest = re.sub(re.escape(text), " ", rest, flags=re.I)
        for figure in re.findall(r"\d[\d,.]*\d|\d", text):
            rest = re.sub(rf"(?<![\d,.]){re.escape(figure)}(?![\d,.]*\d)", " ", rest)
    if re.search(r"\d", rest) or _NUMBER_WORD.search(rest):
        return True
    return whole and bool(_SECOND_CLAUSE.search(rest))


# the words that state a dated event itself ("It was first released on ..."), not a detail of it
_EVENT_WORDS = frozenset(
    """released release opened open held launched launch founded established built completed premiered published
    began begun started start first entered service signed discovered formed created introduced inaugurated
    debuted issued granted approved aired broadcast took place came out went onto into officially originally
    initially year date day month""".split()
) | frozenset(m.lower() for m in at.MONTH_NAMES.split("|"))
MAX_EVENT_DETAILS = 2


def event_details(deleted: str, query: str, answers: list[str]) -> list[str]:
    """The content words the `deleted` text holds besides the answers, the query's words and the words that state a
    dated event: what a date's cut would take with the date ("as the first single from their third album, Ohio
    River Sessions, on Crestline Records")."""
    rest = deleted
    for answer in answers:
        rest = re.sub(re.escape(answer), " ", rest, flags=re.I)
    asked = {_stem(w) for w in content_words(query)}
    return sorted(w for w in content_words(rest) if _stem(w) not in asked and w not in _EVENT_WORDS and not w.isdigit())


def _stem(word: str) -> str:
    """A word's first five letters: "arrived" is the query's "arrive", "releases" its "released"."""
    return word[:5]


def removed_part(sentence: str, kept: str) -> str:
    """The words of `sentence` that `kept` (a part of it) leaves out."""
    left = kept.split()
    out = []
    for word in sentence.split():
        if word in left:
            left.remove(word)
        else:
            out.append(word)
    return " ".join(out)


# a sentence's last clause: ", whose secret identity is ...", " and approved for medical use in Japan on 30 June 1994",
# ", along with their basset hound, Biscuit" (the fifty-fifth review's R001: the whole sentence took the family too)
_LAST_CLAUSE = re.compile(
    r"^(?P<keep>.*\S)(?:,\s+(?:whose|which|who|where|along\s+with|together\s+with)\s|"
    # a verb after "and", an -ed word only before what a verb takes ("and headquartered in"), not an adjective ("light
    # helicopters and unmanned rotorcraft, headquartered in ...": the seventy-sixth review's R045)
    r"(?P<and>\s+and\s+)(?=(?:was|were|is|are|has|had|have)\b|\w+ed\s+(?:in|on|at|by|as|to|for|from|with|into|under|"
    r"after|before|during|the|a|an|his|her|its|their|\d)))"
    r"(?P<cut>[^;:()\[\]\"“”]+?)(?P<end>[.!?])$"
)
MIN_KEPT_WORDS = 6


def _answer_only_in_cut(
    pattern: re.Pattern[str], sentence: str, names: Callable[[str], bool], min_kept: int
) -> re.Match[str] | None:
    """The match of `pattern` (groups `cut`, `keep`, `end`) where only its `cut` part names the answer and `keep` has
    at least `min_kept` words, else None: the shared test of every partial cut below."""
    m = pattern.match(sentence)
    if not m or not names(m.group("cut")) or names(m.group("keep")) or len(m.group("keep").split()) < min_kept:
        return None
    return m


def trimmed_clause(sentence: str, names: Callable[[str], bool]) -> str | None:
    """`sentence` without its last clause, where that clause alone holds what `names` finds ("It was discovered by
    chemists at ... and approved for medical use on 30 June 1994." keeps "It was discovered by chemists at ...");
    None where the rest would still name it, be under six words, or the sentence has no such clause."""
    m = _answer_only_in_cut(_LAST_CLAUSE, sentence, names, MIN_KEPT_WORDS)
    if not m or m.group("and") and _PARTICIPLE_END.search(m.group("keep")):
        return None  # or "co-written and recorded by ...": the first participle shares the cut "by ..."
    if _OPENER.match(m.group("keep")) and "," not in m.group("keep"):
        return None  # "Unlike most forais of the period, which ..., it was drafted in ...": the main clause is cut
    keep = m.group("keep")
    if m.group("and") and keep.endswith(",") and _LIST_PREDICATE.search(keep[:-1]):
        # "They cover some 3,200 square kilometres, reach 2,640 metres at Mount Bifang, and are home to ...": the last
        # of a list of predicates; the rest would lose its "and" (the eighty-sixth review's R102)
        return None
    return keep + m.group("end")


# a phrase that opens a sentence before its main clause (the fifty-fourth review's R010)
_OPENER = re.compile(
    r"(?:Unlike|Like|Despite|Although|Though|While|Whereas|As|With|Without|After|Before|During|Following|Since|"
    r"Because|If|When|Besides|Beyond|Apart\s+from|In\s+contrast\s+to|Compared\s+with)\b"
)


# the last comma-separated part of what is kept, a predicate with no subject of its own ("..., reach 2,640 metres at
# Mount Bifang"), not a clause ("Named after ..., she was built ...") nor a place ("in Berne, Lower Saxony")
_LIST_PREDICATE = re.compile(
    r",\s+(?!(?:she|he|it|they|we|you|i|which|who|whom|whose|where|when|while|and|but|or|the|a|an|its|his|her|their|"
    r"this|that|these|those|there|then)\b)[a-z][\w'-]*\b(?:[^,]|,(?=\d))*$"
)
_PARTICIPLE_END = re.compile(r"\b[\w-]+(?:ed|en|wn|tten|ung|ade)$")
# "<clause naming the answer>, and the mineral's crystal structure was determined in 1967.": a closing clause with a
# subject of its own ("the ..." and a finite verb within six words), nothing pointing back to the cut clause
_CLOSING_CLAUSE = re.compile(
    r"^(?P<cut>.*\S),\s+and\s+(?P<keep>(?:the|a|an)\s+(?:[\w'’-]+\s+){0,5}?(?:was|were|is|are|has|had|have)\s"
    r"[^;:()\[\]\"“”]+?)(?P<end>[.!?])$"
)
_POINTS_BACK = re.compile(r"\b(?:he|she|him|his|her|hers|they|them|their|it|its|this|that|these|those|there)\b", re.I)


# "It premiered on Telemar on 2 October 2020 and consists of eight episodes.": one short subject, two predicates, the
# first without a comma (a list or an apposition inside it may hide another "and")
_TWO_PREDICATES = re.compile(
    r"^(?P<subject>(?:It|They|He|She|The\s+[a-z]+))\s+(?P<cut>(?P<first>[a-z]+ed|was|were|is|are|has|had)\s"
    r"[^,;:()\[\]\"“”]+?)\s+and\s+(?P<keep>(?P<second>[a-z]+[^s]s|[a-z]+ed|is|was|are|were|has|had|have)\s"
    r"[^,;:()\[\]\"“”]+?)(?P<end>[.!?])$"
)
_AUXILIARIES = frozenset("is was are were has had have".split())
_DETERMINER = re.compile(r"\b(?:the|a|an|their|his|her|its)\b(?=\s+[a-z])", re.I)


def kept_second_predicate(sentence: str, names: Callable[[str], bool]) -> str | None:
    """`sentence` with its first predicate cut, where that alone names what `names` finds and a second predicate of
    the same short subject follows ("It premiered on Telemar on 2 October 2020 and consists of eight episodes." keeps
    "It consists of eight episodes."). None otherwise, where the second predicate is under three words, where
    after a first "was ..." it opens on anything but an auxiliary ("was created ... and patented in 2004" shares the
    "was", which the cut would take), or where its first determiner is "its" or "their" and the cut names a thing
    that could be what it points to ("... on their album Prairie Fire and was released as its lead single")."""
    m = _answer_only_in_cut(_TWO_PREDICATES, sentence, names, 3)
    if not m or m.group("first") in _AUXILIARIES and m.group("second") not in _AUXILIARIES:
        return None
    first = _DETERMINER.search(m.group("keep"))
    if first and first.group(0).lower() in ("its", "their") and _DETERMINER.search(m.group("cut")):
        # "It is the opening track on their album Prairie Fire and was released as its lead single": "its", before
        # any thing of the kept predicate's own, pointed to the album the cut takes (the eighty-second review's R056)
        return None
    return f"{m.group('subject')} {m.group('keep')}{m.group('end')}"


def kept_closing_clause(sentence: str, names: Callable[[str], bool]) -> str | None:
    """The closing clause of `sentence`, as a sentence of its own, where only its first clause holds what `names`
    finds ("Rosendahl published his description in 1829, and the mineral's crystal structure was determined in
    1967." keeps "The mineral's crystal structure was determined in 1967."); None where the closing clause has no
    subject of its own, names it too, points back, or is under six words."""
    m = _answer_only_in_cut(_CLOSING_CLAUSE, sentence, names, MIN_KEPT_WORDS)
    if not m or _POINTS_BACK.search(m.group("keep")):
        return None
    return capitalise(m.group("keep")) + m.group("end")


# "The race was first held in 1988, and since 2009 it has also included a separate women's division.": a closing
# clause whose subject "it" is the first clause's short common-noun subject, which the kept sentence names again
_CLOSING_IT = re.compile(
    r"^(?P<subject>The\s+[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*)?)\s+(?P<cut>(?:was|is|has|had)\s[^,;:]*\S),\s+and\s+"
    r"(?P<lead>(?:since|in|from|by|after|until)\s+[^,;:\s]+(?:\s+[^,;:\s]+)?,?\s+)?it\s+"
    r"(?P<keep>(?:was|is|has|had)\s[^;:()\[\]\"“”]+?)(?P<end>[.!?])$"
)


def kept_closing_it_clause(sentence: str, names: Callable[[str], bool]) -> str | None:
    """The closing clause of `sentence` as a sentence of its own, its "it" replaced by the first clause's subject,
    where only the first clause holds what `names` finds ("The race was first held in 1988, and since 2009 it has
    also included a separate women's division." keeps "Since 2009 the race has also included a separate women's
    division."); None where the closing clause names it too, points back otherwise, or is under three words."""
    m = _CLOSING_IT.match(sentence)
    if not m or not names(m.group("cut")) or len(m.group("keep").split()) < 3:
        return None
    lead = (m.group("lead") or "").rstrip(", ")
    kept = f"{lead} {m.group('subject').lower()} {m.group('keep')}".strip()
    if names(kept) or _POINTS_BACK.search(f"{lead} {m.group('keep')}"):
        return None
    return capitalise(kept) + m.group("end")


def kept_part(sentence: str, names: Callable[[str], bool]) -> str | None:
    """What of `sentence` may stay when only one of its clauses or predicates names the answer (else None)."""
    return (
        trimmed_clause(sentence, names)
        or kept_closing_clause(sentence, names)
        or kept_closing_it_clause(sentence, names)
        or kept_second_predicate(sentence, names)
    )
