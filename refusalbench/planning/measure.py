"""Token and cost figures for a dry run: real prompts measured by the model-call layer's dry-run mode.

A sample of prompts per (model, role), spread evenly over the calls, is counted with LiteLLM's token
counter and price table (no model is called), then scaled to the call count. The report's totals
and a short fixed-width table are built here too.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

SAMPLE = 32  # prompts measured per (model, role)
FIELDS = ("input_tokens", "output_tokens", "cost_usd")


def estimator_layer(cache_cfg):
    """A private dry-run layer: it calls nothing and writes no usage.json."""
    from refusalbench.llm import LLMLayer

    return LLMLayer(cache_cfg, run_dir=None, dry_run=True, progress=False)


def spread(items: list, k: int = SAMPLE) -> list:
    """At most `k` items, evenly spread over `items`."""
    if len(items) <= k:
        return list(items)
    step = len(items) / k
    return [items[int(i * step)] for i in range(k)]


def no_calls() -> dict:
    """The section of a model that calls nothing (programmatic generator, structural verifier)."""
    return {"calls": 0, "sampled_calls": 0, "input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0}


def render_prompts(rows: list, build: Callable[[Any], tuple[str, str, int]], what: str, notes: list[str]) -> list:
    """(text, template version, expected output tokens) per row; a note (and no prompts) when one fails to render."""
    try:
        return [build(r) for r in rows]
    except Exception as exc:  # bad item data: the calls are still counted, only token figures are lost
        notes.append(f"{what}: prompts could not be rendered for token counts ({exc})")
        return []


def measure(layer, model_cfg, role: str, n_calls: int, prompts: list[tuple[str, str, int]]) -> dict:
    """Scale the layer's dry-run figures for `prompts` (text, template version, output tokens) to `n_calls`."""
    out = {
        "calls": n_calls,
        "sampled_calls": len(prompts),
        "input_tokens": None,
        "output_tokens": None,
        "cost_usd": None,
    }
    if not n_calls or not prompts:
        return out
    from refusalbench.llm import CallSpec

    specs = [
        CallSpec(
            key=f"estimate-{role}-{i}",
            messages=[{"role": "user", "content": text}],
            template_version=version,
            expected_output_tokens=expected,
        )
        for i, (text, version, expected) in enumerate(prompts)
    ]
    results = layer.run(model_cfg, specs, role=role, desc=f"estimate {role} {model_cfg.id}")
    scale = n_calls / len(results)
    for name in FIELDS:
        values = [getattr(c, name) for c in results]
        if name == "output_tokens":
            values = [v if v is not None else s.expected_output_tokens for v, s in zip(values, specs)]
        known = [v for v in values if v is not None]
        if len(known) == len(values):
            total = sum(known) * scale
            out[name] = round(total, 4) if name == "cost_usd" else int(round(total))
    return out


def add_totals(report: dict) -> dict:
    """Fill `report["calls"]` per stage and `report["totals"]`; a total is None when any part is unknown."""
    totals: dict[str, Optional[float]] = {"calls": 0, "input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0}
    unknown = set()
    for stage, models in report["stages"].items():
        report["calls"][stage] = sum(m["calls"] for m in models.values())
        for m in models.values():
            totals["calls"] += m["calls"]
            for name in FIELDS:
                if m[name] is None and m["calls"]:
                    unknown.add(name)
                elif m[name] is not None:
                    totals[name] += m[name]
    for name in unknown:
        totals[name] = None
    report["totals"] = totals
    return report


def fmt(value: Optional[float], money: bool = False) -> str:
    if value is None:
        return "?"
    return f"${value:,.2f}" if money else f"{int(value):,}"


def format_table(report: dict) -> str:
    """A short fixed-width table: one line per (stage, model), then the totals."""
    lines = [f"{'stage':<13}{'model':<24}{'calls':>9}{'input tok':>14}{'output tok':>13}{'cost':>12}"]
    for stage, models in report["stages"].items():
        for name, m in models.items():
            lines.append(
                f"{stage:<13}{name[:23]:<24}{fmt(m['calls']):>9}{fmt(m['input_tokens']):>14}"
                f"{fmt(m['output_tokens']):>13}{fmt(m['cost_usd'], True):>12}"
            )
        if len(models) > 1:
            lines.append(f"{'':<13}{'(' + stage + ' calls)':<24}{fmt(report['calls'][stage]):>9}")
    t = report["totals"]
    lines.append(
        f"{'total':<37}{fmt(t['calls']):>9}{fmt(t['input_tokens']):>14}{fmt(t['output_tokens']):>13}"
        f"{fmt(t['cost_usd'], True):>12}"
    )
    return "\n".join(lines)
