"""Which tournament formats fit which game: games for two are paired
(round robin, double round robin, Swiss), and so are the games with
partnerships, whose entrants are fixed pairs (a pairs event: two pairs a
table); other games for three or more are seated at tables. Worked out
from each game's spec, so a new game needs nothing here."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..i18n import shown_spec
from ..models import Tournament
from ..scoring import GAMES

Format = Tournament.Format
TWO_PLAYER_FORMATS = (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN, Format.SWISS)
SEATED_FORMATS = (Format.SEATED,)
ROUND_ROBIN_FORMATS = (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN)
MIN_TABLE, MAX_TABLE = 3, 7


def is_two_player(game: str) -> bool:
    """Two entrants a table: two players, or two pairs (``is_pairs``)."""
    return GAMES[game].spec.max_players == 2 or is_pairs(game)


def is_pairs(game: str) -> bool:
    """An event of a game with partnerships: each entrant is a fixed pair."""
    return GAMES[game].spec.has_sides


def formats_for(game: str) -> tuple[str, ...]:
    """The formats that fit a game: games for two pair, larger games seat."""
    if game not in GAMES:
        return ()
    return TWO_PLAYER_FORMATS if is_two_player(game) else SEATED_FORMATS


def format_mismatch_message(game: str) -> str:
    spec = shown_spec(GAMES[game].spec)
    if is_pairs(game):
        return _(
            "%(game)s is played by pairs, two pairs a table: play it as a round robin, a double round robin "
            "or a Swiss of pairs."
        ) % {"game": spec.name}
    if is_two_player(game):
        return _(
            "%(game)s is a two-player game: play it as a round robin, a double round robin or a Swiss. "
            "Seated rounds are for games of three or more."
        ) % {"game": spec.name}
    return _(
        "%(game)s is played at tables of %(a)d to %(b)d players: choose seated rounds. "
        "Round robins and Swiss events are for two-player games."
    ) % {"game": spec.name, "a": spec.min_players, "b": spec.max_players}
