"""Task building: which levers each generator of a panel may use."""

from __future__ import annotations

from refusalbench.generation.tasks import build_tasks
from refusalbench.levers import load_catalogue
from refusalbench.perturb import PROGRAMMATIC_LEVERS_FILES

ROWS = [{"source_id": f"q{i}", "query": "q?", "answers": ["a"], "context": "a."} for i in range(4)]


def test_model_generators_never_see_rule_only_levers_in_a_mixed_panel():
    cat = load_catalogue(extra_files=tuple(str(p) for p in PROGRAMMATIC_LEVERS_FILES))
    rule_only = {
        lv.name for cls, intensity in [("P-MissingInfo", "LOW")] for lv in cat.levers(cls, intensity) if lv.programmatic
    }
    assert rule_only  # the programmatic files add levers to this cell
    rr = {
        "programmatic": lambda cls, intensity: (
            [n for n in cat.names(cls, intensity) if n in rule_only] or cat.names(cls, intensity)
        )
    }
    for mode in ("llm_choice", "round_robin"):
        tasks = build_tasks(ROWS, {"programmatic": "p@1", "claude": "c@1"}, cat, mode, None, 42, rr)
        llm = [
            t
            for t in tasks
            if t.generator == "claude" and t.perturbation_class == "P-MissingInfo" and t.intensity == "LOW"
        ]
        assert llm and all(not (set(t.allowed_levers) & rule_only) for t in llm)
        prog = [
            t
            for t in tasks
            if t.generator == "programmatic" and t.perturbation_class == "P-MissingInfo" and t.intensity == "LOW"
        ]
        if mode == "round_robin":
            assert all(t.allowed_levers[0] in rule_only for t in prog)
