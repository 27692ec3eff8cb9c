"""Judging evaluated outputs: deterministic code rules, answer matching, stated confidence, LLM judge."""

from refusalbench.judging.answer_match import MatchResult, best_match, exact_match, f1_score, normalize_answer
from refusalbench.judging.confidence import ConfidenceParse, parse_confidence
from refusalbench.judging.llm_judge import Verdict, VerdictError, extract_json_object, parse_verdict
from refusalbench.judging.rules import CodeHit, RuleDecision, classify, classify_codes, find_codes

__all__ = [
    "CodeHit", "ConfidenceParse", "MatchResult", "RuleDecision", "Verdict", "VerdictError",
    "best_match", "classify", "classify_codes", "exact_match", "extract_json_object", "f1_score",
    "find_codes", "normalize_answer", "parse_confidence", "parse_verdict",
]
