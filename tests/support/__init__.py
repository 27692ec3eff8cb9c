"""Helpers shared across the test suite's folders.

`configs`: model configs pointing at the local test server; `generation`: scripted generator and
verifier replies and small base tables; `evaluation`: a tiny benchmark, scripted replies and run
contexts for the evaluate and judge stages; `scoring`: labels tables and run contexts for the score
and report stages.
"""
