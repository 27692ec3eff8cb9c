"""Shared logic of the benchmark-generation stages (generate, check, verify, select).

Modules: `parsing` (lenient JSON extraction and schema validation), `ids` (content-addressed
ids), `multipassage` (applying passage edits by displayed label), `checks` (deterministic
checks), `consensus`, `sampling` (stratified sampling), `analysis` (generator-verifier
statistics), `human` (human-validation export/import) and `estimate` (dry-run estimates).
"""
