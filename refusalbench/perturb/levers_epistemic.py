"""P-EpistemicMismatch levers: the query asks for an opinion, evaluation or prediction.

All levers edit the query and embed the original question, so they apply to single-passage items
only (the multi-passage target is the context). Recasting the passage's facts as opinion by template
is not done: the question stays factual and the fact stays readable, so no mismatch results; the
multi-passage cells are left to the LLM generators.
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb.base import QUERY, Item, NotApplicable, Proposal, lever
from refusalbench.perturb.levers_ambiguity import pronoun_query, subject_span, title_core
from refusalbench.perturb.text import (
    as_question,
    contains,
    contains_any,
    lower_first,
    question_body,
    split_sentences,
)

EP = tx.EPISTEMIC

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
    query = (
        f"Had history taken a different turn a century earlier, what would the answer to this question be, "
        f"and what would have followed from that: {_quoted(item)}"
    )
    return Proposal(
        query, list(item.passages), "Asked for a long alternate-history chain that the passage cannot ground."
    )


@lever(EP, tx.MEDIUM, "Forecast without Model", QUERY)
def forecast(item: Item) -> Proposal:
    item.need_anchor()
    query = f"Fifty years from now, what will the answer to this question be: {_quoted(item)}"
    return Proposal(
        query, list(item.passages), "Asked for a forecast; the passage gives no basis for predicting the future."
    )


@lever(EP, tx.MEDIUM, "Normative 'Should' from Facts", QUERY)
def normative_should(item: Item) -> Proposal:
    item.need_anchor()
    query = (
        f"By the standards that ought to apply, should the answer to this question have been different: {_quoted(item)}"
    )
    return Proposal(
        query, list(item.passages), "Asked what ought to have been; the passage gives facts but no standard."
    )


_LABEL = re.compile(
    r"\b(?:is|was|became|remains|are|were) (?:a|an|the) (?:[\w-]+ ){0,2}?(?P<label>major|popular|famous|"
    r"successful|acclaimed|influential|best-selling|landmark|classic|iconic|prominent|leading|notable)"
    r"(?P<rest>(?: [a-z][\w-]*){1,3})"
)
HEAD_NOUNS = frozenset(
    """song single track hit film movie novel book poem play musical album band group series show sitcom
battle war fire earthquake storm event festival tournament race game landmark monument building bridge
text treatise work painting city port river company brand ballad anthem""".split()
)


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
    name = item.query[span[0] : span[1]].removesuffix("'s")
    article = "an" if label[:1] in "aeiou" else "a"
    query = as_question(f"Was {name} {article} {label}, and {lower_first(question_body(rest))}")
    return Proposal(
        query,
        list(item.passages),
        f"Asked whether the subject is {article} {label}, which the passage itself says, before the question.",
    )


@lever(EP, tx.LOW, "Opinion Frame on a Settled Fact", QUERY)
def opinion_frame(item: Item) -> Proposal:
    item.need_anchor()
    query = as_question(item.rng.choice(IN_YOUR_VIEW).format(q=lower_first(question_body(item.query))))
    return Proposal(
        query, list(item.passages), "Asked for the reader's view of a fact that the passage settles outright."
    )
