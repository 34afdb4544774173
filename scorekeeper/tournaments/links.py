"""Table scoring links of a tournament: reissue, revoke, and the links
the table cards show. Each table has one link per side (``AccessLink.side``,
0 and 1: at a two-player table each player's, at a bigger one any two
phones): each side's phones score with their own, so the other side
checks a hand from its own phone, and the link that entered a hand cannot
check it. No token is kept anywhere: each is worked out from SECRET_KEY
when the cards are drawn (``access.links.token_for``), so any organiser
can print the cards again, on any device, without reissuing."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from ..access.links import token_for
from ..access.services import issue_link, reissue_link, revoke_match_links
from ..audit import Actor, record
from ..errors import ServiceError
from ..matches.wording import table_link_label
from ..models import AccessLink, AuditEvent, Round, Table

SIDES = (0, 1)
Action = AuditEvent.Action


def issue_table_links(table: Table, actor: Actor) -> list[str]:
    """A new table's links, one per side; their tokens, side 0 first."""
    rnd = table.round
    return [
        issue_link(
            match_id=table.match_id,
            label=table_link_label(rnd.tournament.name, rnd.number, table.number, side),
            actor=actor,
            side=side,
        )[1]
        for side in SIDES
    ]


def _reissue(table: Table, actor: Actor) -> list[str]:
    rnd = table.round
    return [
        reissue_link(
            match_id=table.match_id,
            label=table_link_label(rnd.tournament.name, rnd.number, table.number, side),
            actor=actor,
            side=side,
        )[1]
        for side in SIDES
    ]


def reissue_table_link(*, table_id: int, actor: Actor) -> list[str]:
    """The table's links in a new generation (the old tokens and the devices
    holding them stop at once); returns their tokens, side 0 first."""
    with transaction.atomic():
        table = Table.objects.select_related("round__tournament").get(pk=table_id)
        tokens = _reissue(table, actor)
        record(
            actor,
            tournament=table.round.tournament,
            action=Action.TABLE_LINK_ISSUED,
            after={"round": table.round.number, "table": table.number},
        )
    return tokens


def revoke_table_links(*, table_id: int, actor: Actor) -> int:
    """Revoke every active link of the table's match; returns how many."""
    with transaction.atomic():
        table = Table.objects.select_related("round__tournament").get(pk=table_id)
        revoked = revoke_match_links(match_id=table.match_id, actor=actor)
        record(
            actor,
            tournament=table.round.tournament,
            action=Action.TABLE_LINK_REVOKED,
            after={"round": table.round.number, "table": table.number, "revoked": revoked},
        )
    return revoked


def reissue_round_links(*, round_id: int, actor: Actor) -> dict[int, list[str]]:
    """New links for every table of a round (the old ones stop working)."""
    tokens: dict[int, list[str]] = {}
    with transaction.atomic():
        rnd = Round.objects.select_related("tournament").get(pk=round_id)
        if rnd.status == Round.Status.PROPOSED:
            raise ServiceError(_("This round is not published yet: it has no tables."), code="state")
        for table in Table.objects.filter(round=rnd).select_related("round__tournament").order_by("number"):
            tokens[table.pk] = _reissue(table, actor)
        record(
            actor,
            tournament=rnd.tournament,
            action=Action.ROUND_LINKS_ISSUED,
            after={"round": rnd.number, "tables": len(tokens)},
        )
    return tokens


def table_tokens(round_id: int) -> dict[int, dict[int, str]]:
    """{table_id: {side: token}} of the round's tables' working links (the
    newest of each side, if there are several), worked out now: one query."""
    links = (
        AccessLink.objects.filter(match__table__round_id=round_id, revoked_at__isnull=True)
        .annotate(table_pk=F("match__table__id"))
        .only("pk", "match_id", "generation", "created_at", "side")
        .order_by("created_at", "pk")
    )
    tokens: dict[int, dict[int, str]] = {}
    for link in links:
        tokens.setdefault(link.table_pk, {})[link.side or 0] = token_for(link)
    return tokens
