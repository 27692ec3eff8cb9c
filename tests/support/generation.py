"""Scripted generator/verifier replies and small base tables for the generation-stage tests.

The replies are computed from the rendered prompt (cell, levers, query, passages), so the same
responder serves the test HTTP server (`reply_for_body`) and an in-process layer stub.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Callable, Optional

import pandas as pd

from refusalbench.config import (
    CacheConfig,
    DatasetConfig,
    GenerateConfig,
    ModelConfig,
    PanelConfig,
    RefusalBenchConfig,
    SelectConfig,
)
from refusalbench.context import RunContext

ANSWER = "Gustave Eiffel"
QUESTIONS = [
    ("q1", "Who designed the Eiffel Tower?", "The Eiffel Tower was designed by Gustave Eiffel's company in 1887."),
    ("q2", "Who led the Eiffel Tower project?", "Gustave Eiffel led the project, completed in Paris in 1889."),
]


def single_base() -> pd.DataFrame:
    return pd.DataFrame([{"source_id": s, "query": q, "answers": [ANSWER], "context": c} for s, q, c in QUESTIONS])


def multi_base() -> pd.DataFrame:
    """Two items, 5 passages each: signal at stored indices 3 and 1 (display S1=3, S2=1), noise 0, 2, 4."""
    rows = []
    for s, q, c in QUESTIONS:
        passages = [
            f"{s} noise zero.",
            f"{s} signal B: built 1889 by {ANSWER}.",
            f"{s} noise two.",
            f"{s} signal A: {c}",
            f"{s} noise four.",
        ]
        rows.append(
            {
                "source_id": s,
                "query": q,
                "answers": [ANSWER],
                "passages": passages,
                "signal_indices": [3, 1],
                "noise_indices": [0, 2, 4],
                "relevant": [False, True, False, True, False],
                "reference_answer": ANSWER,
                "domain": "Science",
            }
        )
    return pd.DataFrame(rows)


def cell_of(prompt: str) -> tuple[str, str]:
    m = re.search(r"(P-\w+) perturbation(?: of a multi-passage example)? (?:at|that claims) (LOW|MEDIUM|HIGH)", prompt)
    return m.group(1), m.group(2)


def levers_of(prompt: str) -> list[str]:
    block = prompt.split("LEVERS (", 1)[1]
    block = re.split(r"\n(?:TASK|INTENSITY CRITERI|VERIFICATION)", block, maxsplit=1)[0]
    return re.findall(r"^\d+\. (.+?): ", block, re.M)


def _query(prompt: str) -> str:
    return re.search(r'(?:Original query|Query): "(.*)"', prompt).group(1)


def answers_of(prompt: str) -> list[str]:
    m = re.search(r"Original answer\(s\): (.*)", prompt)
    if m:
        return re.findall(r'"(.*?)"', m.group(1))
    block = prompt.split("Reference answer", 1)[1].split("Signal passages", 1)[0]
    return re.findall(r'"""\n(.*?)\n"""', block, re.S)


def scrub(text: str, answers: list[str]) -> str:
    """The text with every answer, and every capitalised word of a longer answer ("Cousins" of "Robin Cousins"),
    replaced by "an engineer"."""
    words = {w for a in answers if len(a.split()) > 1 for w in re.findall(r"\b[A-Z][\w'-]{3,}", a)}
    for a in sorted(answers, key=len, reverse=True) + sorted(words):
        text = re.sub(
            rf"\b{re.escape(a)}\b" if a in words else re.escape(a),
            lambda m: "An engineer" if re.search(r"(^|[.!?]\s+)$", m.string[: m.start()]) else "an engineer",
            text,
            flags=re.I,
        )
    return text


# each intensity's text differs (the check stage rejects one text shared by two intensities of an item)
MARK = {"LOW": "", "MEDIUM": " really", "HIGH": " truly"}


def _single_fields(prompt: str, cls: str, intensity: str) -> dict:
    query = _query(prompt)
    context = re.search(r'Original context:\n"""\n(.*?)\n"""', prompt, re.S).group(1)
    if cls == "P-FalsePremise":
        return {"perturbed_query": f"Why did{MARK[intensity]} " + query, "perturbed_context": context}
    if cls in ("P-MissingInfo", "P-Contradiction"):
        return {
            "perturbed_query": query,
            "perturbed_context": scrub(context, answers_of(prompt)) + f" Others{MARK[intensity]} disagree.",
        }
    return {"perturbed_query": query + f" (roughly{MARK[intensity]})", "perturbed_context": context}


def _multi_fields(prompt: str, cls: str, intensity: str) -> dict:
    query = _query(prompt)
    signal = re.findall(r'Passage (S\d+):\n"""\n(.*?)\n"""', prompt, re.S)
    out = {"perturbed_query": query, "perturbed_signal_passages": [], "perturbed_noise_passages": []}
    if cls == "P-FalsePremise":
        out["perturbed_query"] = f"Why did{MARK[intensity]} " + query
    elif cls == "P-Contradiction":
        # every sentence of the signal passages that states an answer, restated with the answer replaced
        answers = answers_of(prompt)
        stating = [
            s
            for _, text in signal
            for s in re.split(r"(?<=[.!?])\s+", text)
            if any(a.lower() in s.lower() for a in answers)
        ]
        rival = scrub(" ".join(stating), answers) if stating else "someone else did it."
        out["perturbed_noise_passages"] = [
            {"passage": "N1", "perturbed_text": f"A rival account{MARK[intensity]} says: {rival}"}
        ]
    elif cls == "P-Ambiguity":
        out["perturbed_query"] = query + f" (roughly{MARK[intensity]})"
    else:  # MissingInfo, Granularity, Epistemic: every signal passage, answer removed
        answers = answers_of(prompt)
        out["perturbed_signal_passages"] = [
            {"passage": lab, "perturbed_text": scrub(text, answers) + f" (edited{MARK[intensity]})"}
            for lab, text in signal
        ]
    return out


def generator_reply(prompt: str, lever: Optional[str] = None, echo: Optional[str] = None, fence: bool = True) -> str:
    """A valid generator reply for the prompt's cell (first listed lever unless `lever`)."""
    cls, intensity = cell_of(prompt)
    fields = _multi_fields(prompt, cls, intensity) if "Passage S1" in prompt else _single_fields(prompt, cls, intensity)
    truth = re.search(r"Expected behaviour: (\w+)\.", prompt).group(1)
    fields.update(
        lever_selected=lever or levers_of(prompt)[0],
        implementation_reasoning="Applied the lever.",
        intensity_achieved=intensity,
        expected_rag_behavior=echo or truth,
    )
    text = json.dumps(fields, indent=1)
    return f"Here you go.\n```json\n{text}\n```" if fence else text


def verifier_reply(verdict: str = "PASS") -> str:
    return json.dumps(
        {
            "verification_result": verdict,
            "lever_correctly_implemented": True,
            "intensity_correctly_achieved": verdict == "PASS",
            "identified_issues": [],
        }
    )


def is_verifier(messages: list[dict]) -> bool:
    return "quality verifier" in messages[0]["content"]


def make_cfg(
    tmp_path: Path,
    generators: dict[str, ModelConfig],
    verifiers: dict[str, ModelConfig],
    source: Optional[str] = None,
    **panel_kw,
) -> RefusalBenchConfig:
    cfg = RefusalBenchConfig(
        dataset=DatasetConfig(kind="nq", path="unused"),
        generators=PanelConfig(
            models=generators,
            **{k: v for k, v in panel_kw.items() if k in ("lever_assignment", "fixed_lever", "temperature")},
        ),
        verifiers=PanelConfig(models=verifiers, consensus=panel_kw.get("consensus", "unanimous")),
        model=ModelConfig(name="openai/unused"),
        cache=CacheConfig(dir=str(tmp_path / "cache")),
        generate=GenerateConfig(source=source),
        select=SelectConfig(per_stratum=1, per_generator=18, seed=42, human_sample=6),
    )
    cfg.pipeline.stages = ["generate", "check", "verify", "select"]
    return cfg


def landmarks_nq_file(tmp_path: Path, n: int = 100) -> Path:
    """An NQ-open oracle file of `n` questions about made-up landmarks ("who built landmark number 3")."""
    path = tmp_path / f"nq{n}.jsonl"
    with path.open("w") as fh:
        for i in range(n):
            rec = {
                "question": f"who built landmark number {i}",
                "answers": [f"Builder {i}"],
                "ctxs": [{"title": f"Landmark {i}", "text": f"Landmark {i} was built by Builder {i} in {1800 + i}."}],
            }
            fh.write(json.dumps(rec) + "\n")
    return path


def write_base(tmp_path: Path, df: pd.DataFrame) -> str:
    path = tmp_path / "base_in.parquet"
    df.to_parquet(path)
    return str(path)


def server_responder(verifier: Optional[Callable[[list, dict], str]] = None):
    """A test-server responder: generator replies, and `verifier(messages, body)` (default PASS) for verifiers."""

    def respond(body: dict) -> str:
        messages = body["messages"]
        if is_verifier(messages):
            return verifier(messages, body) if verifier else verifier_reply("PASS")
        return generator_reply(messages[0]["content"])

    return respond


class ScriptedLayer:
    """In-process stand-in for LLMLayer: `responder(messages, model_cfg) -> str | Exception text`."""

    dry_run = False

    def __init__(self, responder: Callable[[list, ModelConfig], str]) -> None:
        self.responder = responder
        self.requests: list[tuple] = []

    def run(self, model_cfg, specs, role="", desc=""):
        from refusalbench.llm.completion import Completion

        out = []
        for spec in specs:
            self.requests.append((model_cfg, spec, role))
            reply = self.responder(spec.messages, model_cfg)
            if isinstance(reply, Exception):
                out.append(Completion(key=spec.key, error=f"{type(reply).__name__}: {reply}"))
            else:
                out.append(Completion(key=spec.key, text=reply, input_tokens=10, output_tokens=5))
        return out

    def close(self) -> None:
        pass


def context_with(cfg: RefusalBenchConfig, run_dir: Path, layer=None) -> RunContext:
    ctx = RunContext(cfg=cfg, run_dir=run_dir)
    if layer is not None:
        ctx._llm = layer
    return ctx
