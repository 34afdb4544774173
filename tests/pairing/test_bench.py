"""bench/tournament.py must stay importable without running the benchmark."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_bench_imports_without_running():
    spec = importlib.util.spec_from_file_location("bench_tournament_probe", ROOT / "bench" / "tournament.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        start = time.perf_counter()
        spec.loader.exec_module(module)
        assert time.perf_counter() - start < 5  # nothing heavy at import time
        assert callable(module.main) and callable(module.measure) and callable(module.print_table)
        assert module.median_time(lambda: None, 3, inner=2) >= 0
    finally:
        del sys.modules[spec.name]


def load_bench(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}_probe", ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_seating_and_swiss_benches_import_and_run_a_small_case():
    seating = load_bench("seating")
    row = seating.compare(16, 4, 5, seed=1, before=False)
    assert row["plan"] == (0, 120) and row["method"] == "design" and row["by_round"][0] >= 0
    assert row["how"] == "(16, 4, 1): AG(2, 4), design"
    worst = load_bench("swiss_worst")
    assert len(worst.cases()) >= 10
    players = worst._bye_67()
    from scorekeeper.pairing import pair_swiss_round

    assert "bye to 66 (lowest without one: 66)" in worst.describe(players, pair_swiss_round(players))


def test_the_seating_bench_runs_the_plan_before_from_git():
    seating = load_bench("seating")
    known = subprocess.run(["git", "cat-file", "-e", f"{seating.BASELINE}^{{commit}}"], cwd=ROOT, capture_output=True)
    if known.returncode:
        pytest.skip(f"{seating.BASELINE} is not in this clone")
    row = seating.compare(21, 3, 10, seed=1, by_round=False)
    assert row["before"][0] > 0 and row["plan"] == (0, 210)  # no KTS(21) before
