"""The one driver for every game: checks a match dict (RULES.md 1.1-1.3),
walks its hands through the game module and builds the result (1.2)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Collection
from typing import Any

from .base import Game, HandError, InvalidHand, _, check_bool, check_int, describe, is_bool, is_int, message_of
from .registry import game_ids, get_game

TOP_LEVEL_KEYS = {"game", "players", "options", "hands"}
REQUIRED_TOP_LEVEL = ("game", "players", "hands")
GAME_OVER = _("the game is already over")


def _in_hand(k: int, problem: str) -> str:
    """ "Hand 3: <problem>": the table counts hands from 1 (RULES.md 1.3)."""
    # Translators: %(problem)s is one of the engine's messages about a hand, e.g. "tricks add up to 12, ...".
    return _("Hand %(number)s: %(problem)s", number=k + 1, problem=problem)


def parse_match(match: Any) -> tuple[Game, list[str], dict, list]:
    """Check everything but the hands themselves, in the order of RULES.md 1.3.
    Returns the game module, the players, the options with defaults filled in
    and the list of hands."""
    if not isinstance(match, dict):
        raise InvalidHand(_("A match must be a JSON object, got %(value)s", value=describe(match)))
    unknown = sorted(set(match) - TOP_LEVEL_KEYS, key=str)
    if unknown:
        raise InvalidHand(_("Unknown match entry %(keys)s", keys=", ".join(describe(k) for k in unknown)))
    for key in REQUIRED_TOP_LEVEL:
        if key not in match:
            raise InvalidHand(_('The match needs "%(key)s"', key=key))

    game_id = match["game"]
    known_ids = game_ids()
    if not isinstance(game_id, str) or game_id not in known_ids:
        known = ", ".join(f'"{g}"' for g in known_ids)
        raise InvalidHand(_("Unknown game %(value)s; the games are %(games)s", value=describe(game_id), games=known))
    game = get_game(game_id)

    players = _check_players(match["players"], game)
    options = _check_options(match.get("options"), game, players)

    hands = match["hands"]
    if type(hands) is not list:
        raise InvalidHand(_("The hands must be a list, got %(value)s", value=describe(hands)))
    return game, players, options, hands


def _check_players(players: Any, game: Game) -> list[str]:
    spec = game.spec
    if type(players) is not list:
        raise InvalidHand(_("The players must be a list of names, got %(value)s", value=describe(players)))
    for i, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            raise InvalidHand(_("Player %(n)s needs a name, got %(value)s", n=i + 1, value=describe(name)))
    seen = set()
    for name in players:
        if name in seen:
            raise InvalidHand(_('Two players are called "%(name)s"; every player needs a different name', name=name))
        seen.add(name)
    n = len(players)
    if not spec.min_players <= n <= spec.max_players:
        if spec.min_players == spec.max_players:
            raise InvalidHand(
                _("%(game)s is for exactly %(n)s players, got %(got)s", game=spec.name, n=spec.min_players, got=n)
            )
        raise InvalidHand(
            _(
                "%(game)s is for %(lo)s to %(hi)s players, got %(got)s",
                game=spec.name,
                lo=spec.min_players,
                hi=spec.max_players,
                got=n,
            )
        )
    return players


def _check_options(options: Any, game: Game, players: list[str]) -> dict:
    spec = game.spec
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise InvalidHand(_("The options must be an object, got %(value)s", value=describe(options)))
    known = {o.name: o for o in spec.options}
    for name in options:
        if name not in known:
            raise InvalidHand(_("%(game)s has no option %(value)s", game=spec.name, value=describe(name)))
    result = {}
    for option in spec.options:
        value = options.get(option.name, option.default)
        what = lambda name=option.name: _('The option "%(name)s"', name=name)  # noqa: E731 (built only on failure)
        try:
            if value is None and option.nullable:
                pass  # the option is off
            elif option.kind == "int":
                check_int(value, option.minimum, option.maximum, what)
            elif option.kind == "bool":
                check_bool(value, what)
            elif value not in [c for c, _label in option.choices] or not isinstance(value, str):
                allowed = ", ".join(f'"{c}"' for c, _label in option.choices)
                raise HandError(
                    _(
                        "%(what)s must be one of %(allowed)s, got %(value)s",
                        what=what(),
                        allowed=allowed,
                        value=describe(value),
                    )
                )
        except HandError as error:
            raise InvalidHand(message_of(error)) from None
        result[option.name] = value
    try:
        game.check_options(result, players)
    except HandError as error:
        raise InvalidHand(message_of(error)) from None
    return result


@functools.cache
def _explains_on_demand(game: Game) -> bool:
    """Does the game's score_hand take ``explain`` (and skip its why-lines
    when not asked)? A game written without it is scored as before."""
    return "explain" in inspect.signature(game.score_hand).parameters


def run(match: Any, explain: bool = False) -> dict:
    """Score a whole match; with ``explain`` each hand also gets ``why``."""
    return _walk(match, explain)[2]


def _walk(match: Any, explain: bool | Collection[int]) -> tuple[Game, Any, dict]:
    """``explain``: every hand's why-lines, or those of the hands (0-based) named."""
    game, players, options, hands = parse_match(match)
    state = game.new_state(players, options)
    lazy = _explains_on_demand(game)
    # one total per side in a game with partnerships (RULES.md 1.5), else per player
    totals = [0] * (len(game.spec.sides) or len(players))
    scored = []
    finished = False
    for k, hand in enumerate(hands):
        why = explain if isinstance(explain, bool) else k in explain
        if finished:
            raise InvalidHand(_in_hand(k, GAME_OVER), k)
        if not isinstance(hand, dict):
            raise InvalidHand(_in_hand(k, _("a hand must be an object, got %(value)s", value=describe(hand))), k)
        try:
            game.check_hand(state, hand, k)
            score = game.score_hand(state, hand, k, why) if lazy else game.score_hand(state, hand, k)
        except HandError as error:
            raise InvalidHand(_in_hand(k, message_of(error)), k) from None
        totals = [t + p for t, p in zip(totals, score.points, strict=True)]
        row = {"points": score.points, "totals": totals, **score.details}
        if why:
            row["why"] = score.why
        scored.append(row)
        finished = game.is_over(state, totals, k + 1)
    result = {
        "hands": scored,
        "totals": list(totals),  # a copy: callers may change it without touching the last hand
        "finished": finished,
        "winners": game.winners(state, totals) if finished else [],
        "next_hand": None if finished else game.next_hand(state, len(hands)),
    }
    if game.spec.sides:
        result["sides"] = [list(side) for side in game.spec.sides]
    return game, state, result


def check_bidding(match: Any, bidding: Any) -> None:
    """RULES.md 1.4: is ``bidding`` a legal start of the next hand?"""
    game, state, result = _walk(match, explain=False)
    _check_bidding(game, state, result, len(match["hands"]), bidding)


def _check_bidding(game: Game, state: Any, result: dict, k: int, bidding: Any) -> None:
    if result["finished"]:
        raise InvalidHand(_in_hand(k, GAME_OVER), k)
    if not isinstance(bidding, dict):
        raise InvalidHand(_in_hand(k, _("the bidding must be an object, got %(value)s", value=describe(bidding))), k)
    try:
        game.check_bidding(state, bidding, k)
    except HandError as error:
        raise InvalidHand(_in_hand(k, message_of(error)), k) from None


def entry_hints(match: Any, bidding: dict | None = None) -> dict:
    """What an entry form for the next hand needs (limits, forbidden bid).
    ``bidding`` may be partial; hints never raise for it."""
    game, state, result = _walk(match, explain=False)
    if result["finished"]:
        return {}
    return game.hints(state, len(match["hands"]), bidding)


def score_with_hints(
    match: Any, bidding: dict | None = None, *, explain: Collection[int] = (), check: bool = False
) -> tuple[dict, dict]:
    """score_match and entry_hints in one pass over the hands, for the app's
    score sheet (drawn after every saved hand). ``explain``: the hands
    (0-based) that get their why-lines; ``check``: ``bidding`` must be a
    legal start of the next hand (``check_bidding``), else InvalidHand."""
    game, state, result = _walk(match, explain=explain)
    k = len(match["hands"])
    if check:
        _check_bidding(game, state, result, k, bidding)
    hints = {} if result["finished"] else game.hints(state, k, bidding)
    return result, hints


def preview_hand(match: Any, hand: Any) -> dict:
    """Score ``hand`` as the next hand of ``match`` without storing it:
    returns the new hand's row (points, totals, details, why) and the
    match's finished/winners after it. Raises InvalidHand like score_match."""
    parse_match(match)  # a bad match is reported as such, not as a bad new hand
    extended = {**match, "hands": [*match["hands"], hand]}
    result = run(extended, explain=True)
    return {
        "hand": result["hands"][-1],
        "finished": result["finished"],
        "winners": result["winners"],
    }


__all__ = [
    "InvalidHand",
    "check_bidding",
    "entry_hints",
    "is_bool",
    "is_int",
    "parse_match",
    "preview_hand",
    "run",
    "score_with_hints",
]
