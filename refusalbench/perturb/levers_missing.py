"""P-MissingInfo MEDIUM and HIGH levers: mask or delete the answer (the LOW levers, which remove a detail the
answer does not need, are in `levers_missing_low`).

Every edit applies to each signal passage that states an answer; the query is never touched.
"""

from __future__ import annotations

import re
from typing import Callable

from refusalbench import taxonomy as tx
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import (
    _SENTENCE_START,
    _WORD_BEFORE,
    ARTICLES,
    CONTEXT,
    Item,
    NotApplicable,
    Proposal,
    lever,
    rebuild,
    replace_spans,
)
from refusalbench.perturb.distractors import STOPWORDS
from refusalbench.perturb.missing_gates import (
    DEMONYMS,
    answer_in_query,
    answer_kind_left,
    answer_only_in_opening_phrase,
    fragment_left,
    lead_subject_lost,
    points_back_after_cut,
    purgeable,
    refers_back_after_cut,
    refers_to_time_after_cut,
    rival_left,
    unanchored_definite,
)
from refusalbench.perturb.text import (
    answer_pattern,
    balanced,
    capitalise,
    contains_any,
    split_sentences,
    tidy,
)

MI = tx.MISSING_INFO


def _drop(passage: str, doomed) -> str:
    """The passage without the sentences for which `doomed(sentence)` is true; '' if none remain."""
    sents = split_sentences(passage)
    kept = [s for s in sents if not doomed(s)]
    if len(kept) == len(sents):
        return passage
    if not kept:
        raise NotApplicable("deleting those sentences would leave the passage empty")
    if not all(balanced(s) for s in sents if doomed(s)):
        raise NotApplicable("a sentence to delete opens or closes a bracket or quotation that goes on")
    return rebuild(kept)


def _proposal(item: Item, passages: list[str], what: str) -> Proposal:
    return Proposal(item.query, passages, what)


def name_tokens(item: Item) -> list[str]:
    """Capitalised words of named-entity answers ("Ledger" of "Heath Ledger"), matched case-sensitively."""
    if item.atype not in (at.PERSON, at.ORGANISATION, at.PLACE, at.OTHER):
        return []
    words = set()
    for a in item.answers:
        for w in re.findall(r"[A-Za-zÀ-ÿ][\w'’.-]*", a):
            w = w.strip(".'’")
            if len(w) >= 3 and w.lower() not in STOPWORDS and w[:1].isupper():
                words.add(w)
    return sorted(words, key=len, reverse=True)


def place_adjectives(item: Item) -> list[str]:
    """Adjectives of a place answer ("Spanish" of "Spain", "Kenyan", "Japanese", "Italian"), matched as whole
    capitalised words: a text that keeps them still gives the place."""
    if item.atype != at.PLACE:
        return []
    forms = set()
    for a in item.answers:
        for w in re.findall(r"[A-Z][a-z]{3,}", a):
            if w in DEMONYMS:
                forms.add(DEMONYMS[w])
            stems = {w, w[:-1]} if w[-1] in "aeiouy" else {w}
            forms |= {stem + end for stem in stems for end in ("n", "an", "ian", "ese", "ish")} - {w}
    return sorted(forms)


def demonym_places(item: Item) -> list[str]:
    """The countries of a people the answer names by its adjective ("England" of "the English", "English
    settlers"): a text that keeps the country ("exploring the coast for England in 1498") still points to it."""
    leads = {m.group(1) for a in item.answers if (m := re.match(r"\s*(?:the\s+)?([A-Z][a-z]+)\b", a))}
    return sorted(place for place, adjective in DEMONYMS.items() if adjective in leads)


def answer_heads(answers: list[str]) -> list[str]:
    """The last two words of an answer of three or more ("dorsal root" of "the distal dorsal root"): a text that
    keeps them still gives the answer at a coarser level."""
    heads = []
    for a in answers:
        words = [w for w in re.findall(r"[\w'-]+", a) if w.lower() not in STOPWORDS]
        if len(words) >= 3 and all(len(w) >= 4 for w in words[-2:]):
            heads.append(" ".join(words[-2:]))
    return heads


def has_token(text: str, tokens: list[str]) -> bool:
    return any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text) for w in tokens)


def _mask(text: str, answers: list[str], stand_in: str, tokens: list[str] = ()) -> str:
    """Answers (any case) and name tokens (exact case) replaced by `stand_in`; repeats collapsed.

    An article right before the answer goes with it ("the President" → "a certain person", not
    "the a certain person"), and a stand-in opening a sentence is capitalised.
    """
    alternatives = [p.pattern for p in (answer_pattern(t) for t in sorted(set(answers), key=len, reverse=True)) if p]
    alternatives += [rf"(?-i:(?<!\w){re.escape(w)}(?!\w))" for w in tokens]
    if not alternatives:
        return text
    union = re.compile("|".join(f"(?:{a})" for a in alternatives), re.I)

    def decide(t: str, m: re.Match) -> tuple[int, str]:
        start = m.start()
        w = _WORD_BEFORE.search(t[:start])
        if w and w.group(1).lower() in ARTICLES:
            start = w.start(1)
        return start, capitalise(stand_in) if _SENTENCE_START.search(t[:start]) else stand_in

    text = replace_spans(text, union, decide)
    text = re.sub(rf"({re.escape(stand_in)})(?:,?\s+(?:and\s+|or\s+)?{re.escape(stand_in)})+", r"\1", text, flags=re.I)
    return tidy(text)


# -- MEDIUM ------------------------------------------------------------------------------------


# "Answer Clause Excised" (every answer sentence deleted) is out of the rotation: in blind review and in a
# later self-review the cut too often left the answer implied (a surname, another date or singer that answers
# the question, the rest still explaining "what happens") or a passage opening on "He ..." / "The single was his".

# "Placeholder Entity Substitution" (the answer's name replaced by "a certain person / organisation") is out of the
# rotation: in two blind reviews 2 of its 11 items were strictly valid; the stand-in broke agreement ("such famous
# figures as a certain person", two writers or a cast becoming one "certain person"), followed a noun it could
# not stand beside ("the British singer-songwriter a certain person") or left a role that still named the person.


# "Missing Temporal Adjunct" (the time phrase that answers "when" cut from its sentence) left the rotation after the
# sixth blind review, when its cut left broken punctuation, a bare "and was released.", a part of the gold answer
# or a date a named event still gives; it came back in `levers_missing_time`, with a gate for each of those.


# -- HIGH --------------------------------------------------------------------------------------


@lever(MI, tx.HIGH, "Answer Token Purge", CONTEXT)
def answer_token_purge(item: Item) -> Proposal:
    item.need_anchor()
    if not purgeable(item.query, item.answers, item.atype):
        # "what does a justice of the peace do": the rest of the passage still describes the answer
        raise NotApplicable("the answer is a description, definition, role or kind, not a short factoid")
    if answer_in_query(item.query, item.answers):
        raise NotApplicable("the query names an answer among its options; what is left can still pick it out")
    tokens = name_tokens(item) + place_adjectives(item) + demonym_places(item)
    heads = answer_heads(item.answers)

    def names(s: str) -> bool:
        return contains_any(s, item.answers) or has_token(s, tokens) or contains_any(s, heads)

    def edit(passage: str) -> str:
        # a clause or predicate that alone holds the answer goes, not its whole sentence with the sentence's other facts
        original = split_sentences(passage)
        sents = [(_kept_part(s, names) or s) if names(s) else s for s in original]
        gone = [names(s) for s in sents]
        if refers_back_after_cut(sents, gone) or unanchored_definite(sents, gone) or points_back_after_cut(sents, gone):
            raise NotApplicable("a sentence left refers back to a deleted one ('Another account', 'The song', 'he')")
        if lead_subject_lost(sents, gone, item.answers):
            # "Corvid Court is a collectible card game created by ...": the rest no longer says what it is about
            raise NotApplicable(
                "the cut would take the lead sentence, and nothing left names what the passage is about"
            )
        head = answer_kind_left(sents, gone, item.answers)
        if head:
            # "The Ravens have won the shield 32 times" once the sentence on the Kelly-Braddon Shield went
            raise NotApplicable(f"a sentence left names the answer's kind ('the {head}'), a part of the answer")
        if refers_to_time_after_cut(sents, gone):
            raise NotApplicable(
                "a sentence left points back to a time that a cut sentence gave ('later the same year')"
            )
        if any(g and answer_only_in_opening_phrase(s, item.answers) for s, g in zip(sents, gone)):
            # "Nicknamed the Herons, the club was founded in 1889 and plays at Marsh Lane ...": the club's other
            # facts would go with the nickname
            raise NotApplicable("the answer stands only in a sentence's opening phrase; its main clause would go too")
        named = [*item.answers, item.query]
        for s, kept, g in zip(original, sents, gone):
            if names(s) and carries_other_facts(s if g else removed_part(s, kept), named, whole=g):
                # "First synthesised in 1994 at a laboratory in Lyon, pemarolide was approved ... in 2006 and in
                # the European Union two years later.": the synthesis and the EU approval would go with the US date
                raise NotApplicable("the cut would take another figure or clause, a fact of its own, with the answer")
        new = _drop(rebuild(sents) if sents != original else passage, names)
        if new != passage and fragment_left([s for s in sents if not names(s)]):
            raise NotApplicable("too little is left to read as a passage (a single clause or under 25 words)")
        if new != passage and rival_left(new, item.atype, item.query_words(), item.query, item.answers):
            # "filming locations included Wellington" once "filmed in New Zealand" went; "In 1936 the province ..."
            raise NotApplicable("what is left still offers a value of the answer's kind (another date, a place)")
        return new

    passages = item.edit_signal(edit)
    return _proposal(
        item,
        passages,
        "Deleted every sentence holding the answer, any of its name variants or its head words (only the clause or "
        "predicate that held them where one alone did and the rest of its sentence stands on its own).",
    )


# a figure in words ("took almost four years"), not "one", which is as often a pronoun ("one of the ...")
_NUMBER_WORD = re.compile(
    r"\b(?:" + "|".join(w for w in at.SINGLE_WORD_NUMBERS if w != "one") + r"|thousand|million|billion|dozen)\b",
    re.I,
)
# a second clause or predicate: ", and introduced rats and cats are thought ...", "... and took almost four years"
_SECOND_CLAUSE = re.compile(
    r";|,\s+(?:and|but|while|whereas|which|who|whose|where)\s|\band\s+(?:was|were|is|are|has|had|have|took|"
    r"became|remains?|remained|won|made|[a-z]+ed)\b",
    re.I,
)


def carries_other_facts(deleted: str, named: list[str], whole: bool = True) -> bool:
    """True when the `deleted` text would take more than the answer: a figure (in digits or words) stays in it once
    what `named` holds (the answers, the query) is taken out ("until 1898" of "which country ruled puerto rico
    before 1898" is the question's own), or, for a `whole` sentence, a second clause or predicate does ("..., and
    took almost four years to complete")."""
    rest = deleted
    for text in named:
        rest = re.sub(re.escape(text), " ", rest, flags=re.I)
        for figure in re.findall(r"\d[\d,.]*\d|\d", text):
            rest = re.sub(rf"(?<![\d,.]){re.escape(figure)}(?![\d,.]*\d)", " ", rest)
    if re.search(r"\d", rest) or _NUMBER_WORD.search(rest):
        return True
    return whole and bool(_SECOND_CLAUSE.search(rest))


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


# a sentence's last clause: ", whose secret identity is ...", " and approved for medical use in Japan on 30 June 1994"
_LAST_CLAUSE = re.compile(
    r"^(?P<keep>.*\S)(?:,\s+(?:whose|which|who|where)\s|\s+and\s+(?=(?:was|were|is|are|has|had|have|\w+ed)\b))"
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
    if not m or _PARTICIPLE_END.search(m.group("keep")):
        return None  # or "co-written and recorded by ...": the first participle shares the cut "by ..."
    return m.group("keep") + m.group("end")


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


def kept_second_predicate(sentence: str, names: Callable[[str], bool]) -> str | None:
    """`sentence` with its first predicate cut, where that alone names what `names` finds and a second predicate of
    the same short subject follows ("It premiered on Telemar on 2 October 2020 and consists of eight episodes." keeps
    "It consists of eight episodes."). None otherwise, where the second predicate is under three words, or where
    after a first "was ..." it opens on anything but an auxiliary ("was created ... and patented in 2004" shares the
    "was", which the cut would take)."""
    m = _answer_only_in_cut(_TWO_PREDICATES, sentence, names, 3)
    if not m or m.group("first") in _AUXILIARIES and m.group("second") not in _AUXILIARIES:
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


def _kept_part(sentence: str, names: Callable[[str], bool]) -> str | None:
    """What of `sentence` may stay when only one of its clauses or predicates names the answer (else None)."""
    return (
        trimmed_clause(sentence, names)
        or kept_closing_clause(sentence, names)
        or kept_closing_it_clause(sentence, names)
        or kept_second_predicate(sentence, names)
    )


# "Answer and Subject Sentences Deleted" (every sentence naming the answer or a query word cut) is out of the
# rotation: from the fourteenth to the twentieth blind review 4 of its 9 items were strictly valid (the purge: 30 of
# 36); a query word such as "ice" took unrelated sentences with it ("the Ice Panel"), other facts went with the
# subject's sentences, and what was left still implied the answer ("upperclassmen" for a high school).


# "Entirely Irrelevant Context" (the answer passage replaced by one on an unrelated topic) is out of the rotation:
# in the ninth blind review three of four annotators judged every one of its 43 items not valid (the swap destroys
# every other fact of the passage, and the item tests noticing an off-topic passage more than a missing fact),
# against 71 valid of 77 in the seventh and eighth; contested under the review's "target only" rule, it also made
# nine in ten MissingInfo HIGH items one kind of edit.


_PRICE_QUERY = re.compile(r"\b(?:how much|cost|price|paid|pay|worth|budget|salary|fee)\b", re.I)
_MONEY = re.compile(
    r"(?:[$£€¥]\s?\d[\d,.]*(?:\s(?:million|billion|thousand))?|\d[\d,.]*\s(?:million|billion|thousand)?\s?"
    r"(?:dollars|pounds|euros|yen|rupees))",
    re.I,
)


# "reportedly worth $12 million", "an estimated $3 million", "about $40,000": an estimate or a report of the sum,
# which reads as a contradiction once the sum is "undisclosed"
_HEDGED_BEFORE = re.compile(
    r"\b(?:reportedly|reported|estimated|estimates?|approximately|about|around|roughly|nearly|almost|some|over|"
    r"more than|less than|up to|at least|believed|said|thought|rumou?red)\b"
    r"(?:\s+(?:cost|price|value|sum|fee|budget|figure|total))?(?:\s+(?:to be|worth|at|of|by|for))*\s*$",
    re.I,
)
# "$27 million, an unusually high figure owing to ...": the sum described as a figure ("a record for the artist"
# after an undisclosed amount reads fine)
_FIGURE_AFTER = re.compile(
    r"\s*,\s+(?:then\s+)?(?:an?|the)\s+(?:[\w-]+\s+){0,3}(?:figure|sum|number|total)\b"
    # "$2.1 million, at the time one of the highest prices ever paid", "..., around 40 percent over its budget"
    r"|\s*,\s+(?:[\w-]+\s+){0,4}?(?:one\s+of\s+the\s+(?:highest|lowest|largest|biggest)|"
    r"the\s+(?:highest|lowest|largest|biggest)\b|\d[\d.]*\s*(?:percent|per\s+cent|%)|"
    r"(?:over|under)\s+(?:its\s+|the\s+)?(?:original\s+)?budget)",
    re.I,
)
# the amount used as an adjective: a word after it that is none of the words a sum is followed by
_NOUN_AFTER = re.compile(
    r"\s+(?!(?:in|on|at|by|for|from|to|and|or|but|with|as|was|were|is|are|had|has|which|that|when|while|after|"
    r"before|per|a|an|the|each|over|during|of|into|until|since|than)\b)([a-z][a-z-]+)\b"
)
# "at a cost of an undisclosed amount" reads as "at an undisclosed cost"
_UNDISCLOSED_NOUN = re.compile(r"\ba (cost|price|fee|sum|value|budget) of an undisclosed amount\b")
_LARGE_FIGURE = re.compile(r"\d[\d,.]*\s+(?:million|billion|trillion)\b", re.I)  # "1.84 billion" without its currency


@lever(MI, tx.MEDIUM, "Price Redacted", CONTEXT)
def price_redacted(item: Item) -> Proposal:
    """The amount the query asks for replaced by "an undisclosed amount"; declined where any other amount of money
    (or a figure in millions or billions) stays, since sums or differences of the rest can give the answer back."""
    item.need_anchor()
    if not _PRICE_QUERY.search(item.query) or not any(_MONEY.fullmatch(a.strip()) for a in item.answers):
        raise NotApplicable("the query does not ask for a monetary amount")

    def edit(passage: str) -> str:
        for pat in filter(None, map(answer_pattern, item.answers)):
            for m in pat.finditer(passage):
                described = _FIGURE_AFTER.match(passage[m.end() :])
                if described:
                    raise NotApplicable(
                        f"the amount is described after it ({described.group(0).strip(' ,')!r}), which an "
                        "undisclosed amount cannot be"
                    )
                noun = _NOUN_AFTER.match(passage[m.end() :])
                if noun:
                    # "through a €14.6 million restoration project" would read "an undisclosed amount restoration"
                    raise NotApplicable(f"the amount qualifies a noun ({noun.group(1)!r}); no undisclosed amount can")
                hedge = _HEDGED_BEFORE.search(passage[max(0, m.start() - 40) : m.start()])
                if hedge:
                    raise NotApplicable(
                        f"the amount is hedged ({hedge.group(0).strip()!r}); 'reportedly worth an undisclosed "
                        "amount' says an unknown sum was reported"
                    )
        new = _UNDISCLOSED_NOUN.sub(r"an undisclosed \1", _mask(passage, item.answers, "an undisclosed amount"))
        left = _MONEY.search(new) or _LARGE_FIGURE.search(new)
        if new != passage and left:
            # "a gross of $1.84 billion ... an additional $343.6 million ... a total of <masked>": the rest sums to it
            raise NotApplicable(
                f"another amount stays in the passage ({left.group(0)!r}); with it the answer can be worked out"
            )
        return new

    passages = item.edit_signal(edit)
    return _proposal(item, passages, "Replaced the amount the query asks for with 'an undisclosed amount'.")
