"""A player's figures in words, per game: the pure statistics
(scorekeeper/stats) given labels the reader's language can translate."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..stats import GameStats
from ..stats.ratings import Rating


def percent(value: float | None) -> str:
    return "—" if value is None else f"{round(100 * value)} %"


def decimal(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"


def of(made: int, attempts: int) -> str:
    return f"{made} / {attempts}" + (f" ({percent(made / attempts)})" if attempts else "")


def general(g: GameStats, rating: Rating | None) -> list[tuple[str, str]]:
    lines = [
        (_("Matches"), _("%(played)d (%(finished)d finished)") % {"played": g.played, "finished": g.finished}),
        (_("Won"), f"{g.won} ({percent(g.win_rate)})"),
        (_("Average final score"), decimal(g.average_final)),
        (_("Points per hand"), decimal(g.points_per_hand)),
        (_("Best hand"), "—" if g.best_hand is None else str(g.best_hand)),
        (_("Longest winning run"), str(g.longest_run)),
    ]
    if rating:
        words = ngettext("%(r)s after %(n)d match", "%(r)s after %(n)d matches", rating.matches) % {
            "r": decimal(rating.ordinal),
            "n": rating.matches,
        }
        lines.append((_("Rating"), words))
    return lines


def spades(g: GameStats) -> list[tuple[str, str]]:
    return [
        (_("Bid exactly"), of(g.exact, g.bids)),
        (_("Set"), of(g.set, g.bids)),
        (_("Bags per hand"), decimal(g.bags_per_hand)),
        (_("Bag penalties"), str(g.bag_penalties)),
        (_("Nil made"), of(g.nil[1], g.nil[0])),
        (_("Blind Nil made"), of(g.blind_nil[1], g.blind_nil[0])),
    ]


def ohhell(g: GameStats) -> list[tuple[str, str]]:
    lines = [
        (_("Bid exactly"), of(g.exact, g.bids)),
        (_("Average place"), decimal(g.average_place)),
        (_("Shared wins"), str(g.shared_wins)),
    ]
    lines += [(_("Bid %(b)d made") % {"b": bid}, of(made, n)) for bid, made, n, _rate in g.exact_by_bid()]
    return lines


def drawbridge(g: GameStats) -> list[tuple[str, str]]:
    return [
        (_("Contracts declared"), str(g.declared)),
        (_("Made"), of(g.made, g.declared)),
        (_("Doubled, made"), of(g.doubled[0], g.doubled[1])),
        (_("Redoubled, made"), of(g.redoubled[0], g.redoubled[1])),
        (_("Average undertricks when set"), decimal(g.average_undertricks)),
    ]


def sixtysix(g: GameStats) -> list[tuple[str, str]]:
    return [
        (_("Game points per deal"), decimal(g.points_per_hand)),
        (_("Closed the stock"), of(g.closes_won, g.closes)),
        (_("Deals won by going out"), str(g.won_going_out)),
        (_("Deals won by playing out"), str(g.won_playing_out)),
        (_("Deals won when the other's claim or close failed"), str(g.won_on_failure)),
    ]


def partnership_spades(g: GameStats) -> list[tuple[str, str]]:
    return [
        (_("Contracts made (with the partner)"), of(g.made, g.declared)),
        (_("Bags per hand (the side's)"), decimal(g.bags_per_hand)),
        (_("Bag penalties"), str(g.bag_penalties)),
        (_("Nil made"), of(g.nil[1], g.nil[0])),
        (_("Blind Nil made"), of(g.blind_nil[1], g.blind_nil[0])),
    ]


def courtpiece(g: GameStats) -> list[tuple[str, str]]:
    return [
        (_("Deals won (with the partner)"), of(g.deals_won, g.hands)),
        (_("Kots (goon kots included)"), str(g.kots)),
        (_("Bavneys"), str(g.bavneys)),
        (_("Courts for deals in a row"), str(g.run_courts)),
    ]


PER_GAME = {
    "spades": spades,
    "ohhell": ohhell,
    "drawbridge": drawbridge,
    "sixtysix": sixtysix,
    "partnership_spades": partnership_spades,
    "courtpiece": courtpiece,
}


def lines(g: GameStats, rating: Rating | None) -> list[tuple[str, str]]:
    return general(g, rating) + PER_GAME.get(g.game, lambda g: [])(g)
