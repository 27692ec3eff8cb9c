"""P-MissingInfo MEDIUM and HIGH levers: mask or delete the answer (the LOW levers, which remove a detail the
answer does not need, are in `levers_missing_low`).

Every edit applies to each signal passage that states an answer; the query is never touched.
"""

from __future__ import annotations

import re

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
from refusalbench.perturb.purge_cuts import (
    MAX_EVENT_DETAILS,
    carries_other_facts,
    event_details,
    kept_part,
    removed_part,
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
        sents = [(kept_part(s, names) or s) if names(s) else s for s in original]
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
        dated = item.atype in (at.DATE, at.YEAR)
        for s, kept, g in zip(original, sents, gone):
            if not names(s):
                continue
            cut = s if g else removed_part(s, kept)
            if carries_other_facts(cut, named, whole=g):
                # "First synthesised in 1994 at a laboratory in Lyon, pemarolide was approved ... in 2006 and in
                # the European Union two years later.": the synthesis and the EU approval would go with the US date
                raise NotApplicable("the cut would take another figure or clause, a fact of its own, with the answer")
            details = event_details(cut, item.query, item.answers) if dated else []
            if len(details) > MAX_EVENT_DETAILS:
                # "It was released in 1974 as the first single from their third album, Ohio River Sessions, on
                # Crestline Records.": the event's other facts would go with its date. Of the date cuts judged since
                # the forty-second blind review, the 5 with at most two other words were all valid, 2 of the 5 with
                # three to five ("by Polar Forge Records", "by farmers and railway workers from the district": the
                # sixty-first review), 4 of the 12 with more
                raise NotApplicable(f"the cut would take other facts of the dated event ({', '.join(details[:4])} ...)")
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
# which reads as a contradiction once the sum is "unspecified"
_HEDGED_BEFORE = re.compile(
    r"\b(?:reportedly|reported|estimated|estimates?|approximately|about|around|roughly|nearly|almost|some|over|"
    r"more than|less than|up to|at least|believed|said|thought|rumou?red)\b"
    r"(?:\s+(?:cost|price|value|sum|fee|budget|figure|total))?(?:\s+(?:to be|worth|at|of|by|for))*\s*$",
    re.I,
)
# "a reported development and marketing budget of $80 million": a reported sum's noun, which reads as a
# contradiction once the sum is "unspecified" (the forty-ninth review's R023)
_REPORTED_NOUN = re.compile(
    r"\b(?:reported|estimated|announced|disclosed|published|stated|declared|rumou?red|quoted)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:cost|costs|price|value|sum|fee|budget|figure|total|prize|purse|salary|wage|payment)\s+(?:of|at|was|is)?\s*$",
    re.I,
)
# "$27 million, an unusually high figure owing to ...": the sum described as a figure ("a record for the artist"
# after an unspecified amount reads fine)
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
# a price that is public by its nature: "its list price was set at an unspecified amount" reads as nonsense (the
# forty-seventh review's R056, the fifty-sixth's R009)
_PUBLISHED_PRICE = re.compile(
    r"\b(?:list|retail|sticker|cover|recommended(?:\s+retail)?)\s+price\b|\b(?:RRP|MSRP)\b", re.I
)
# "at a cost of an unspecified amount" reads as "at an unspecified cost", "a launch price of ..." as "an unspecified
# launch price" (the fifty-seventh review's R062)
_UNSPECIFIED_NOUN = re.compile(r"\ba ((?:[a-z-]+\s+)?(?:cost|price|fee|sum|value|budget)) of an unspecified amount\b")
_LARGE_FIGURE = re.compile(r"\d[\d,.]*\s+(?:million|billion|trillion)\b", re.I)  # "1.84 billion" without its currency


@lever(MI, tx.MEDIUM, "Price Redacted", CONTEXT)
def price_redacted(item: Item) -> Proposal:
    """The amount the query asks for replaced by "an unspecified amount"; declined where any other amount of money
    (or a figure in millions or billions) stays, since sums or differences of the rest can give the answer back.

    Not "an undisclosed amount": that says the sum was kept secret, a fact the passage never gave (read so in the
    forty-fourth, forty-seventh and fifty-fifth reviews)."""
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
                        "unspecified amount cannot be"
                    )
                noun = _NOUN_AFTER.match(passage[m.end() :])
                if noun:
                    # "through a €14.6 million restoration project" would read "an unspecified amount restoration"
                    raise NotApplicable(f"the amount qualifies a noun ({noun.group(1)!r}); no unspecified amount can")
                before = passage[max(0, m.start() - 80) : m.start()]
                hedge = _HEDGED_BEFORE.search(before[-40:]) or _REPORTED_NOUN.search(before)
                if hedge:
                    raise NotApplicable(
                        f"the amount is hedged ({hedge.group(0).strip()!r}); 'reportedly worth an unspecified "
                        "amount' says an unknown sum was reported"
                    )
                if _PUBLISHED_PRICE.search(before):
                    raise NotApplicable("the amount is a list or retail price, which is published by its nature")
        new = _UNSPECIFIED_NOUN.sub(r"an unspecified \1", _mask(passage, item.answers, "an unspecified amount"))
        left = _MONEY.search(new) or _LARGE_FIGURE.search(new)
        if new != passage and left:
            # "a gross of $1.84 billion ... an additional $343.6 million ... a total of <masked>": the rest sums to it
            raise NotApplicable(
                f"another amount stays in the passage ({left.group(0)!r}); with it the answer can be worked out"
            )
        return new

    passages = item.edit_signal(edit)
    return _proposal(item, passages, "Replaced the amount the query asks for with 'an unspecified amount'.")
