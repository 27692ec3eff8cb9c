"""Build the bundled NQ sample (refusalbench/data/files/nq_sample.jsonl) from the NQ-open oracle pool.

    python -m refusalbench.data.make_sample POOL OUT [--n 30] [--seed 42] [--max-words 120]

Keeps questions whose gold passage has at most ``--max-words`` words (so a tiny local model
evaluates quickly) and contains one of the answers (case-insensitive), draws ``--n`` of them with
``--seed`` (file order kept) and writes them in the oracle format reduced to ``question``,
``answers`` and ``ctxs[0].title/text``.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from refusalbench.data.records import contains_answer


def _usable(row: dict, max_words: int) -> bool:
    ctxs = row.get("ctxs")
    if not isinstance(row.get("question"), str) or not isinstance(row.get("answers"), list) or not ctxs:
        return False
    passage = ctxs[0].get("text")
    return isinstance(passage, str) and len(passage.split()) <= max_words and contains_answer(passage, row["answers"])


def make_sample(pool: Path, out: Path, n: int = 30, seed: int = 42, max_words: int = 120) -> int:
    """Write the sample to ``out``; return how many usable questions the pool had."""
    rows = [json.loads(line) for line in pool.read_text(encoding="utf-8").splitlines() if line.strip()]
    usable = [row for row in rows if _usable(row, max_words)]
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
    args = parser.parse_args(argv)
    usable = make_sample(args.pool, args.out, args.n, args.seed, args.max_words)
    print(f"Wrote {args.n} of {usable} usable questions to {args.out}")


if __name__ == "__main__":
    main()
