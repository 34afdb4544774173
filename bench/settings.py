"""Settings for the benchmarks only: the app's own, plus the baseline view
(bench/urls.py). Never used by the app itself:
DJANGO_SETTINGS_MODULE=bench.settings."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
