"""Judging evaluated outputs: deterministic code rules, answer matching, stated confidence, LLM judge."""

from refusalbench.judging.answer_match import MatchResult, best_match, exact_match, f1_score, normalize_answer
from refusalbench.judging.codes import bare_label, code_name, code_tokens
from refusalbench.judging.confidence import ConfidenceParse, parse_confidence
from refusalbench.judging.llm_judge import Verdict, VerdictError, extract_json_object, parse_verdict
from refusalbench.judging.rules import RuleDecision, classify, leading_code

__all__ = [
    "ConfidenceParse",
    "MatchResult",
    "RuleDecision",
    "Verdict",
    "VerdictError",
    "bare_label",
    "best_match",
    "classify",
    "code_name",
    "code_tokens",
    "exact_match",
    "extract_json_object",
    "f1_score",
    "leading_code",
    "normalize_answer",
    "parse_confidence",
    "parse_verdict",
]
