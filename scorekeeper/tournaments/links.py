"""Table scoring links of a tournament: reissue, revoke, and the links
the table cards show. No token is kept anywhere: each is worked out from
SECRET_KEY when the cards are drawn (``access.links.token_for``), so any
organiser can print the cards again, on any device, without reissuing."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from ..access.links import token_for
from ..access.services import reissue_link, revoke_match_links
from ..audit import Actor, record
from ..errors import ServiceError
from ..matches.wording import table_link_label
from ..models import AccessLink, Round, Table


def reissue_table_link(*, table_id: int, actor: Actor) -> str:
    """The table's link in a new generation (the old token and the devices
    holding it stop at once); returns its token."""
    with transaction.atomic():
        table = Table.objects.select_related("round__tournament").get(pk=table_id)
        _link, token = reissue_link(
            match_id=table.match_id,
            label=table_link_label(table.round.tournament.name, table.round.number, table.number),
            actor=actor,
        )
        record(
            actor,
            tournament=table.round.tournament,
            action="table link issued",
            after={"round": table.round.number, "table": table.number},
        )
    return token


def revoke_table_links(*, table_id: int, actor: Actor) -> int:
    """Revoke every active link of the table's match; returns how many."""
    with transaction.atomic():
        table = Table.objects.select_related("round__tournament").get(pk=table_id)
        revoked = revoke_match_links(match_id=table.match_id, actor=actor)
        record(
            actor,
            tournament=table.round.tournament,
            action="table link revoked",
            after={"round": table.round.number, "table": table.number, "revoked": revoked},
        )
    return revoked


def reissue_round_links(*, round_id: int, actor: Actor) -> dict[int, str]:
    """New links for every table of a round (the old ones stop working)."""
    tokens: dict[int, str] = {}
    with transaction.atomic():
        rnd = Round.objects.select_related("tournament").get(pk=round_id)
        if rnd.status == Round.Status.PROPOSED:
            raise ServiceError(_("This round is not published yet: it has no tables."), code="state")
        for table in Table.objects.filter(round=rnd).order_by("number"):
            _link, token = reissue_link(
                match_id=table.match_id,
                label=table_link_label(rnd.tournament.name, rnd.number, table.number),
                actor=actor,
            )
            tokens[table.pk] = token
        record(
            actor,
            tournament=rnd.tournament,
            action="round links issued",
            after={"round": rnd.number, "tables": len(tokens)},
        )
    return tokens


def table_tokens(round_id: int) -> dict[int, str]:
    """{table_id: token} of the round's tables that have a working link
    (the newest, if a table has several), worked out now: one query."""
    links = (
        AccessLink.objects.filter(match__table__round_id=round_id, revoked_at__isnull=True)
        .annotate(table_pk=F("match__table__id"))
        .only("pk", "match_id", "generation", "created_at")
        .order_by("created_at", "pk")
    )
    return {link.table_pk: token_for(link) for link in links}
