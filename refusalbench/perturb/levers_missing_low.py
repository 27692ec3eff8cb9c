"""P-MissingInfo LOW levers: remove a detail the answer does not need (a side sentence, a statistic, a
parenthetical, an opening clause), so the question stays answerable from what is left.

Every edit applies to each signal passage that states an answer; the query is never touched. The deletions
decline where what is left would point back to what went, or where the detail helps tie the query to the
answer.
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb import answer_types as at
from refusalbench.perturb.base import (
    CONTEXT,
    Item,
    Proposal,
    lever,
    rebuild,
    sentences_with,
)
from refusalbench.perturb.distractors import STOPWORDS
from refusalbench.perturb.missing_gates import (
    RANK_WORDS,
    definite_from_cut,
    holds_reference_word,
    names_query_place,
    refers_back_after_cut,
    refers_to_figure,
    shares_query_word,
)
from refusalbench.perturb.text import (
    LOWERABLE,
    balanced,
    capitalise,
    contains,
    contains_any,
    ends_sentence,
    inside_quotes,
    split_sentences,
    tidy,
)

MI = tx.MISSING_INFO


def links_subject(sents: list[str], i: int, words: set[str], answers: list[str]) -> bool:
    """True when sentence `i` may be what ties the query's subject to the answer: it holds a query content
    word that no other sentence holds, or it is the only sentence besides the answer sentences that holds
    any ("The song was written for the film Vacation." before "It reached number 82.")."""
    own = {w for w in words if contains(sents[i], w)}
    if not own:
        return False
    others = [s for k, s in enumerate(sents) if k != i]
    if any(not any(contains(s, w) for s in others) for w in own):
        return True
    side = [s for s in others if not contains_any(s, answers)]
    return not any(contains(s, w) for s in side for w in words)


# a finite verb, roughly: an auxiliary or copula, a past form in -ed, or a common irregular verb
_VERB = re.compile(
    r"\b(?:is|are|was|were|be|been|being|am|has|have|had|do|does|did|can|could|will|would|shall|should|may|might|"
    r"must|\w{2,}ed|became|become|began|begins|won|wins|wrote|made|took|gave|sang|left|led|met|"
    r"said|saw|went|came|found|got|held|told|ran|knew|brought|bought|built|sold|sent|stood|taught|fought|kept|lost|"
    r"paid|put|set|grew|rose|chose|broke|spoke|stole|drew|drove|flew|threw|wore|beat|hit|cost|spent|felt|thought|"
    r"include|includes|remain|remains|play|plays|serve|serves)\b"
    # a present-tense "-s" verb before its object ("lends money"), not a plural before "and" or a full stop
    r"|(?<!\bthe )(?<!\bof )(?<!\band )\b[a-z]{3,}(?<![su'])s(?=\s+(?!and\b|or\b)[a-z])",
    re.I,
)


def is_statement(sentence: str) -> bool:
    """A sentence worth deleting: at least four words and a verb (not a stray fragment such as "Countries")."""
    return len(sentence.split()) >= 4 and bool(_VERB.search(sentence))


# a cut passage's trailing fragment whose only verb is the last word ("Global nuclear electricity generation in
# 2012 was", "This action, in effect, is") states nothing, so deleting it leaves no defect (blind reviews:
# borderline or invalid each time); one that says something before it is cut ("He also has blue eyes, the one
# feature that does not change whether he is") or goes on past its verb ("The paper was forced to shut down in")
# is a deletion like any other
_BARE_VERB_END = re.compile(r"\b(?:is|was|are|were|be|been|being|has|have|had|will|would|can|could)\s*$", re.I)


def _predicate_cut_off(sentence: str) -> bool:
    end = _BARE_VERB_END.search(sentence)
    return not ends_sentence(sentence) and end is not None and not _VERB.search(sentence[: end.start()])


def _points_back(sents: list[str], i: int) -> bool:
    """True when what is left would point back to sentence `i`: the next sentence opens on a back-reference
    ("However, ..."), holds a pronoun or demonstrative ("Christians use it", "such") or opens on "The <noun>"
    that only `i` named; when `i` first names someone a later sentence names again; or, when `i` holds a figure, a
    later one refers to a figure ("has since increased")."""
    if introduces_name(sents, i):
        return True
    if i + 1 < len(sents):
        after = sents[i + 1]
        if refers_back_after_cut(sents[i : i + 2], [True, False]) or holds_reference_word(after):
            return True
        if definite_from_cut(sents[i], " ".join(sents[:i]), after):
            return True
    return bool(re.search(r"\d", sents[i])) and any(refers_to_figure(s) for s in sents[i + 1 :])


_NAME_WORD = re.compile(r"(?<=[\w,] )[A-Z][a-z]{2,}")


def introduces_name(sents: list[str], i: int) -> bool:
    """True when sentence `i` is where the passage first names someone or something a later sentence names again
    ("... a series by George R. R. Martin." before "Martin has stated ..."): without it the later name comes from
    nowhere."""
    before = " ".join(sents[:i])
    after = " ".join(sents[i + 1 :])
    return any(
        re.search(rf"\b{re.escape(n)}\b", after) and not re.search(rf"\b{re.escape(n)}\b", before)
        for n in set(_NAME_WORD.findall(sents[i]))
    )


def _between_support(sents: list[str], i: int, words: set[str], answers: list[str]) -> bool:
    """True when sentence `i` lies between an answer sentence and a sentence holding a query word: it may be
    part of what ties the two together."""
    answer = [k for k, s in enumerate(sents) if contains_any(s, answers)]
    query = [k for k, s in enumerate(sents) if k != i and shares_query_word(s, words)]
    return any(min(a, q) < i < max(a, q) for a in answer for q in query)


def _drop_one(item: Item, choose, apart: bool = False) -> list[str]:
    """Delete one seeded sentence chosen by `choose(sentences) -> candidate indices` per passage; never one
    that ties the query's subject to the answer (`links_subject`) or that a sentence kept after it points back
    to (`_points_back`); with `apart`, never one that holds a query word or lies between the answer and a
    query word (it may be part of the answer's support). A sentence sharing an answer word's stem
    ("legislators" for "state legislatures") is never deleted either: it is support in other words."""
    words = item.query_words()
    # words of answers without figures: "57 days" would make every sentence with a number of days "support"
    answer_words = {
        w
        for a in item.answers
        if not re.search(r"\d", a)
        for w in re.findall(r"[A-Za-z]{4,}", a)
        if w.lower() not in STOPWORDS
    }

    def edit(passage: str) -> str:
        sents = split_sentences(passage)
        options = [
            i
            for i in choose(sents)
            if i > 0
            and is_statement(sents[i])
            and not _predicate_cut_off(sents[i])
            and not contains_any(sents[i], item.answers)
            and not shares_query_word(sents[i], answer_words)  # "elected by the state legislators": support
            and balanced(sents[i])
            and not inside_quotes(passage, passage.find(sents[i]))  # a sentence of a longer quotation
            and not links_subject(sents, i, words, item.answers)
            and not (apart and (shares_query_word(sents[i], words) or _between_support(sents, i, words, item.answers)))
            and not _points_back(sents, i)
        ]
        if not options or not sentences_with(sents, item.answers):
            return passage
        k = item.rng.choice(options)
        return rebuild(s for i, s in enumerate(sents) if i != k)

    return item.edit_signal(edit)


@lever(MI, tx.LOW, "Non-answer Sentence Deletion", CONTEXT)
def non_answer_sentence(item: Item) -> Proposal:
    item.need_anchor()
    passages = _drop_one(item, lambda sents: range(len(sents)), apart=True)
    return Proposal(
        item.query, passages, "Deleted one sentence that does not state the answer; the answer sentence is intact."
    )


@lever(MI, tx.LOW, "Strip Non-queried Statistic", CONTEXT)
def strip_statistic(item: Item) -> Proposal:
    item.need_anchor()
    passages = _drop_one(item, lambda sents: [i for i, s in enumerate(sents) if re.search(r"\d", s)])
    return Proposal(item.query, passages, "Deleted a sentence carrying a figure the query does not ask about.")


_PAREN = re.compile(r"\s+\(([^()]{1,160})\)")  # "CPI(M)": a bracket glued to a word is part of a name
# a bracket that is only an abbreviation ("AFL", "U.S.", "R&B") or a single lower-case word: a qualifier whose loss
# changes the fact ("the first chairman (temporary)") or a leftover that carries nothing ("( listen)")
_BARE_BRACKET = re.compile(r"[A-Z][A-Z0-9.&-]{1,7}s?|[a-z][a-z-]*")
# a bracket that limits the statement ("the land east of the Mississippi (except Canada and Florida)"): without it
# the statement becomes a false, broader one
_LIMITING = re.compile(
    r"(?:except|excluding|not|other than|apart from|aside from|save|but|only|unless|without|with the exception)\b",
    re.I,
)


# a cross-reference ("(see Sexual differentiation)") points elsewhere and says nothing: cutting it leaves no defect
_CROSS_REFERENCE = re.compile(r"(?:see|cf\.|compare)\b", re.I)


def _named_again(passage: str, m: re.Match) -> bool:
    """True when a word of the bracket comes back after it ("(low coercivity)" before "The low coercivity
    reduces ..."): the bracket introduces a term the rest uses."""
    later = passage[m.end() :].lower()
    words = [w for w in re.findall(r"[A-Za-z]{5,}", m.group(1)) if w.lower() not in STOPWORDS]
    return any(re.search(rf"\b{re.escape(w.lower())}\b", later) for w in words)


def _parallel(passage: str, m: re.Match) -> bool:
    """True when the bracket's sentence holds another bracket opening on the same word ("October-November
    (in Ranchi), December-January (in Dumka)"): cutting one leaves its partner unpaired."""
    first = m.group(1).split()[0].lower() if m.group(1).split() else ""
    sentence = next((s for s in split_sentences(passage) if m.group(0).strip() in s), "")
    others = [o for o in _PAREN.finditer(sentence) if o.group(1) != m.group(1)]
    return any(o.group(1).split() and o.group(1).split()[0].lower() == first for o in others)


# a figure in another unit: "(4,300 mi)", "(about 12 sq ft)", "(−128.6 °F)"
_IN_OTHER_UNITS = re.compile(
    r"(?:about|approximately|approx\.|around|c\.|ca\.|~)?\s*[-−–]?\d[\d,.]*\s*[^\d\s;,)]{1,8}(?:\s+\w{1,8})?"
)
_FIGURE_BEFORE = re.compile(r"\d[\d,.]*\s*[^\d\s(]{0,12}\s*$")


def _conversion(passage: str, m: re.Match) -> bool:
    """True when the bracket restates the figure just before it in other units ("7,000 kilometres (4,300 mi)"):
    cutting it removes nothing, so there is no missing-information defect to speak of."""
    return bool(_IN_OTHER_UNITS.fullmatch(m.group(1).strip()) and _FIGURE_BEFORE.search(passage[: m.start()]))


@lever(MI, tx.LOW, "Parenthetical Excise", CONTEXT)
def parenthetical_excise(item: Item) -> Proposal:
    """A bracketed aside removed; never one that holds an answer, a query word ("(who perform the theme song)"
    ties the answer to the query) or the adjective of a place the query names ("(British English)" for "in the
    uk"), a bare abbreviation or single word ("(AFL)": nothing is lost; "(temporary)": the fact changes), a figure
    in other units, an exception ("(except Canada and Florida)"), a cross-reference ("(see ...)"), part of a quoted
    title, one of a parallel pair, or one whose words come back later."""
    item.need_anchor()
    words = item.query_words()

    def edit(passage: str) -> str:
        spans = [
            m
            for m in _PAREN.finditer(passage)
            if not contains_any(m.group(1), item.answers)
            and not shares_query_word(m.group(1), words)
            and not names_query_place(m.group(1), item.query)
            and not _BARE_BRACKET.fullmatch(m.group(1).strip())
            and not _LIMITING.match(m.group(1).strip())
            and not _CROSS_REFERENCE.match(m.group(1).strip())
            and not inside_quotes(passage, m.start())
            and not _parallel(passage, m)
            and not _named_again(passage, m)
            and not _conversion(passage, m)
        ]
        if not spans:
            return passage
        m = item.rng.choice(spans)
        return rebuild(split_sentences(tidy(passage[: m.start()] + passage[m.end() :])))

    passages = item.edit_signal(edit)
    return Proposal(item.query, passages, "Removed a parenthetical aside that does not bear on the answer.")


_INTRO = re.compile(
    r"^(?:In|On|At|During|After|Before|By|Since|From|Following|With|Under|Within|Despite|Originally|"
    r"Initially|Today|Currently|Later|Eventually|Meanwhile|Traditionally|Historically)\b[^,;()\"]{0,60},\s+(?=[a-zA-Z])"
)


# words of discourse connectives ("In addition,", "At the same time,", "On the other hand,"): cutting a clause made
# only of these removes no information, so there is no missing-information defect to speak of
_CONNECTIVE_WORDS = frozenset(
    """addition fact particular general contrast turn practice short total end first last same time all then other
hand result case effect meantime sum summary conclusion order words course reality theory way least most""".split()
)


# only an opening clause that dates the statement is cut ("In 1990,", "After the war,"): one that sets its scope ("In
# the film version of the song,", "In humans,", "In the U.S. alone,") leaves a broader statement that is not true
_TEMPORAL = re.compile(
    rf"\b(?:1[0-9]{{3}}|20[0-9]{{2}}|\d0s|{at.MONTH_NAMES}|spring|summer|autumn|fall|winter|season|year|years|"
    r"decade|century|centuries|era|age|period|time|times|war|day|days|week|weeks|month|months|night|morning|evening)\b"
    r"|^(?:After|Before|Since|During|Following|Originally|Initially|Today|Currently|Later|Eventually|Traditionally|"
    r"Historically)\b",
    re.I,
)
# a clause that limits how far the statement holds ("In some cases, the employer is required ..."): without it the
# statement becomes a false general one
_HEDGE = re.compile(r"\b(?:some|many|few|several|certain|most|rare|various|numerous|other|such|particular)\b", re.I)
# a comma that does not end the opening clause: the rest goes on with a preposition ("Under this authority the
# president, on 31 January 1934, changed ...") or a list ("In the United Kingdom, Ireland, Australia ... the term")
_NOT_A_CLAUSE_END = re.compile(
    r"(?:on|in|at|by|for|with|from|to|after|before|during|under|of)\b|[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*)*\s*(?:,|and\b)"
)
# the opening clause may hold the pronoun's antecedent ("After Jane Eisner asked the pilots ..., they replied")
_OPENS_ON_PRONOUN = re.compile(r"(?:he|she|they|it|his|her|their|its|this|these|those|such)\b", re.I)


def informative(clause: str) -> bool:
    """Whether an opening clause carries information beyond its first word ("In 1990," yes; "In addition," no)."""
    words = [w.strip(",.'\"").lower() for w in clause.split()[1:]]
    return any(w and w not in STOPWORDS and w not in _CONNECTIVE_WORDS for w in words)


@lever(MI, tx.LOW, "Intro Clause Removal", CONTEXT)
def intro_clause(item: Item) -> Proposal:
    item.need_anchor()
    subject = item.query_words()

    def edit(passage: str) -> str:
        sents = split_sentences(passage)
        options = []
        for i, s in enumerate(sents):
            m = _INTRO.match(s)
            if (
                m
                and informative(m.group(0))
                and _TEMPORAL.search(m.group(0))
                and not contains_any(m.group(0), item.answers)
                and not any(contains(m.group(0), w) for w in subject)
            ):
                rest = s[m.end() :]
                if RANK_WORDS.search(rest) or _OPENS_ON_PRONOUN.match(rest) or _HEDGE.search(m.group(0)):
                    continue
                if _NOT_A_CLAUSE_END.match(rest):
                    continue
                if len(rest.split()) >= 4 and (rest[:1].isupper() or rest.split(" ", 1)[0].lower() in LOWERABLE):
                    options.append((i, capitalise(rest)))
        if not options:
            return passage
        i, new = item.rng.choice(options)
        sents[i] = new
        return rebuild(sents)

    passages = item.edit_signal(edit)
    return Proposal(
        item.query, passages, "Removed a non-essential opening phrase from a sentence; the core statement stays."
    )
