"""The drawn standings, shared by every request through Django's cache.

Every screen in the room polls the standings every 5 s, and during play
some table saves a hand every moment, so drawing them for each poll is out
of the question (26 ms of CPU at 500 tables, against 1 ms for a poll
answered from the cache). Two cache entries per
tournament: the generation last drawn (``selectors.standings_generation``)
with when the database was last looked at, small, for the polls that
answer 304; and the drawn HTML of that generation.

Within STANDINGS_REFRESH_SECONDS of the last look a poll is answered from
the cache alone. After it, one request looks again (the others answer from
the cache meanwhile) and, only if the generation moved, draws the
standings anew. With the default file cache or with Redis that is one look
and one drawing per change for all the server's processes.

The drawn HTML is in one language: its keys carry the language it was drawn
in (``get_language()``), so a screen in Urdu never gets the English drawing
and each language is drawn once per change.
"""

from __future__ import annotations

import gzip
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import get_language

from ..models import Tournament
from .selectors import standings_generation

LOOK_TIMEOUT = 60  # s: a look that died half-way is given up after this
DRAWN_TIMEOUT = 24 * 60 * 60  # s: an old generation's drawing is dropped after this


@dataclass(frozen=True)
class Generation:
    value: str
    looked_at: float  # time.time() of the last look at the database that found it current
    public: bool = True  # the tournament's standings are for anyone (polls.py answers their 304s)


def current_generation(tournament: Tournament, draw: Callable[[], str]) -> str:
    """The generation of the standings to show, looked up (and the standings
    drawn, ``draw()``) again when the refresh time is over."""
    key = generation_key(tournament.pk)
    shown = cache.get(key)
    if shown is not None and time.time() - shown.looked_at < settings.STANDINGS_REFRESH_SECONDS:
        return shown.value
    if shown is not None and not cache.add(f"{key}-looking", True, timeout=LOOK_TIMEOUT):
        return shown.value  # another request is looking: the last drawn meanwhile
    try:
        looked_at = time.time()
        generation = standings_generation(tournament.pk)
        if shown is None or shown.value != generation:
            cache.set(drawn_key(tournament.pk, generation), draw(), timeout=DRAWN_TIMEOUT)
        cache.set(key, Generation(generation, looked_at, tournament.is_public), timeout=None)
    finally:
        cache.delete(f"{key}-looking")
    return generation


def generation_key(tournament_id: int) -> str:
    """Where the generation last looked up is kept (a Generation); polls.py reads it too."""
    return f"tournament-{tournament_id}-standings"


def drawn_key(tournament_id: int, generation: str, language: str | None = None) -> str:
    """Where one generation's drawing is kept: one per language (by default
    the active one), as the drawing holds words ("dropped", "Table 3") in
    the reader's language."""
    return f"tournament-{tournament_id}-standings-{generation}-{language or get_language()}"


def poll_answer_key(tournament_id: int, generation: str, big: bool, language: str | None = None) -> str:
    return f"{drawn_key(tournament_id, generation, language)}-poll-{int(big)}"


def look_again(tournament_id: int) -> None:
    """Forget when the database was last looked at: the next request looks
    (and draws the standings if their generation moved). Called once a
    tournament event (a round published or over, a drop...) is committed."""
    cache.delete(generation_key(tournament_id))


def drawn_standings(tournament: Tournament, generation: str, draw: Callable[[], str]) -> str:
    """The standings' HTML of that generation (drawn again if the cache lost it)."""
    key = drawn_key(tournament.pk, generation)
    html = cache.get(key)
    if html is None:
        html = draw()
        cache.set(key, html, timeout=DRAWN_TIMEOUT)
    return html


def poll_answer(tournament: Tournament, generation: str, big: bool, render: Callable[[], str]) -> bytes:
    """The screens' poll answer for that generation, gzip-compressed once
    and then sent as it is to every screen: at 500 tables 274 kB of HTML
    become 20 kB, and a poll answered from the cache costs 2 ms of the
    server's CPU instead of 4 (bench/standings_page.py)."""
    key = poll_answer_key(tournament.pk, generation, big)
    body = cache.get(key)
    if body is None:
        body = gzip.compress(render().encode(), compresslevel=6, mtime=0)
        cache.set(key, body, timeout=DRAWN_TIMEOUT)
    return body
