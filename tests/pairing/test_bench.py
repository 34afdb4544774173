"""bench/tournament.py must stay importable without running the benchmark."""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

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
