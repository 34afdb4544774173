"""Helpers shared by the tournament page tests: tournaments built through
the services, clients for organisers, spectators and table devices, and
the forms those devices post."""

from __future__ import annotations

from django.test import Client

from scorekeeper.access.services import issue_link
from scorekeeper.audit import SYSTEM, Actor
from scorekeeper.models import Match, Round, Table, Tournament
from scorekeeper.tournaments import services

from ..conftest import MODEL_BACKEND, basis, play

SPADES_100 = {"target": 100, "failed_nil_bags": False}


def client_for(user=None) -> Client:
    """A browser of its own: logged in as ``user``, or a spectator."""
    client = Client()
    if user is not None:
        client.force_login(user, backend=MODEL_BACKEND)
    return client


def make(user, names, game="spades", fmt="swiss", rounds=2, options=None, **kwargs) -> Tournament:
    """A tournament whose tables count as soon as they finish: the other
    side's confirmation (on by default) is tested in tests/matches/test_confirmation.py."""
    kwargs.setdefault("confirm_hands", False)
    actor = Actor.organiser(user)
    t = services.create_tournament(
        name=kwargs.pop("name", "Club Night"),
        game=game,
        format=fmt,
        rounds=rounds,
        options=options if options is not None else SPADES_100,
        actor=actor,
        **kwargs,
    )
    services.register_players(tournament_id=t.pk, text="\n".join(names), actor=actor)
    return t


def publish_next(t: Tournament, user) -> Round:
    actor = Actor.organiser(user)
    rnd = services.propose_round(tournament_id=t.pk, actor=actor)
    services.publish_round(round_id=rnd.pk, actor=actor)
    rnd.refresh_from_db()
    return rnd


def tables_of(rnd: Round) -> list[Table]:
    return list(Table.objects.filter(round=rnd).select_related("match").order_by("number"))


def build_round(user, players: int) -> Tournament:
    """Round 1 of a Swiss of ``players``: table 1 finished (bid 10 took 11,
    bid 2 took 2: 101 to 20), the other tables not started."""
    t = make(user, [f"Player {i:03d}" for i in range(players)], name=f"Q{players}")
    rnd = publish_next(t, user)
    play(tables_of(rnd)[0].match, {"bids": [10, 2], "tricks": [11, 2]})
    return t


def spades_form(match: Match, bids, tricks, **changes) -> dict:
    """A hand of Spades as the entry form of the match's page drawn now posts it."""
    return {
        "bids_0": str(bids[0]),
        "bids_1": str(bids[1]),
        "tricks_0": str(tricks[0]),
        "tricks_1": str(tricks[1]),
        **basis(match, **changes),
    }


def device_for(table: Table) -> Client:
    """A device that opened a new scoring link of the table's match."""
    _link, token = issue_link(match_id=table.match_id, label=f"table {table.number}", actor=SYSTEM)
    device = client_for()
    device.post(f"/l/{token}/")
    return device
