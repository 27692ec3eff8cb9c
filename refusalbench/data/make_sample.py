"""Build the bundled NQ sample (refusalbench/data/files/nq_sample.jsonl) from the NQ-open oracle pool.

    python -m refusalbench.data.make_sample POOL OUT [--n 30] [--seed 42] [--max-words 120] [--verdicts FILE]

Keeps questions whose gold passage has at most ``--max-words`` words (so a tiny local model
evaluates quickly), contains one of the answers (case-insensitive) and, with ``--verdicts`` (default: the
bundled source verdicts), was judged to support a gold answer (verdict ``V``); draws ``--n`` of them with
``--seed`` (file order kept) and writes them in the oracle format reduced to ``question``,
``answers`` and ``ctxs[0].title/text``.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Optional

from refusalbench.data import nq
from refusalbench.data.records import contains_answer
from refusalbench.data.source_verdicts import read_verdicts, verdict_of
from refusalbench.paths import PACKAGE_DATA_DIR

DEFAULT_VERDICTS = PACKAGE_DATA_DIR / "nq_source_verdicts.csv"


def _usable(row: dict, max_words: int) -> bool:
    ctxs = row.get("ctxs")
    if not isinstance(row.get("question"), str) or not isinstance(row.get("answers"), list) or not ctxs:
        return False
    passage = ctxs[0].get("text")
    return isinstance(passage, str) and len(passage.split()) <= max_words and contains_answer(passage, row["answers"])


def make_sample(
    pool: Path, out: Path, n: int = 30, seed: int = 42, max_words: int = 120, verdicts: Optional[Path] = None
) -> int:
    """Write the sample to ``out``; return how many usable questions the pool had.

    With `verdicts` (a source-verdict file), only questions whose passage it judges supported (V) are usable.
    """
    rows = [json.loads(line) for line in pool.read_text(encoding="utf-8").splitlines() if line.strip()]
    usable = [row for row in rows if _usable(row, max_words)]
    if verdicts is not None:
        judged = read_verdicts(verdicts)
        items = [nq.parse(row) for row in usable]
        usable = [row for row, item in zip(usable, items) if verdict_of(judged, item.source_id, item.context) == "V"]
    if len(usable) < n:
        raise SystemExit(f"Only {len(usable)} usable questions in {pool}; need {n}.")
    chosen = sorted(random.Random(seed).sample(range(len(usable)), n))
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:
        for i in chosen:
            row = usable[i]
            ctx = row["ctxs"][0]
            record = {
                "question": row["question"],
                "answers": row["answers"],
                "ctxs": [{"title": ctx.get("title", ""), "text": ctx["text"]}],
            }
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
    return len(usable)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pool", type=Path, help="nq-open-oracle JSONL (question, answers, ctxs)")
    parser.add_argument("out", type=Path, help="where to write the sample JSONL")
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--max-words", type=int, default=120)
    parser.add_argument(
        "--verdicts", type=Path, default=DEFAULT_VERDICTS, help="source verdict file: keep the supported (V) only"
    )
    args = parser.parse_args(argv)
    usable = make_sample(args.pool, args.out, args.n, args.seed, args.max_words, args.verdicts)
    print(f"Wrote {args.n} of {usable} usable questions to {args.out}")


if __name__ == "__main__":
    main()
