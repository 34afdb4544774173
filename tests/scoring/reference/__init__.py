"""Independent reference scorers, one module per game, for tests/scoring/test_reference.py.

Each was written from the rules (now docs/rules.md) alone, without reading the engine,
and must never import anything from scorekeeper: it is the second
implementation the engine is compared with. Each module exposes
`score(match) -> dict`, the full output of RULES.md 1.2 for a legal match.
The input is not validated.
"""
