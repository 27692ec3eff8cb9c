"""Questions of one shape about works of one kind: "who sang <song>", "when did <film> come out".

The Ambiguity levers at MEDIUM and HIGH put the passage of another work of the same kind, asked the same
question in the base set, beside the item's own passage, and ask about "this song": two readings, each
answered by its own passage, with different answers. This module finds, for every base row, whether its
query is such a question (its relation, with the work named as the whole subject) and what kind of work
its passage opens on, so that a lever can pick companions from the same base set.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Optional

from refusalbench.perturb.subject import title_core, work_subject
from refusalbench.perturb.text import normalise_space
from refusalbench.rows import as_list

_KIND_NOUN = r"(?:the\s+(?:song|single|track|movie|film|book|novel|poem|album|play|musical|show|series)\s+)?"
# (relation, pattern): the work must be the whole rest of the question, so nothing else in it tells two
# works apart ("who sang it ain't me with selena gomez" is not taken); "who sing ..." is a typo a new
# question would keep
_RELATIONS = (
    ("who sang", re.compile(rf"^who\s+(?:sang|sings|performed|performs|recorded)\s+(?P<s>{_KIND_NOUN}.+?)\??$")),
    ("who wrote", re.compile(rf"^who\s+(?:wrote|writes|composed|penned)\s+(?P<s>{_KIND_NOUN}.+?)\??$")),
    ("who wrote", re.compile(rf"^who\s+is\s+the\s+(?:author|writer)\s+of\s+(?P<s>{_KIND_NOUN}.+?)\??$")),
    ("who directed", re.compile(rf"^who\s+directed\s+(?P<s>{_KIND_NOUN}.+?)\??$")),
    ("when did ... come out", re.compile(rf"^when\s+did\s+(?P<s>{_KIND_NOUN}.+?)\s+come\s+out\??$")),
    ("when was ... released", re.compile(rf"^when\s+was\s+(?P<s>{_KIND_NOUN}.+?)\s+(?:first\s+)?released\??$")),
    ("when was ... published", re.compile(rf"^when\s+was\s+(?P<s>{_KIND_NOUN}.+?)\s+published\??$")),
)


def _folded(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.casefold().replace("'", "").replace("’", "")).strip()


@dataclass(frozen=True)
class Asked:
    """A query that asks one relation of one work, named as the query's whole subject."""

    relation: str
    start: int  # the subject's span in the query ("the song holiday road")
    end: int


def asked_of_work(query: str, title: Optional[str]) -> Optional[Asked]:
    """The relation `query` asks of the work `title` (None unless the rest of the query is that work's name)."""
    if not title:
        return None
    text = normalise_space(query)
    core = _folded(title_core(title))
    for relation, pattern in _RELATIONS:
        m = pattern.match(text.lower())
        if m and _folded(re.sub(rf"^{_KIND_NOUN}", "", m.group("s"))) == core and len(core) >= 3:
            return Asked(relation, m.start("s"), m.end("s"))
    return None


@dataclass(frozen=True)
class WorkQuestion:
    """One base row asking a relation of the work its passage opens on."""

    source_id: str
    relation: str
    kind: str
    title: str
    passage: str
    answers: tuple[str, ...]


def index_works(rows: Iterable[Mapping[str, Any]]) -> dict[str, list[WorkQuestion]]:
    """Single-passage base rows asking a relation of a work, keyed "relation|kind", in source-id order."""
    out: dict[str, list[WorkQuestion]] = {}
    for row in rows:
        context, title = row.get("context"), row.get("title")
        if not isinstance(context, str) or not isinstance(title, str) or not title.strip():
            continue
        passage = normalise_space(context)
        asked = asked_of_work(str(row.get("query") or ""), title)
        subject = work_subject(passage, title) if asked else None
        if asked is None or subject is None:
            continue
        answers = tuple(normalise_space(str(a)) for a in as_list(row.get("answers")) if str(a).strip())
        key = f"{asked.relation}|{subject.kind}"
        out.setdefault(key, []).append(
            WorkQuestion(str(row.get("source_id", "")), asked.relation, subject.kind, title, passage, answers)
        )
    return {k: sorted(v, key=lambda w: w.source_id) for k, v in out.items()}
