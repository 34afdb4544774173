"""Polls answered from the cache alone (issue 26).

Every open sheet asks "changed?" every 3 s and every screen the standings
every 5 s, each with the ETag of what it shows (If-None-Match); almost every
answer is 304. ``answer_unchanged_polls``, the middleware right after
SecurityMiddleware and WhiteNoise, answers those 304s from the cache before
the session, the database or the rest of the middleware run. Anything else
(a tag that is not the cached one, nothing cached, a session cookie, any
other URL) goes on to the views, which answer as before and fill the cache.

What the cache holds (Django's cache, ``CACHES["polls"]``: files shared by
one server's processes, or one Redis shared by every app server, so a
write on one server is seen by the next poll on any other):

- ``poll-match-<id>``: (the match's version, its round's id or 0, whether
  it is a private tournament's table), set by
  every save of a match that moves its version (``match_saved``, a
  post_save signal) inside the write's transaction, after its UPDATE: the
  row is locked from that UPDATE to the commit, so two writes of a match
  set it in the order they commit and the cache never goes back. A write
  that rolls back may leave a version that was never committed: no page
  shows it, so every poll of that match goes to the view (one query) until
  the next write, never a wrong 304.
- ``poll-round-<id>``: the round's state and clock (status, end, pause),
  set the same way by every save of a round (``round_saved``), read back
  after its UPDATE. A match and its round are written by different
  transactions under different locks, so each has its own key.
- The standings' generation: ``tournaments/standings_cache.py`` keeps it
  (looked up at most every STANDINGS_REFRESH_SECONDS by one request, and
  at once after a tournament event, ``look_again``); a poll within that
  time of the last look is answered here, as the view answers it: 304
  when it shows that generation, else that generation's answer, drawn and
  compressed once by the view (``standings_cache.poll_answer``), when the
  cache holds it. During play some table saves a hand every moment, so a
  screen polling every 5 s almost always finds newer standings: those 200s
  (100 a second at 500 tables) cost what a 304 costs.

A view that finds nothing cached fills it with ``cache.add`` (never
overwriting a write's newer value); each entry lasts ``TIMEOUT``, a bound
on how long anything missed could stay wrong.

Access: a 304 carries no data, but it says "what you name is current".
The cache answers only for what anyone may read: a casual match or a
public tournament's table, a public tournament's standings (whether a
tournament is public is set when it is made and never changes, so the
cache may keep it). A private tournament's polls always go to the views,
which refuse whoever may not see them, 304 or not. Requests with a session
cookie (organisers) go to the views too: their login's idle time is
renewed there (``keep_sessions_alive``)."""

from __future__ import annotations

import gzip
import re
import time

from django.conf import settings
from django.core.cache import cache, caches
from django.http import HttpResponse, HttpResponseNotModified
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers, quote_etag
from django.utils.connection import ConnectionProxy
from django.utils.http import parse_etags

from .numbers import plain_int

# Its own cache (settings.CACHES["polls"]): two small entries per table.
poll_cache = ConnectionProxy(caches, "polls")
TIMEOUT = 10 * 60  # s
ROUND_FIELDS_READ = ("status", "ends_at", "paused_remaining")
ROUND_FIELDS = set(ROUND_FIELDS_READ)
# What the full views' answers vary on (a 304 says the same): htmx or not, the
# login (the views read it), the language, and the standings' compression.
SHEET_VARY = ("HX-Request", "Cookie", "Accept-Language")
STANDINGS_VARY = ("HX-Request", "Cookie", "Accept-Encoding", "Accept-Language")


def match_key(match_id: int) -> str:
    return f"poll-match-{match_id}"


def round_key(round_id: int) -> str:
    return f"poll-round-{round_id}"


# ------------------------------------------------------------------ the tags


def round_clock(status: str, ends_at, paused_remaining: int | None) -> str:
    """A round's state and clock as the sheet's tag holds it."""
    ends = ends_at.isoformat() if ends_at else "-"
    paused = "-" if paused_remaining is None else str(paused_remaining)
    return f"{status}/{ends}/{paused}"


def sheet_tag(version: int, clock: str | None, language: str) -> str:
    """What an open sheet shows, as its poll's ETag: the match version and,
    at a tournament table, its round's state and clock (a pause, added time
    or the end of the round answers the poll, with the new clock). The
    version comes first, before a "/": the poll tells a clock-only change
    by it. The language comes last, after a "-": an answer drawn in Urdu
    never stands for an English one. "<version>[/<round clock>]-<language>"."""
    return f"{version}/{clock}-{language}" if clock else f"{version}-{language}"


def standings_tag(generation: str, big: bool, language: str) -> str:
    """The standings poll's ETag: the generation shown, for the big screen or
    not, in one language (standings_cache)."""
    return f"{generation}-{'1' if big else '0'}-{language}"


def not_modified(tag: str, vary) -> HttpResponseNotModified:
    """The 304 of either poll, from the view or from the middleware alike."""
    response = HttpResponseNotModified()
    response["ETag"] = quote_etag(tag)
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, [v for v in vary if settings.USE_I18N or v != "Accept-Language"])
    return response


# ---------------------------------------------- the writes fill the cache


def match_saved(sender, instance, created=False, update_fields=None, raw=False, **kwargs) -> None:
    """post_save of a Match: its new version, for the next poll."""
    if raw:
        poll_cache.delete(match_key(instance.pk))  # loaddata: looked up again by the next poll
        return
    if created or (update_fields is not None and "version" not in update_fields):
        return  # a new match is nobody's page yet; a save that keeps the version changes no page
    entry = poll_cache.get(match_key(instance.pk))
    if entry is not None:
        where = entry[1:]
    elif type(instance).table.is_cached(instance):  # a write's locked read brought its table along
        table = getattr(instance, "table", None)
        where = (table.round_id, not table.round.tournament.is_public) if table else (0, False)
    else:
        from .models import Table

        table = Table.objects.filter(match_id=instance.pk).values_list("round_id", "round__tournament__is_public")
        round_id, public = table.first() or (0, True)
        where = (round_id, not public)
    poll_cache.set(match_key(instance.pk), (instance.version, *where), timeout=TIMEOUT)


def round_saved(sender, instance, update_fields=None, raw=False, **kwargs) -> None:
    """post_save of a Round: its state and clock, read back after the UPDATE
    (``instance`` may hold other fields as they were before a writer that
    saved only some of them)."""
    if update_fields is not None and not ROUND_FIELDS & set(update_fields):
        return
    from .models import Round

    row = None if raw else Round.objects.filter(pk=instance.pk).values_list(*ROUND_FIELDS_READ).first()
    if row is None:
        poll_cache.delete(round_key(instance.pk))  # loaddata: looked up again by the next poll
        return
    poll_cache.set(round_key(instance.pk), round_clock(*row), timeout=TIMEOUT)


def table_saved(sender, instance, created=False, **kwargs) -> None:
    """A match became a tournament table: its cached "no round" goes."""
    if created:
        poll_cache.delete(match_key(instance.match_id))


def match_deleted(sender, instance, **kwargs) -> None:
    poll_cache.delete(match_key(instance.pk))


def round_deleted(sender, instance, **kwargs) -> None:
    poll_cache.delete(round_key(instance.pk))


def connect() -> None:
    """Called once the app is ready (apps.py)."""
    from django.db.models.signals import post_delete, post_save

    from .models import Match, Round, Table

    post_save.connect(match_saved, sender=Match, dispatch_uid="scorekeeper.polls.match")
    post_save.connect(round_saved, sender=Round, dispatch_uid="scorekeeper.polls.round")
    post_save.connect(table_saved, sender=Table, dispatch_uid="scorekeeper.polls.table")
    post_delete.connect(match_deleted, sender=Match, dispatch_uid="scorekeeper.polls.match_deleted")
    post_delete.connect(round_deleted, sender=Round, dispatch_uid="scorekeeper.polls.round_deleted")


def remember_sheet(match_id: int, version: int, round_id: int | None, private: bool, clock: str | None) -> None:
    """What the sheet's poll view read from the database, for the polls
    after it: only where the cache holds nothing (a write's value is newer)."""
    poll_cache.add(match_key(match_id), (version, round_id or 0, private), timeout=TIMEOUT)
    if round_id:
        poll_cache.add(round_key(round_id), clock, timeout=TIMEOUT)


# ----------------------------------------------- the polls read the cache


def cached_sheet_tag(match_id: int, language: str) -> str | None:
    """The sheet poll's ETag as the cache has it; None: not all of it
    cached, or a private tournament's table (the view checks who asks)."""
    entry = poll_cache.get(match_key(match_id))
    if entry is None:
        return None
    version, round_id, private = entry
    if private:
        return None
    clock = None
    if round_id:
        clock = poll_cache.get(round_key(round_id))
        if clock is None:
            return None
    return sheet_tag(version, clock, language)


def cached_standings(tournament_id: int, big: bool, language: str) -> tuple[str, str] | None:
    """The standings poll's ETag while the cached generation is fresh (the
    view would answer from it too) and the tournament public, with the
    cache key of that generation's poll answer; None: the view looks
    again, or checks who asks."""
    from .tournaments.standings_cache import generation_key, poll_answer_key

    shown = cache.get(generation_key(tournament_id))
    if shown is None or not shown.public or time.time() - shown.looked_at >= settings.STANDINGS_REFRESH_SECONDS:
        return None
    return standings_tag(shown.value, big, language), poll_answer_key(tournament_id, shown.value, big, language)


def standings_answer(body: bytes, tag: str, accepts_gzip: bool) -> HttpResponse:
    """The screens' poll answer of a generation (``standings_cache.poll_answer``:
    compressed once), from the view or from the middleware alike: as it is
    to a client that takes gzip (every browser), else unpacked."""
    if accepts_gzip:
        response = HttpResponse(body, headers={"Content-Encoding": "gzip"})
    else:
        response = HttpResponse(gzip.decompress(body))
    response["ETag"] = quote_etag(tag)
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, [v for v in STANDINGS_VARY if settings.USE_I18N or v != "Accept-Language"])
    return response


def as_the_stack_would(response: HttpResponse, language: str) -> HttpResponse:
    """The headers the middleware after this one adds to a view's answer
    (the language, framing, the content policy), on one answered here
    (tests/test_polls.py compares both)."""
    from .middleware import CSP

    response["Content-Length"] = str(len(response.content))
    if settings.USE_I18N:
        response["Content-Language"] = language
    response["X-Frame-Options"] = settings.X_FRAME_OPTIONS
    response["Content-Security-Policy"] = CSP
    return response


def _path(name: str) -> re.Pattern | None:
    """The path of a URL named ``name`` with one id, as a pattern: from the
    URLconf, so a route moved is still recognised."""
    sentinel = 918273645
    try:
        path = reverse(name, args=[sentinel])
    except NoReverseMatch:
        return None
    return re.compile("^" + re.escape(path).replace(str(sentinel), "([0-9]{1,18})") + "$")


def _language(request) -> str:
    """The language LocaleMiddleware would choose (the cookie, else Accept-Language)."""
    if not settings.USE_I18N:
        return settings.LANGUAGE_CODE
    return translation.get_language_from_request(request)


def _asks_for(asked: str, tag: str) -> bool:
    """If-None-Match names the tag (weak comparison, as Django's own)."""
    quoted = quote_etag(tag)
    return any(etag.removeprefix("W/") == quoted for etag in parse_etags(asked))


def answer_unchanged_polls(get_response):
    """The 304 of an unchanged poll from the cache alone (see the module).
    Only GETs with If-None-Match of the two poll URLs are looked at; the
    standings only as htmx polls them (the whole page is always drawn)."""
    sheet = _path("match_changed")
    standings = _path("tournament_standings")

    def middleware(request):
        asked = request.META.get("HTTP_IF_NONE_MATCH")
        if asked and request.method == "GET" and settings.SESSION_COOKIE_NAME not in request.COOKIES:
            path = request.path_info
            if sheet and (found := sheet.match(path)):
                tag, vary = cached_sheet_tag(plain_int(found[1]), _language(request)), SHEET_VARY
            elif standings and (found := standings.match(path)) and request.META.get("HTTP_HX_REQUEST") == "true":
                big = request.GET.get("big") == "1"
                cached = cached_standings(plain_int(found[1]), big, _language(request))
                # Newer standings than the screen shows: while a hand is saved every moment, every
                # screen's poll (100 a second at 500 tables). Their answer is drawn and compressed once
                # per generation (standings_cache.poll_answer): sent from here as the view sends it.
                newer = cached is not None and not _asks_for(asked, cached[0])
                if newer and (body := cache.get(cached[1])) is not None:
                    request.get_host()  # ALLOWED_HOSTS, as CommonMiddleware would check it (400 otherwise)
                    accepts_gzip = "gzip" in request.META.get("HTTP_ACCEPT_ENCODING", "")
                    return as_the_stack_would(standings_answer(body, cached[0], accepts_gzip), _language(request))
                tag, vary = cached and cached[0], STANDINGS_VARY
            else:
                tag = None
            if tag is not None and _asks_for(asked, tag):
                request.get_host()  # ALLOWED_HOSTS, as CommonMiddleware would check it (400 otherwise)
                return not_modified(tag, vary)
        return get_response(request)

    return middleware
