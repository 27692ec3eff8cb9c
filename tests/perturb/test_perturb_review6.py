"""Patterns from the sixth blind review: figures are not coarsened into ranges, a coarsened date keeps the verb a
gold answer carries, and a redacted price declines while other amounts stay."""

from __future__ import annotations

import pytest

from refusalbench import taxonomy as tx
from refusalbench.perturb import DistractorPool, NotApplicable, generate_programmatic

COARSER = "Answer Stated One Level Coarser"


def _gen(row, cls, intensity, lever):
    return generate_programmatic(row, cls, intensity, 0, DistractorPool.from_base([row]), lever=lever)


@pytest.mark.parametrize(
    "query, answers, context",
    [
        # "between 600 and 700 stores" still implies a gold "more than 600"
        (
            "how many stores does the chain have",
            ["more than 600", "650"],
            "The grocery chain has 650 stores in the region.",
        ),
        # "between 50,000 and 60,000" implies "over 50,000" and invents an upper bound
        ("how many people live in the town", ["over 50,000", "53,000"], "The town has 53,000 residents today."),
        # "$1.06 trillion" as "between $1 and $2 trillion" is one step only
        ("how much does the country owe the bank", ["$1.06 trillion"], "The country owes the bank $1.06 trillion."),
        # a total the other figures still sum to
        (
            "how much money did the film make",
            ["$2.18 billion"],
            "The film made $1.84 billion at first. A re-release earned $343.6 million more, pushing the money "
            "the film made to $2.18 billion.",
        ),
    ],
)
def test_coarsening_declines_counts_and_amounts(query, answers, context):
    row = {"source_id": "g6", "query": query, "answers": answers, "context": context}
    with pytest.raises(NotApplicable, match="count or amount"):
        _gen(row, tx.GRANULARITY, tx.MEDIUM, COARSER)


def test_coarsened_date_keeps_the_verb_a_gold_answer_carries():
    # the gold "published in 1987" matched whole and its verb went: "It was the 20th century and written by"
    row = {
        "source_id": "g7",
        "query": "when was the first garden book written",
        "answers": ["published in 1987", "1987", "in 1987"],
        "context": "The Little Garden is the first book of the Garden series. It was published in 1987 and written "
        "by Ann Holt and illustrated by Tom Reed. The book is a collection of short stories about the same family.",
    }
    out = _gen(row, tx.GRANULARITY, tx.MEDIUM, COARSER)
    assert "It was published in the 20th century and written by Ann Holt" in out["perturbed_context"]
    assert "1987" not in out["perturbed_context"]


SALARY = {
    "source_id": "p6",
    "query": "what is the salary of the chief judge",
    "answers": ["$205,700"],
}


def test_price_redacted_masks_the_only_amount():
    row = dict(
        SALARY,
        context="The chief judge is appointed for life and earns the salary set for that level (currently $205,700).",
    )
    out = _gen(row, tx.MISSING_INFO, tx.MEDIUM, "Price Redacted")
    assert "(currently an unspecified amount)" in out["perturbed_context"]


@pytest.mark.parametrize(
    "context",
    [
        # the parts still sum to the total
        "The judge earned a base pay of $180,000 and an allowance of $25,700, a salary of $205,700 in all.",
        # a bare figure in millions stays beside the masked amount
        "The court's budget is 4.5 million dollars. The chief judge earns $205,700 a year.",
        "The court spends 4.5 million on salaries. The chief judge earns $205,700 a year.",
    ],
)
def test_price_redacted_declines_while_another_amount_stays(context):
    with pytest.raises(NotApplicable, match="another amount"):
        _gen(dict(SALARY, context=context), tx.MISSING_INFO, tx.MEDIUM, "Price Redacted")


# -- Count Redacted: the count a "how many" question asks for, masked where nothing else gives it back ----------

COUNT = {"source_id": "c6", "query": "how many levels does the tower have"}


@pytest.mark.parametrize(
    "answers, context, expected",
    [
        (
            ["three"],
            "The tower is built of iron. It has three levels open to visitors, reached by stairs or lifts.",
            "It has an unspecified number of levels open to visitors",
        ),
        # the hedge goes with the figure, the noun of an answer "more than 300 levels" stays for the stand-in
        (
            ["300", "more than 300 levels"],
            "The tower is built of iron. It has more than 300 levels, reached by stairs or lifts.",
            "It has an unspecified number of levels, reached",
        ),
        # a single year stays where the count is not one of events dated a year apiece
        (
            ["three"],
            "The tower was finished in 1889. Three levels are open to visitors, reached by stairs or lifts.",
            "An unspecified number of levels are open to visitors",
        ),
    ],
)
def test_count_redacted_masks_the_count(answers, context, expected):
    out = _gen(dict(COUNT, answers=answers, context=context), tx.MISSING_INFO, tx.MEDIUM, "Count Redacted")
    assert expected in out["perturbed_context"]


@pytest.mark.parametrize(
    "query, context, why",
    [
        # another figure or number word could give the count back (a sum of parts)
        (None, "The tower has three levels: two are open to visitors and the top one is closed.", "another figure"),
        # the ordinal of what the query counts: the top level is the third
        (None, "The tower has three levels. The third level is the highest and is reached by lift.", "ordinal"),
        # a count after a determiner: "its an unspecified number of levels"
        (None, "The tower is built of iron, and its three levels are reached by stairs.", "determiner"),
        # no plural noun for the stand-in to count
        (None, "The tower is built of iron. The number of its levels is three, all reached by stairs.", "plural noun"),
        # a list of three or more names can be counted
        (None, "The tower has three levels, named Base, Middle, and Summit, all reached by stairs.", "lists"),
        # years give back a count of events dated a year apiece
        (
            "how many times has the tower been repainted",
            "The tower has been repainted three times, in 1900, 1950 and 2000, by the same firm.",
            "years|lists",
        ),
    ],
)
def test_count_redacted_declines_what_could_give_the_count_back(query, context, why):
    row = dict(COUNT, answers=["three"], context=context, query=query or COUNT["query"])
    with pytest.raises(NotApplicable, match=why):
        _gen(row, tx.MISSING_INFO, tx.MEDIUM, "Count Redacted")
