"""The public entry point of the programmatic generator and the invariants it guarantees.

`generate_programmatic` picks a lever of the requested cell (the given one, or a seeded choice
among the levers that apply to the item), applies it and checks the result against the same rules
as the check stage (something changed, only the class's target edited, no answer left at
MissingInfo MEDIUM/HIGH, an answer kept at LOW, clean English) and its semantic detectors
(refusalbench.generation.semantic), including that no other intensity of the same item has the
same text. A lever whose output breaks a rule counts as not applicable; when no lever applies the
item is declined (NotApplicable, recorded by the generate stage), never faked.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import random
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Sequence

from refusalbench import taxonomy as tx
from refusalbench.perturb import (  # noqa: F401 - importing the modules registers their levers
    levers_ambiguity,
    levers_ambiguity_pair,
    levers_contradiction,
    levers_contradiction_high,
    levers_epistemic,
    levers_granularity,
    levers_granularity_member,
    levers_granularity_parts,
    levers_granularity_world,
    levers_missing,
    levers_missing_low,
    levers_missing_time,
    levers_missing_trim,
    levers_premise,
    levers_premise_living,
    levers_redact,
)
from refusalbench.perturb.base import BOTH, QUERY, REGISTRY, Item, LeverImpl, NotApplicable, Proposal
from refusalbench.perturb.distractors import DistractorPool
from refusalbench.perturb.grounding import weak_grounding
from refusalbench.perturb.text import contains_any, is_clean, normalise_space, raw_contains_any, tidy_paragraphs

log = logging.getLogger(__name__)

PROGRAMMATIC_LEVERS_DIR = Path(__file__).with_name("levers_programmatic")
#: Our catalogue entries for mechanical levers no catalogue lever fits (one file per class, as the
#: lever loader reads one class per file); pass them as `load_catalogue(extra_files=...)`.
PROGRAMMATIC_LEVERS_FILES: tuple[Path, ...] = tuple(sorted(PROGRAMMATIC_LEVERS_DIR.glob("*.yaml")))
_PACKAGE = Path(__file__).parent
# the modules outside this package whose rules the levers apply (the semantic detectors, value shapes)
_RULE_MODULES = tuple(_PACKAGE.parent / "generation" / n for n in ("semantic.py", "semantic_cuts.py", "value_shape.py"))


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A hash of the generator's rules (this package's code and lever files, and the modules it applies): a
    row made by other rules is not reused on resume."""
    digest = hashlib.sha256()
    for path in sorted([*_PACKAGE.rglob("*.py"), *_PACKAGE.rglob("*.yaml"), *_RULE_MODULES]):
        digest.update(path.relative_to(_PACKAGE.parent).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


#: Classes whose multi-passage target is the context only (their query-side levers do not apply).
CONTEXT_ONLY_MULTI = {c for c in tx.CLASSES if tx.target(c, True) == "Context"}


def implemented_levers(perturbation_class: str, intensity: str, multi_passage: bool = False) -> list[str]:
    """Names of the levers this generator implements for a cell, in registration order."""
    return [impl.name for impl in _impls(perturbation_class, intensity, multi_passage)]


def _impls(cls: str, intensity: str, multi: bool) -> list[LeverImpl]:
    impls = REGISTRY.get((tx.check_class(cls), tx.check_intensity(intensity)), [])
    if not multi:
        return list(impls)
    if cls in CONTEXT_ONLY_MULTI:
        return [i for i in impls if i.edits not in (QUERY, BOTH)]
    return list(impls)


def _catalogue_names(cls: str, intensity: str, catalogue: Any) -> set[str]:
    if catalogue is None:
        from refusalbench.levers import load_catalogue

        catalogue = load_catalogue(extra_files=PROGRAMMATIC_LEVERS_FILES)
    return set(catalogue.names(cls, intensity))


def _plain(value: Any) -> Any:
    return value.tolist() if hasattr(value, "tolist") else value


def make_item(base_row: Mapping[str, Any], pool: DistractorPool, multi: bool, rng: random.Random) -> Item:
    answers = [str(a) for a in (_plain(base_row.get("answers")) or [])]
    if multi:
        passages = [str(p) for p in _plain(base_row["passages"])]
        signal = [int(i) for i in _plain(base_row.get("signal_indices")) or []]
        noise = [int(i) for i in _plain(base_row.get("noise_indices")) or []]
    else:
        passages, signal, noise = [str(base_row["context"])], [0], []
    title = base_row.get("title")
    title = str(title).strip() if isinstance(title, str) and title.strip() else None
    return Item(
        str(base_row.get("source_id", "")),
        str(base_row["query"]),
        answers,
        passages,
        signal,
        noise,
        multi,
        pool,
        rng,
        title,
    )


def violations(item: Item, out: Proposal, cls: str, intensity: str) -> list[str]:
    """Rule breaks of a proposal (empty when it passes): the check stage's rules plus clean output."""
    bad = []
    query_changed = out.query != item.query
    changed = [i for i, (a, b) in enumerate(zip(item.passages, out.passages)) if a != b]
    if len(out.passages) != len(item.passages):
        return ["the passage list changed length"]
    if not query_changed and not any(
        normalise_space(item.passages[i]) != normalise_space(out.passages[i]) for i in changed
    ):
        bad.append("nothing changed")
    if query_changed and not (is_clean(out.query) and out.query.endswith(("?", '?"')) and out.query[:1].isupper()):
        bad.append(f"the query is not a clean question: {out.query!r}")
    for i in changed:
        text = out.passages[i]
        if not text.strip() or "  " in text or " ," in text or ",," in text or " ." in text:
            bad.append(f"passage {i} is empty or badly spaced")
    if cls == tx.FALSE_PREMISE and (changed or not query_changed):
        bad.append("FalsePremise must change the query only")
    if cls in (tx.MISSING_INFO, tx.CONTRADICTION) and query_changed:
        bad.append(f"{cls} must leave the query unchanged")
    if item.multi:
        allowed = set(item.noise) if cls == tx.CONTRADICTION else set(item.signal)
        if any(i not in allowed for i in changed):
            bad.append("a passage outside the class's target was edited")
        if cls == tx.CONTRADICTION and len(changed) != 1:
            bad.append("Contradiction must edit exactly one noise passage")
        if cls in CONTEXT_ONLY_MULTI - {tx.CONTRADICTION} and (query_changed or not changed):
            bad.append(f"{cls} must edit the signal passages and not the query")
    if cls == tx.MISSING_INFO and intensity != tx.LOW:
        if any(contains_any(p, item.answers) or raw_contains_any(p, item.raw_answers) for p in out.passages):
            bad.append("an answer string survives")
    if intensity == tx.LOW and any(contains_any(p, item.raw_answers) for p in item.passages):
        if not any(contains_any(p, item.raw_answers) for p in out.passages):
            bad.append("a LOW item must keep an answer string")
    if not bad:
        from refusalbench.generation.semantic import Candidate, detect  # here: semantic uses perturb.text

        view = Candidate(cls, intensity, item.query, out.query, item.passages, out.passages, item.raw_answers)
        bad += [f"{name}: {why}" for name, why in detect(view)]
    return bad


def generate_programmatic(
    base_row: Mapping[str, Any],
    perturbation_class: str,
    intensity: str,
    seed: int,
    pool: Optional[DistractorPool] = None,
    multi_passage: bool = False,
    lever: Optional[str] = None,
    catalogue: Any = None,
    avoid: Iterable[Sequence] = (),
) -> dict:
    """One programmatic perturbation of `base_row` for a (class, intensity) cell.

    Returns perturbed_query, perturbed_context (single) or perturbed_passages (multi),
    lever_selected, implementation_reasoning and programmatic=True; raises NotApplicable when no
    lever of the cell (or not the requested `lever`) applies. `avoid` holds (query, passages) pairs
    the result must differ from (the other intensities' items of the same question, so that no
    two intensities share a text). `catalogue` restricts the
    levers to the names it holds (default: the base catalogue plus our programmatic files); `pool`
    defaults to the bundled sample's answers.
    """
    cls, intensity = tx.check_class(perturbation_class), tx.check_intensity(intensity)
    multi = bool(multi_passage or "passages" in base_row and "context" not in base_row)
    pool = pool if pool is not None else DistractorPool.bundled()
    known = _catalogue_names(cls, intensity, catalogue)
    return _generate(base_row, cls, intensity, seed, pool, multi, lever, known, {tuple_texts(t) for t in avoid})


def tuple_texts(texts: Sequence) -> tuple:
    """(query, (passage, ...)) from a (query, passages) pair, for comparing perturbed texts."""
    query, passages = texts
    return str(query), tuple(str(p) for p in passages)


def _texts(result: Mapping[str, Any]) -> tuple:
    return tuple_texts(
        (result["perturbed_query"], result.get("perturbed_passages") or [result.get("perturbed_context")])
    )


def _generate(
    base_row: Mapping[str, Any],
    cls: str,
    intensity: str,
    seed: int,
    pool: DistractorPool,
    multi: bool,
    lever: Optional[str],
    known: set[str],
    avoid: frozenset | set = frozenset(),
) -> dict:
    key = f"{seed}:{base_row.get('source_id', '')}:{cls}:{intensity}"
    impls = [i for i in _impls(cls, intensity, multi) if i.name in known]
    if lever is not None:
        impls = [i for i in impls if i.name == lever]
        if not impls:
            raise NotApplicable(
                f"lever {lever!r} has no programmatic implementation for {cls}/{intensity}"
                f"{' (multi-passage)' if multi else ''}"
            )
    weak = impls and weak_grounding(make_item(base_row, pool, multi, random.Random(key)))
    if weak:
        raise NotApplicable(f"the source item is declined for every lever of {cls}/{intensity}: {weak}")
    order = list(impls)
    random.Random(key).shuffle(order)
    reasons = []
    for impl in order:
        item = make_item(base_row, pool, multi, random.Random(f"{key}:{impl.name}"))
        try:
            out = impl.fn(item)
        except NotApplicable as exc:
            reasons.append(f"{impl.name}: {exc}")
            continue
        out.passages = [tidy_paragraphs(new) if new != old else old for new, old in zip(out.passages, item.passages)]
        bad = violations(item, out, cls, intensity)
        if bad:
            reasons.append(f"{impl.name}: {'; '.join(bad)}")
            continue
        result = {
            "perturbed_query": out.query,
            "lever_selected": impl.name,
            "implementation_reasoning": out.reasoning,
            "programmatic": True,
        }
        if multi:
            result["perturbed_passages"] = out.passages
        else:
            result["perturbed_context"] = out.passages[0]
        if _texts(result) in avoid:
            reasons.append(f"{impl.name}: the same text as another intensity of this item")
            continue
        return result
    log.debug("%s %s/%s: no lever applies (%s)", base_row.get("source_id"), cls, intensity, reasons)
    raise NotApplicable(
        f"no programmatic lever of {cls}/{intensity} applies: " + (" | ".join(reasons) or "none implemented")
    )


def coverage(
    base_rows: Iterable[Mapping[str, Any]],
    seed: int = 0,
    pool: Optional[DistractorPool] = None,
    multi_passage: bool = False,
) -> dict[tuple[str, str], dict[str, Any]]:
    """Per cell: the share of base rows that yield an item, and how often each lever was chosen."""
    rows = list(base_rows)
    pool = pool if pool is not None else DistractorPool.from_base(rows)
    out = {}
    for cls, intensity in tx.cells():
        levers: Counter[str] = Counter()
        for row in rows:
            try:
                levers[generate_programmatic(row, cls, intensity, seed, pool, multi_passage)["lever_selected"]] += 1
            except NotApplicable:
                pass
        out[(cls, intensity)] = {"coverage": sum(levers.values()) / max(len(rows), 1), "levers": dict(levers)}
    return out


def format_coverage(cov: Mapping[tuple[str, str], Mapping[str, Any]]) -> str:
    """One line per cell: class, intensity, coverage %, lever counts."""
    lines = []
    for (cls, intensity), c in cov.items():
        levers = ", ".join(f"{k} {v}" for k, v in sorted(c["levers"].items(), key=lambda kv: -kv[1]))
        lines.append(f"{cls:<24} {intensity:<6} {100 * c['coverage']:5.1f}%  {levers}")
    return "\n".join(lines)
