"""P-EpistemicMismatch levers: the query asks for an opinion, evaluation or prediction, or the
passage offers only opinion where the query asks for a fact.

Query-side levers (single passage only; the multi-passage target is the context) embed the
original question; context-side levers recast the answer sentences as opinion.
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb.base import CONTEXT, QUERY, Item, NotApplicable, Proposal, complete, embeddable, lever, rebuild, sentences_with
from refusalbench.perturb.levers_ambiguity import pronoun_query, subject_span, title_core
from refusalbench.perturb.text import (
    as_question, contains, contains_any, embed, end_sentence, lower_first, question_body, split_sentences,
)

EP = tx.EPISTEMIC

OPINION_MEDIUM = (
    "Some commentators hold the view that {s}, though they do not say by what standard.",
    "In the opinion of some reviewers, judged by criteria they leave unstated, {s}.",
)
OPINION_HIGH = (
    "Purely as a matter of personal taste, some people like to imagine that {s}.",
    "In a daydream shared by a few fans, {s}.",
)
MILD = ("Notably, {s}.", "Perhaps unsurprisingly, {s}.", "Remarkably, {s}.")
IN_YOUR_VIEW = ("In your view, {q}", "In your opinion, {q}", "As you see it, {q}")


def _quoted(item: Item) -> str:
    return f'"{as_question(question_body(item.query))}"'


# -- query-side (single passage) ---------------------------------------------------------------


@lever(EP, tx.HIGH, "Most Beautiful Aspect", QUERY)
def most_beautiful(item: Item) -> Proposal:
    item.need_anchor()
    query = f"What is the most beautiful aspect of the answer to this question: {_quoted(item)}"
    return Proposal(query, list(item.passages), "Asked for a purely aesthetic superlative that no fact can ground.")


@lever(EP, tx.HIGH, "Historical Counterfactual Chain", QUERY)
def counterfactual_chain(item: Item) -> Proposal:
    item.need_anchor()
    query = (f"Had history taken a different turn a century earlier, what would the answer to this question be, "
             f"and what would have followed from that: {_quoted(item)}")
    return Proposal(query, list(item.passages), "Asked for a long alternate-history chain that the passage cannot ground.")


@lever(EP, tx.MEDIUM, "Forecast without Model", QUERY)
def forecast(item: Item) -> Proposal:
    item.need_anchor()
    query = f"Fifty years from now, what will the answer to this question be: {_quoted(item)}"
    return Proposal(query, list(item.passages), "Asked for a forecast; the passage gives no basis for predicting the future.")


@lever(EP, tx.MEDIUM, "Normative 'Should' from Facts", QUERY)
def normative_should(item: Item) -> Proposal:
    item.need_anchor()
    query = f"By the standards that ought to apply, should the answer to this question have been different: {_quoted(item)}"
    return Proposal(query, list(item.passages), "Asked what ought to have been; the passage gives facts but no standard.")


_LABEL = re.compile(r"\b(?:is|was|became|remains|are|were) (?:a|an|the) (?:[\w-]+ ){0,2}?(?P<label>major|popular|famous|"
                    r"successful|acclaimed|influential|best-selling|landmark|classic|iconic|prominent|leading|notable)"
                    r"(?P<rest>(?: [a-z][\w-]*){1,3})")
HEAD_NOUNS = frozenset("""song single track hit film movie novel book poem play musical album band group series show sitcom
battle war fire earthquake storm event festival tournament race game landmark monument building bridge text treatise work
painting city port river company brand ballad anthem""".split())


@lever(EP, tx.LOW, "Minor vs Major (Definitional)", QUERY)
def labelled_major(item: Item) -> Proposal:
    """Ask whether the subject is what the passage itself calls it ("a popular song"), then the question."""
    item.need_anchor()
    if item.multi or not item.title:
        raise NotApplicable("the item has no titled single passage")
    core = title_core(item.title)
    sents = [s for s in split_sentences(item.passages[0]) if contains(s, core)]
    m = next((m for s in sents[:2] for m in [_LABEL.search(s)] if m), None)
    if m is None:
        raise NotApplicable("the passage does not label its subject as major, popular, famous, ...")
    words = m.group("rest").split()
    ends = [k for k, w in enumerate(words[:2]) if w in HEAD_NOUNS]
    if not ends:
        raise NotApplicable("the label is not followed by a plain kind of thing (song, film, battle, ...)")
    head = words[: ends[0] + 1]
    label = f"{m.group('label')} {' '.join(head)}"
    if contains_any(label, item.answers):
        raise NotApplicable("the label states the answer")
    rest = pronoun_query(item.query, item.title, "it")
    span = subject_span(item.query, item.title)
    if rest is None or span is None:
        raise NotApplicable("the query does not name the passage's subject where a pronoun could stand")
    name = item.query[span[0]:span[1]].removesuffix("'s")
    article = "an" if label[:1] in "aeiou" else "a"
    query = as_question(f"Was {name} {article} {label}, and {lower_first(question_body(rest))}")
    return Proposal(query, list(item.passages),
                    f"Asked whether the subject is {article} {label}, which the passage itself says, before the question.")


@lever(EP, tx.LOW, "Opinion Frame on a Settled Fact", QUERY)
def opinion_frame(item: Item) -> Proposal:
    item.need_anchor()
    query = as_question(item.rng.choice(IN_YOUR_VIEW).format(q=lower_first(question_body(item.query))))
    return Proposal(query, list(item.passages), "Asked for the reader's view of a fact that the passage settles outright.")


# -- context-side ------------------------------------------------------------------------------


def _recast(item: Item, templates: tuple[str, ...], every: bool) -> list[str]:
    """Answer sentences rewritten into a template (all of them, or only the first when `every` is False)."""
    item.need_anchor()

    def edit(passage: str) -> str:
        sents = split_sentences(passage)
        hits = sentences_with(sents, item.answers)
        if not hits:
            return passage
        for k in hits if every else hits[:1]:
            if not complete(sents[k]) or not embeddable(sents[k]):
                raise NotApplicable("an answer sentence is cut off by the passage's edge")
            sents[k] = end_sentence(item.rng.choice(templates).format(s=embed(sents[k], item.vocabulary)))
        return rebuild(sents)

    return item.edit_signal(edit)


@lever(EP, tx.MEDIUM, "Fact Recast as Unsupported Opinion", CONTEXT)
def recast_opinion(item: Item) -> Proposal:
    return Proposal(item.query, _recast(item, OPINION_MEDIUM, True),
                    "Every statement of the answer is now an opinion judged by an unstated standard; no objective statement remains.")


@lever(EP, tx.HIGH, "Fact Recast as Personal Taste", CONTEXT)
def recast_taste(item: Item) -> Proposal:
    return Proposal(item.query, _recast(item, OPINION_HIGH, True),
                    "Every statement of the answer is now a matter of personal taste or imagination, with no factual grounding.")


@lever(EP, tx.LOW, "Mild Evaluative Aside", CONTEXT)
def mild_aside(item: Item) -> Proposal:
    passages = _recast(item, MILD, False)
    if not any(contains_any(p, item.answers) for p in passages):
        raise NotApplicable("the answer was lost")
    return Proposal(item.query, passages, "Added a mildly evaluative word to the answer sentence; the fact itself still settles the query.")
