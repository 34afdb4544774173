"""Settings for the benchmarks only: the app's own, plus the baseline view
(bench/urls.py). Never used by the app itself:
DJANGO_SETTINGS_MODULE=bench.settings."""

import os

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"

# bench/hand_cost.py --language ur: a complete stand-in Urdu catalogue first.
if os.environ.get("BENCH_LOCALE_PATH"):
    LOCALE_PATHS = [os.environ["BENCH_LOCALE_PATH"], *LOCALE_PATHS]  # noqa: F405
