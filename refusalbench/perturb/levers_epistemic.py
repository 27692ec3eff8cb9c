"""P-EpistemicMismatch levers: the query asks for an opinion, evaluation or prediction.

MEDIUM and HIGH ask a new question about the passage's own subject, only where the passage opens by
saying what kind of thing it is (a song, a film, a novel, a bridge: `perturb.subject`), so the
judgement asked for makes sense for it: whether it is better than others of its kind or will still be
known in fifty years (MEDIUM: a standard or a forecast the passage does not give), its most beautiful
aspect or an alternate history without it (HIGH: no passage could ground them), each in a few wordings
drawn by the subject. LOW asks whether the
subject is what the passage itself calls it ("a popular song") before the original question.
Fixed frames around the original question ("In your view, ...", "Fifty years from now, what will the
answer to this question be: ...") are not used: reviewers found the defect nominal or the wrapper
contrived. All levers edit the query of a titled single passage; the multi-passage cells (whose target
is the context) are left to the LLM generators.
"""

from __future__ import annotations

import re

from refusalbench import taxonomy as tx
from refusalbench.perturb.base import QUERY, Item, NotApplicable, Proposal, lever, wording
from refusalbench.perturb.levers_ambiguity import KIND_NOUNS, pronoun_query, subject_span
from refusalbench.perturb.subject import BUILT, WORKS, Subject, quoted, title_core, work_subject
from refusalbench.perturb.text import (
    as_question,
    contains,
    contains_any,
    lower_first,
    question_body,
    split_sentences,
)

EP = tx.EPISTEMIC
CREATED = {
    "song": "been written",
    "novel": "been written",
    "poem": "been written",
    "play": "been written",
    "musical": "been written",
    "album": "been recorded",
    "painting": "been painted",
}


def _subject(item: Item, kinds: frozenset[str]) -> Subject:
    if item.multi or not item.title:
        raise NotApplicable("the item has no titled single passage")
    subject = work_subject(item.passages[0], item.title)
    if subject is None or subject.kind not in kinds:
        raise NotApplicable("the passage does not open by saying what kind of work or building its subject is")
    if contains_any(subject.name, item.answers) or any(contains(a, subject.name) for a in item.answers):
        raise NotApplicable("the subject's name is (part of) the answer")
    return subject


# the passage's own judgement of its subject ("one of the most significant novels", "acclaimed", "regarded as",
# "a popular song", "achieved success"): a question of quality or beauty is then partly grounded by the passage
_JUDGED = re.compile(
    r"\b(?:one of the (?:most|best|greatest|finest|top)|best|greatest|finest|acclaimed|regarded as|considered|"
    r"cited as|praised|hailed|masterpiece|beautiful|lauded|celebrated|renowned|popular|successful|success)\b"
    # an award for one of its aspects ("won a BAFTA for its photography", the fifty-fifth review's R057)
    r"|\b(?:won|wins|received|earned|awarded|awards?|prizes?)\b[^.;]{0,60}?\bfor\s+(?:its|their)\b",
    re.I,
)


def _not_judged(item: Item) -> None:
    m = _JUDGED.search(" ".join(item.passages))
    if m:
        raise NotApplicable(f"the passage already judges its subject ({m.group(0)!r}): the question is partly grounded")


# each lever asks its one question in a few wordings, drawn by the subject (`wording`), so that no single question
# form marks the refusals (a benchmark whose unanswerable items all read alike can be learnt from the wording)
_BEAUTY = (
    "What is the most beautiful aspect of {s}?",
    "What is the most beautiful thing about {s}?",
    "Which part of {s} is the most beautiful?",
)
_COUNTERFACTUAL = (
    "If {s} had never {verb}, how would {field} have developed since then?",
    "How would {field} have developed if {s} had never {verb}?",
    "Had {s} never {verb}, how would {field} look today?",
)
_FORECAST = (
    "Will {s} still be widely known fifty years from now?",
    "Will {s} still be remembered a century from now?",
    "Fifty years from now, will {s} still be widely known?",
)
_RANKING = (
    "Is {s} better than the other {kinds} {when}?",
    "Does {s} rank above the other {kinds} {when}?",
)
# a chart position ("reached number one", "peaked at number 12") answers a ranking question as a fact: the forty-first
# review's R004 and R021 ("rank above the other songs of its time" beside "number two on the Italian singles chart")
_CHART = re.compile(
    r"\b(?:number\s+(?:one|two|three|four|five|six|seven|eight|nine|ten|\d+)|No\.\s?\d+|#\d+|top\s+(?:ten|five|"
    r"forty|\d+)|topped|peaked|charts?)\b",
    re.I,
)


@lever(EP, tx.HIGH, "Most Beautiful Aspect", QUERY)
def most_beautiful(item: Item) -> Proposal:
    subject = _subject(item, WORKS | BUILT)
    _not_judged(item)
    query = wording(_BEAUTY, subject.name).format(s=quoted(subject))
    return Proposal(
        query, list(item.passages), f"Asked for the most beautiful aspect of the {subject.kind}: taste, not fact."
    )


def _field(item: Item, subject: Subject) -> str:
    """What the subject's absence would have changed, in the passage's own word for its settlement: "the town
    around it" where the passage calls the place a town (or village) and never a city (the seventy-seventh
    review's R004 asked about "the city around" a cathedral in a town)."""
    text = " ".join(item.passages)
    if subject.field == "the city around it" and not re.search(r"\bcity\b", text, re.I):
        for place in ("town", "village"):
            if re.search(rf"\b{place}\b", text, re.I):
                return f"the {place} around it"
    return subject.field


@lever(EP, tx.HIGH, "Historical Counterfactual Chain", QUERY)
def counterfactual_chain(item: Item) -> Proposal:
    subject = _subject(item, WORKS | BUILT)
    verb = "been built" if subject.kind in BUILT else CREATED.get(subject.kind, "been made")
    query = wording(_COUNTERFACTUAL, subject.name).format(s=quoted(subject), verb=verb, field=_field(item, subject))
    return Proposal(
        query, list(item.passages), f"Asked for an alternate history without the {subject.kind}; nothing can ground it."
    )


@lever(EP, tx.MEDIUM, "Forecast without Model", QUERY)
def forecast(item: Item) -> Proposal:
    subject = _subject(item, WORKS | BUILT)
    query = wording(_FORECAST, subject.name).format(s=quoted(subject))
    return Proposal(
        query,
        list(item.passages),
        "Asked for a forecast of the subject's standing; the passage gives no basis for one.",
    )


# a ranking the passage states ("one of the highest-grossing films of 1996", "the best-selling novel of the year")
# reads as the ranking asked, missing only its exact place: the forty-ninth review's R066
_RANKED = re.compile(
    r"\b(?:highest|best|most|top|biggest|largest|fastest|lowest)[- ](?:grossing|selling|watched|viewed|streamed|"
    r"attended|rated|read|played|downloaded|earning|paid)\b|\bone\s+of\s+the\s+(?:highest|best|most|biggest|largest|"
    r"greatest|top)\b",
    re.I,
)


@lever(EP, tx.MEDIUM, "Quality Ranking without Benchmark", QUERY)
def quality_ranking(item: Item) -> Proposal:
    subject = _subject(item, WORKS)
    _not_judged(item)
    text = " ".join(item.passages)
    if _CHART.search(text):
        raise NotApplicable("the passage gives a chart position, which answers a ranking question as a fact")
    ranked = _RANKED.search(text)
    if ranked:
        raise NotApplicable(f"the passage ranks the work ({ranked.group(0)!r}), which a ranking question would ask")
    when = f"of {subject.year}" if subject.year else "of its time"
    kinds = subject.kind if subject.kind.endswith("s") else subject.kind + "s"  # "series", not "seriess"
    query = wording(_RANKING, subject.name).format(s=quoted(subject), kinds=kinds, when=when)
    return Proposal(
        query,
        list(item.passages),
        f"Asked whether the {subject.kind} is better than others; the passage gives no standard to rank them by.",
    )


_LABEL = re.compile(
    # "popular music" is a genre, not a judgement ("a Brazilian popular music song": the eighty-second review's R100)
    r"\b(?:is|was|became|remains|are|were) (?:a|an|the) (?:[\w-]+ ){0,2}?(?P<label>major|popular(?! music)|famous|"
    r"successful|acclaimed|influential|best-selling|landmark|classic|iconic|prominent|leading|notable|well-known|"
    r"best-known|celebrated|renowned|award-winning|hit|important|significant|controversial|beloved|legendary)"
    r"(?P<rest>(?: [a-z][\w-]*){1,3})"
)
HEAD_NOUNS = frozenset(
    """song single track hit film movie novel book poem play musical album band group series show sitcom
battle war fire earthquake storm event festival tournament race game landmark monument building bridge
text treatise work painting city port river company brand ballad anthem""".split()
)


_CHART_TOP = re.compile(
    r"\b(?:topped|reached (?:number|No\.) (?:one|1)\b|"
    r"(?:peaked|went|rose|climbed) (?:at|to) (?:number|No\.) (?:one|1)\b|"
    r"a number[- ]one (?:hit|single|song|album)|hit number one)",
    re.I,
)


def _label(item: Item) -> tuple[str, str]:
    """(label, what the passage says that settles it): the passage's own word ("a popular song"), or "a hit"
    for a song or album the passage says reached number one."""
    core = title_core(item.title)
    sents = [s for s in split_sentences(item.passages[0]) if contains(s, core)]
    m = next((m for s in sents[:2] for m in [_LABEL.search(s)] if m), None)
    if m is not None:
        words = m.group("rest").split()
        ends = [k for k, w in enumerate(words[:2]) if w in HEAD_NOUNS]
        if ends:
            return f"{m.group('label')} {' '.join(words[: ends[0] + 1])}", "the passage itself says so"
    subject = work_subject(item.passages[0], item.title)
    hit = _CHART_TOP.search(item.passages[0])
    if subject is not None and subject.kind in ("song", "album") and hit:
        return f"hit {subject.kind}", f"the passage says it {hit.group(0)}"
    raise NotApplicable("the passage neither labels its subject (major, popular, ...) nor says it reached number one")


@lever(EP, tx.LOW, "Minor vs Major (Definitional)", QUERY)
def labelled_major(item: Item) -> Proposal:
    """Ask whether the subject is what the passage's facts make it ("a popular song", "a hit song"), then the
    original question, which the passage still answers."""
    item.need_anchor()
    if item.multi or not item.title:
        raise NotApplicable("the item has no titled single passage")
    label, why = _label(item)
    if contains_any(label, item.answers):
        raise NotApplicable("the label states the answer")
    rest = pronoun_query(item.query, item.title, "it")
    span = subject_span(item.query, item.title)
    if rest is None or span is None:
        raise NotApplicable("the query does not name the passage's subject where a pronoun could stand")
    name = item.query[span[0] : span[1]].removesuffix("'s")
    name = re.sub(rf"^(?:the\s+)?(?:{'|'.join(KIND_NOUNS)})\s+", "", name, flags=re.I)  # not "the song X a hit song"
    subject = work_subject(item.passages[0], item.title)
    if subject is not None:
        name = f'"{subject.name}"'  # the title as the passage writes it, not the query's lower case
    article = "an" if label[:1] in "aeiou" else "a"
    query = as_question(f"Was {name} {article} {label}, and {lower_first(question_body(rest))}")
    return Proposal(
        query,
        list(item.passages),
        f"Asked whether the subject is {article} {label} ({why}) before the original question.",
    )
