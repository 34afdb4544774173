"""The benchmark's baseline endpoint exists only when asked for."""

from __future__ import annotations

import importlib

import pytest
from django.urls import NoReverseMatch, Resolver404, clear_url_caches, resolve, reverse

import config.urls
import scorekeeper.urls

ENV = "SCOREKEEPER_BENCH_BASELINE"


def _names(module) -> set[str]:
    return {getattr(p, "name", None) for p in module.urlpatterns}


def _reload():
    """Re-read the URLconf (the app's, then the project's that includes it)."""
    module = importlib.reload(scorekeeper.urls)
    importlib.reload(config.urls)
    clear_url_caches()
    return module


@pytest.fixture
def reload_urls(monkeypatch):
    """Reload the URLconf under a changed environment, and restore it."""
    yield _reload
    monkeypatch.undo()
    _reload()


def test_baseline_url_absent_without_env_var(monkeypatch, reload_urls):
    monkeypatch.delenv(ENV, raising=False)
    module = reload_urls()
    assert "bench_baseline" not in _names(module)
    with pytest.raises(Resolver404):
        resolve("/bench/baseline/")
    with pytest.raises(NoReverseMatch):
        reverse("bench_baseline")


@pytest.mark.parametrize("value", ["0", "", "true"])
def test_baseline_url_needs_exactly_1(monkeypatch, reload_urls, value):
    monkeypatch.setenv(ENV, value)
    assert "bench_baseline" not in _names(reload_urls())


def test_baseline_url_present_with_env_var(monkeypatch, reload_urls):
    monkeypatch.setenv(ENV, "1")
    module = reload_urls()
    assert "bench_baseline" in _names(module)
    assert resolve("/bench/baseline/").url_name == "bench_baseline"
