"""Reads of players: the list, a player's page (statistics, head-to-head,
recent matches, ratings) and the leaderboards, each in a fixed number of
queries whatever the number of matches."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, Max, Q, Sum

from ..i18n import game_name, shown
from ..models import Hand, Match, Player, Seat
from ..scoring import GAMES, get_game
from ..stats import Played, PlayerStats, player_stats
from ..stats.ratings import Rating, Result, leaderboard, rate
from . import figures

RECENT = 10


def all_players() -> list[Player]:
    return list(Player.objects.all())


def visible_matches(user) -> Q:
    """Matches whose results anyone may see: not those of a private
    tournament, unless the viewer is logged in as an organiser."""
    if user is not None and user.is_authenticated:
        return Q()
    return ~Q(table__round__tournament__is_public=False)


@dataclass
class PlayerPage:
    player: Player
    stats: PlayerStats
    recent: list[Match]
    names: dict[int, str]  # player id -> name, for head-to-head
    ratings: dict[str, Rating]  # game id -> this player's rating
    seat_of: dict[int, int]  # match id -> this player's seat

    @property
    def game_lines(self) -> list[tuple[str, str, list[tuple[str, str]]]]:
        """(game id, game name, [(label, value)]) of each game played."""
        return [
            (game, game_name(game), figures.lines(g, self.ratings.get(game)))
            for game, g in sorted(self.stats.games.items())
        ]

    @property
    def versus(self):
        rows = [(self.names.get(int(v.opponent), "?"), v) for v in self.stats.versus.values()]
        return sorted(rows, key=lambda row: (-row[1].played, row[0].casefold()))

    @property
    def recent_results(self) -> list[tuple[Match, int, bool]]:
        """(match, this player's seat, won) of the latest finished matches, oldest first."""
        rows = []
        for match in self.recent:
            seat = self.seat_of[match.pk]
            if match.status == Match.Status.FINISHED:
                rows.append((match, seat, get_game(match.game).spec.scorer_of(seat) in match.winners))
        return list(reversed(rows))


def player_page(player: Player, user=None) -> PlayerPage:
    """A stamp of the player's matches, then (unless the figures for that
    stamp are cached) the matches, their seats and their hands; the recent
    matches, the opponents' names and each game's ratings (cached)."""
    matches = Match.objects.filter(visible_matches(user), seats__player=player, copy_of__isnull=True).exclude(
        status=Match.Status.ABANDONED
    )
    agg = matches.aggregate(n=Count("pk"), last=Max("updated_at"), versions=Sum("version"))
    # Any write to one of the matches bumps its version and updated_at.
    last = agg["last"].timestamp() if agg["last"] else 0
    key = f"player:{player.pk}:{bool(user and user.is_authenticated)}:{agg['n']}:{last}:{agg['versions']}"
    stats = cache.get(key)
    if stats is None:
        stats = player_stats(str(player.pk), _played(matches))
        cache.set(key, stats, timeout=7 * 24 * 3600)
    recent = list(matches.order_by("-created_at", "-pk")[:RECENT])
    seat_of = dict(
        Seat.objects.filter(player=player, match__in=[m.pk for m in recent]).values_list("match_id", "position")
    )
    names = dict(Player.objects.filter(pk__in=[int(k) for k in stats.versus]).values_list("pk", "name"))
    ratings = {}
    for game in stats.games:
        rating = game_ratings(game).get(player.pk)
        if rating:
            ratings[game] = rating
    return PlayerPage(player, stats, recent, names, ratings, seat_of)


def _played(matches) -> list[Played]:
    """The matches as the statistics take them: three queries."""
    rows = list(matches.order_by("finished_at", "created_at", "pk"))
    ids = [m.pk for m in rows]
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for match_id, position, player_id in Seat.objects.filter(match_id__in=ids).values_list(
        "match_id", "position", "player_id"
    ):
        seats[match_id][position] = player_id
    hands: dict[int, list[dict]] = defaultdict(list)
    for match_id, entry in (
        Hand.objects.filter(match_id__in=ids).order_by("match_id", "number").values_list("match_id", "entry")
    ):
        hands[match_id].append(entry)
    return [
        Played(
            id=m.pk,
            match=m.engine_input(hands[m.pk]),
            seat_keys=tuple(str(seats[m.pk][i]) for i in range(len(seats[m.pk]))),
            finished=m.status == Match.Status.FINISHED,
            winners=tuple(m.winners),
            totals=tuple(m.totals),
            when=m.finished_at or m.created_at,
        )
        for m in rows
    ]


def results_stamp(game: str) -> str:
    """Changes whenever a finished result of ``game`` may have: a match
    finished, reopened, edited or corrected (each bumps its version)."""
    agg = Match.objects.filter(game=game, status=Match.Status.FINISHED, copy_of__isnull=True).aggregate(
        n=Count("pk"), last=Max("updated_at"), versions=Sum("version")
    )
    last = agg["last"].timestamp() if agg["last"] else 0
    return f"{agg['n']}:{last}:{agg['versions'] or 0}"


def game_ratings(game: str) -> dict[int, Rating]:
    """Every player's rating of ``game`` (by player id): worked out from all
    finished matches of the game in the order they ended, cached under the
    game's results stamp, so it always equals a fresh recomputation."""
    key = f"ratings:{game}:{results_stamp(game)}"
    ratings = cache.get(key)
    if ratings is None:
        ratings = rate(finished_results(game))
        cache.set(key, ratings, timeout=7 * 24 * 3600)
    return ratings


def finished_results(game: str) -> list[Result]:
    matches = list(
        Match.objects.filter(game=game, status=Match.Status.FINISHED, copy_of__isnull=True)
        .order_by("finished_at", "pk")
        .values_list("pk", "totals", "winners")
    )
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for match_id, position, player_id in Seat.objects.filter(
        match__game=game, match__status=Match.Status.FINISHED, match__copy_of__isnull=True
    ).values_list("match_id", "position", "player_id"):
        seats[match_id][position] = player_id
    sides = GAMES[game].spec.sides
    return [
        Result(tuple(seats[pk][i] for i in range(len(seats[pk]))), tuple(totals), tuple(winners), sides)
        for pk, totals, winners in matches
        if seats[pk]
    ]


def leaderboards() -> list[tuple[str, str, list[tuple[Rating, str]]]]:
    """(game id, game name, [(rating, player name)]) for every game."""
    boards = []
    for game_id, game in GAMES.items():
        board = leaderboard(game_ratings(game_id))
        names = dict(Player.objects.filter(pk__in=[r.key for r in board]).values_list("pk", "name"))
        boards.append((game_id, shown(game.spec.name), [(r, names.get(r.key, "?")) for r in board]))
    return boards
