"""Seeded same-type distractor values, drawn from the answers of the other questions of a base set.

`DistractorPool.from_base(base_table)` types every answer of every base question (with its own
question) and keeps the passages, so a lever can ask for "another date", "another person" or "a
passage on an unrelated topic". Dates, years and numbers are re-written in the anchor answer's
own format ("May 18, 2018" → "June 2, 2016"); when the pool has no usable value of a numeric type
a nearby value is derived from the anchor itself. Every draw goes through the caller's seeded RNG
over a sorted candidate list, so it does not depend on the order of the base table.
"""

from __future__ import annotations

import functools
import json
import logging
import random
import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence

from refusalbench.perturb import answer_types as at
from refusalbench.perturb.text import contains, normalise_space, strip_stop
from refusalbench.perturb.work_index import WorkQuestion, index_works

log = logging.getLogger(__name__)

FUNCTION_WORDS = frozenset("the a an in on at by of to from for with under over beneath above near till until".split())
STOPWORDS = FUNCTION_WORDS | frozenset(
    """who whom whose what which when where why how is are was were be been do does did has have had will
    would can could the this that these those and or not as it its his her their they he she there here
    name first last new most many much one two get got come came make made""".split()
)


NEAR_YEARS = 10  # a year distractor is at most this far from the answer


def _rows(base_table: Any) -> list[Mapping[str, Any]]:
    if hasattr(base_table, "to_dict"):
        return list(base_table.to_dict(orient="records"))
    return list(base_table)


def _listify(value: Any) -> list:
    if value is None:
        return []
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, str):
        return [value]
    return list(value)


def shape_key(answer: str) -> str:
    """A grammatical shape ("at|C" for "at IBM"), so an 'other' answer is swapped only for one that reads alike.

    A leading function word is kept; the remaining words (function words dropped) become C
    (capitalised), d (has a digit) or l, with runs collapsed: "Return of the Jedi" → "|C".
    """
    tokens = answer.split()
    if not tokens:
        return ""
    lead = tokens[0].lower() if tokens[0].lower() in FUNCTION_WORDS else ""
    rest = [t for t in (tokens[1:] if lead else tokens) if t.lower() not in FUNCTION_WORDS | {"and", "&"}]
    kinds: list[str] = []
    for t in rest:
        kind = "d" if any(ch.isdigit() for ch in t) else "C" if t[:1].isupper() else "l"
        if not kinds or kinds[-1] != kind:
            kinds.append(kind)
    return lead + "|" + " ".join(kinds)


_AUX = frozenset("is are was were does do did has have had can will the a an".split())


def _specific(qkey: str) -> bool:
    """Question openings whose common-noun answers are alike ("where is", "what type"), unlike "what is"."""
    words = qkey.split()
    return len(words) == 2 and (words[0] in ("where", "which", "how") or (words[0] == "what" and words[1] not in _AUX))


def question_key(query: str, words: int = 2) -> str:
    """The question's opening words ("who sang", "where was"), used to prefer like-for-like distractors."""
    return " ".join(re.findall(r"[a-z']+", query.lower())[:words])


def content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 2 and w not in STOPWORDS}


@dataclass
class DistractorPool:
    """Typed answer values of a base set, with what their passages say about them."""

    values: dict[str, list[str]] = field(default_factory=dict)  # type -> sorted distinct answers
    by_question: dict[str, list[str]] = field(default_factory=dict)  # "type|question key" -> answers
    by_topic: dict[str, list[str]] = field(default_factory=dict)  # "type|content word of the question" -> answers
    kinds: dict[str, str] = field(default_factory=dict)  # answer -> "individual" | "group" (people, from its passage)
    articles: dict[str, bool] = field(default_factory=dict)  # answer -> whether its passage writes "the" before it
    works: dict[str, list[WorkQuestion]] = field(default_factory=dict)  # "relation|kind" -> rows (work_index)

    @classmethod
    def from_base(cls, base_table: Any) -> DistractorPool:
        """From a base table (DataFrame or iterable of row dicts with query/answers/context|passages)."""
        values: dict[str, set[str]] = {t: set() for t in at.TYPES}
        by_question: dict[str, set[str]] = {}
        by_topic: dict[str, set[str]] = {}
        kinds: dict[str, str] = {}
        articles: dict[str, bool] = {}
        rows = _rows(base_table)
        for row in rows:
            query = str(row.get("query") or row.get("question") or "")
            texts = [normalise_space(str(row["context"]))] if row.get("context") else []
            texts += [normalise_space(str(p)) for p in _listify(row.get("passages")) if str(p).strip()]
            topic = content_words(query)
            for answer in _listify(row.get("answers")):
                answer = strip_stop(normalise_space(str(answer)))  # "2005." → "2005": the stop was its sentence's
                if not answer or len(answer) > 80 or not at.well_formed(answer):
                    continue
                atype = at.detect(answer, query)
                form = in_text_form(answer, texts)
                if (
                    atype in (at.PERSON, at.PLACE, at.ORGANISATION)
                    and form is not None
                    and not name_part(form)[:1].isupper()
                ):
                    continue  # the passage writes it as a common noun ("lead"), not a name
                if atype == at.OTHER and form is not None and form[:1].islower() and answer[:1].isupper():
                    answer = form  # a capitalised list entry that the passage writes in lower case
                if atype == at.PERSON:
                    kind = person_kind(answer, texts)
                    if kind is None:
                        continue  # not clearly a person or a group of performers
                    kinds[answer] = kind
                if atype in (at.PERSON, at.PLACE, at.ORGANISATION):
                    article = takes_article(answer, texts)
                    if article is not None:
                        articles[answer] = article
                values[atype].add(answer)
                by_question.setdefault(f"{atype}|{question_key(query)}", set()).add(answer)
                by_question.setdefault(f"{atype}|{question_key(query, 1)}", set()).add(answer)
                for w in topic:
                    by_topic.setdefault(f"{atype}|{w}", set()).add(answer)
        return cls(
            {t: sorted(v) for t, v in values.items()},
            {k: sorted(v) for k, v in by_question.items()},
            {k: sorted(v) for k, v in by_topic.items()},
            kinds,
            articles,
            index_works(rows),
        )

    @classmethod
    def bundled(cls) -> DistractorPool:
        """The pool of the package's bundled NQ sample (used when the caller passes no pool)."""
        return _bundled_pool()

    def __len__(self) -> int:
        return sum(len(v) for v in self.values.values())

    def pick(
        self,
        atype: str,
        anchor: str,
        rng: random.Random,
        answers: Sequence[str],
        avoid: Sequence[str] = (),
        query: str = "",
    ) -> Optional[str]:
        """A value of `atype` that differs from every answer and occurs in none of `avoid`.

        For dates, years and numbers the value is written in `anchor`'s format. None when the
        pool (and, for numeric types, the anchor) offers nothing usable.
        """
        if atype == at.DATE:
            return self._pick_date(anchor, rng, answers, avoid)
        if atype == at.YEAR:
            return self._pick_year(anchor, rng, answers, avoid)
        if atype == at.NUMBER:
            return self._pick_number(anchor, rng, answers, avoid)
        form = in_text_form(anchor, avoid) or anchor
        key = shape_key(form)
        qkey = question_key(query)
        alike = self.by_question.get(f"{atype}|{qkey}", []) if query else []
        if atype == at.OTHER and not re.search(r"[Cd]", key.split("|")[1]):
            # a common-noun answer ("altitude") is swapped only within a specific question kind
            return (
                _draw(alike, rng, lambda c: shape_key(c) == key and _usable(c, answers, avoid))
                if _specific(qkey)
                else None
            )
        if atype in (at.PERSON, at.PLACE, at.ORGANISATION) and not name_part(form)[:1].isupper():
            return None  # the passage uses the answer as a common noun: no name fits in its place
        kind = person_kind(anchor, avoid) if atype == at.PERSON else None
        if atype == at.PERSON and kind is None:
            return None
        words = len(_name_words(anchor))

        def ok(c: str) -> bool:
            if atype == at.OTHER and shape_key(c) != key:
                return False
            if atype == at.PERSON and (self.kinds.get(c) != kind or (words > 1 and len(_name_words(c)) < 2)):
                return False
            return _usable(c, answers, avoid)

        # answers to the questions sharing most content words with this one first, then answers to like questions
        shared: dict[str, float] = {}  # weighted by how rare the shared word is ("nba" over "won")
        for w in content_words(query):
            group = self.by_topic.get(f"{atype}|{w}", [])
            for c in group:
                shared[c] = round(shared.get(c, 0.0) + 1.0 / len(group), 6)
        tiers = [sorted(c for c, n in shared.items() if n == k) for k in sorted(set(shared.values()), reverse=True)]
        if atype == at.OTHER:  # a mixed bag: stay with answers to questions that open the same way
            first = set(self.by_question.get(f"{atype}|{question_key(query, 1)}", []) if query else [])
            tiers = [[c for c in tier if c in first] for tier in tiers] + [alike, sorted(first)]
        elif query:
            tiers.append(alike)
        else:  # no question to match: any value of the type
            tiers = [self.values.get(atype, [])]
        return next((v for tier in tiers if tier and (v := _draw(tier, rng, ok))), None)

    def takes_article(self, value: str) -> Optional[bool]:
        """Whether `value` is written after "the" in its own passage (None when unknown)."""
        return self.articles.get(value)

    # -- numeric types ---------------------------------------------------------------------------

    def _pick_year(
        self, anchor: str, rng: random.Random, answers: Sequence[str], avoid: Sequence[str]
    ) -> Optional[str]:
        year = at.parse_year(anchor)
        if year is None:
            return None
        pool_years = sorted(
            {y for v in self.values.get(at.YEAR, []) if (y := at.parse_year(v)) and 0 < abs(y - year) <= NEAR_YEARS}
        )
        options = [_swap_year(anchor, year, y) for y in pool_years]
        options += [_swap_year(anchor, year, year + d) for d in (-7, -5, -3, -2, 2, 3, 4, 6) if year + d <= 2030]
        return _first_usable(options, len(pool_years), rng, answers, avoid)

    def _pick_date(
        self, anchor: str, rng: random.Random, answers: Sequence[str], avoid: Sequence[str]
    ) -> Optional[str]:
        date = at.parse_date(anchor)
        if date is None:
            return None
        parsed = [d for v in self.values.get(at.DATE, []) if (d := at.parse_date(v))]
        options = []
        for d in parsed:
            day = d.day or date.day or 1
            # a rival date stays within a few years of the real one (not a 1923 release for a 2017 film)
            # ... and never in the same year, which a clash must contest too
            near = d.year and date.year and 0 < abs(d.year - date.year) <= NEAR_YEARS // 3
            year = d.year if near else (date.year + (1 if d.month % 2 else -1) if date.year else None)
            options.append(at.DateValue(d.month, min(day, 28), year, date.form).format())
        n_pool = len(options)
        for dm, dd, dy in ((1, 3, 1), (-2, 5, 1), (4, -9, -1), (0, 11, 2), (-5, 2, -3), (6, 0, -2)):
            month = (date.month - 1 + dm) % 12 + 1
            day = min(max((date.day or 10) + dd, 1), 28)
            year = date.year + dy if date.year else None
            options.append(at.DateValue(month, day, year, date.form).format())
        return _first_usable(options, n_pool, rng, answers, avoid)

    def _pick_number(
        self, anchor: str, rng: random.Random, answers: Sequence[str], avoid: Sequence[str]
    ) -> Optional[str]:
        num = at.parse_number(anchor)
        if num is None or num.value <= 0:
            return None
        pool_values = sorted(
            {
                n.value
                for v in self.values.get(at.NUMBER, [])
                if (n := at.parse_number(v))
                and n.value > 0
                and n.value != num.value
                and 0.4 <= n.value / num.value <= 2.5
            }
        )
        options = [with_value(num, v) for v in pool_values]
        n_pool = len(options)
        options += [with_value(num, num.value * f) for f in (1.5, 0.6, 2.0, 0.75, 1.3, 3.0)]
        taken = {n.magnitude for a in answers if (n := at.parse_number(str(a)))}
        options = [o if (p := at.parse_number(o)) and p.magnitude not in taken else "" for o in options]
        return _first_usable(options, n_pool, rng, answers, avoid)


def name_part(phrase: str) -> str:
    """The phrase without its leading function words ("in the Near East" → "Near East")."""
    words = phrase.split()
    while len(words) > 1 and words[0].lower() in FUNCTION_WORDS:
        words.pop(0)
    return " ".join(words)


def in_text_form(answer: str, texts: Sequence[str]) -> Optional[str]:
    """`answer` as the first of `texts` holding it writes it (its casing there), or None."""
    from refusalbench.perturb.text import answer_pattern

    pat = answer_pattern(answer)
    for text in texts if pat else ():
        m = pat.search(text)
        if m:
            return normalise_space(m.group(0))
    return None


_GROUP_NOUN = r"(?:band|group|duo|trio|quartet|quintet|ensemble|orchestra|choir|team|club|boy band|girl group)"


def _name_words(name: str) -> list[str]:
    return [t for t in name.replace(",", " ").split() if t.lower() not in at.PARTICLES]


def person_kind(name: str, texts: Sequence[str]) -> Optional[str]:
    """ "group" (a band, team, ...), "individual" (a person), or None when the name does not look like either.

    A group when the passages put a group noun right before the name ("rock band Cheap Trick") or
    describe it as one ("Pink Floyd were an English rock band"), or the name opens with "The".
    """
    if not at.person_name(name):
        return None
    pat = at_pattern(name)
    hay = " ".join(t for t in texts if pat.search(t))
    if (
        name.lower().startswith("the ")
        or takes_article(name, texts)
        or re.search(
            rf"\b{_GROUP_NOUN},?\s+(?:called\s+|named\s+)?{pat.pattern}|{pat.pattern}(?:\s+\([^()]*\))?,?\s+"
            rf"(?:(?:is|are|was|were)\s+)?(?:an?|the)\s+(?:[\w'-]+\s+){{0,4}}{_GROUP_NOUN}\b",
            hay,
            re.I,
        )
    ):
        return "group"
    return "individual"


def at_pattern(name: str) -> re.Pattern[str]:
    from refusalbench.perturb.text import answer_pattern

    return answer_pattern(name) or re.compile(r"(?!)")


def takes_article(name: str, texts: Sequence[str]) -> Optional[bool]:
    """Whether the passages write "the" before the name (most occurrences), None if it does not occur."""
    if name.lower().startswith("the "):
        return True
    pat = at_pattern(name)
    hits = [m for t in texts for m in pat.finditer(t)]
    if not hits:
        return None
    with_the = sum(1 for m in hits if re.search(r"\bthe\s+$", m.string[max(0, m.start() - 5) : m.start()], re.I))
    return with_the * 2 > len(hits)


def _draw(candidates: Sequence[str], rng: random.Random, ok, tries: int = 64) -> Optional[str]:
    """A seeded random candidate passing `ok` (up to `tries` draws; a full scan of small lists)."""
    if len(candidates) <= tries:
        good = [c for c in candidates if ok(c)]
        return rng.choice(good) if good else None
    for _ in range(tries):
        c = candidates[rng.randrange(len(candidates))]
        if ok(c):
            return c
    return None


def _first_usable(
    options: list[str], n_pool: int, rng: random.Random, answers: Sequence[str], avoid: Sequence[str]
) -> Optional[str]:
    """A seeded choice among usable pool options, else among usable derived options."""
    pool = [o for o in options[:n_pool] if _usable(o, answers, avoid)]
    if pool:
        return rng.choice(sorted(set(pool)))
    derived = [o for o in options[n_pool:] if _usable(o, answers, avoid)]
    return rng.choice(derived) if derived else None


def _usable(candidate: str, answers: Sequence[str], avoid: Sequence[str]) -> bool:
    if not candidate:
        return False
    low = candidate.lower()
    for a in answers:
        a = normalise_space(str(a)).lower()
        if not a:
            continue
        if low == a or contains(low, a) or contains(a, low):
            return False
    return not any(contains(text, candidate) for text in avoid)


def _swap_year(anchor: str, old: int, new: int) -> str:
    return re.sub(rf"\b{old}\b", str(new), anchor, count=1)


def format_number(value: float, like: at.NumberValue) -> str:
    """`value` written in the style of `like` (words for small integers, commas, decimals)."""
    decimals = len(like.text.split(".")[1]) if "." in like.text else 0
    if like.words:
        words = {v: k for k, v in at.NUMBER_WORDS.items() if k != "a hundred"}
        value = float(round(value))
        if int(value) in words:
            word = words[int(value)]
            return word.capitalize() if like.text[:1].isupper() else word
        decimals = 0
    if decimals == 0:
        value = round(value)
        return f"{int(value):,}" if "," in like.text or value >= 10000 else str(int(value))
    written = f"{value:,.{decimals}f}" if "," in like.text else f"{value:.{decimals}f}"
    # "$640 million", not "$640.0 million" beside a passage's "$388.6 million" (the seventy-fourth review's R011)
    return written.rstrip("0").rstrip(".")


def with_value(num: at.NumberValue, value: float) -> str:
    """The anchor answer re-written with `value` (prefix, scale and unit kept)."""
    return f"{num.prefix}{format_number(value, num)}{num.scale}{num.unit}".strip()


@functools.lru_cache(maxsize=1)
def _bundled_pool() -> DistractorPool:
    from refusalbench.paths import PACKAGE_DATA_DIR

    path = PACKAGE_DATA_DIR / "nq_sample.jsonl"
    rows: list[dict] = []
    try:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                ctxs = rec.get("ctxs") or [{}]
                rows.append(
                    {
                        "source_id": rec.get("question", ""),
                        "query": rec.get("question", ""),
                        "answers": rec.get("answers", []),
                        "context": ctxs[0].get("text", ""),
                    }
                )
    except (OSError, ValueError) as exc:  # the sample is optional for this fallback
        log.warning("No bundled distractor pool (%s); numeric distractors only", exc)
    return DistractorPool.from_base(rows)
