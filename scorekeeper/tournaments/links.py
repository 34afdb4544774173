"""Table scoring links of a tournament: re-issue, revoke, and the tokens
the issuing organiser's device keeps to print the table cards."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from ..access.links import hash_token
from ..access.services import issue_link, revoke_match_links
from ..audit import Actor, record
from ..errors import ServiceError
from ..models import AccessLink, Round, Table
from .services import table_link_label

SESSION_TOKENS = "table_tokens"
TOKEN_ROUNDS_KEPT = 3  # a session keeps the tokens of the last few rounds only


def reissue_table_link(*, table_id: int, actor: Actor) -> str:
    """Revoke the table's active links and issue a new one; returns its token."""
    with transaction.atomic():
        table = Table.objects.select_related("round__tournament").get(pk=table_id)
        revoked = revoke_match_links(match_id=table.match_id, actor=actor)
        _link, token = issue_link(
            match_id=table.match_id,
            label=table_link_label(table.round.tournament, table.round.number, table.number),
            actor=actor,
        )
        record(
            actor,
            tournament=table.round.tournament,
            action="table link issued",
            after={"round": table.round.number, "table": table.number, "revoked": revoked},
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
        revoked = 0
        for table in Table.objects.filter(round=rnd).order_by("number"):
            revoked += revoke_match_links(match_id=table.match_id, actor=actor)
            _link, token = issue_link(
                match_id=table.match_id, label=table_link_label(rnd.tournament, rnd.number, table.number), actor=actor
            )
            tokens[table.pk] = token
        record(
            actor,
            tournament=rnd.tournament,
            action="round links issued",
            after={"round": rnd.number, "tables": len(tokens), "revoked": revoked},
        )
    return tokens


def active_tokens(round_id: int, tokens: dict) -> dict[int, str]:
    """Of the tokens a session holds for a round ({table_id: token}), those
    whose link still works (not revoked or replaced since): one query."""
    wanted = {}
    for table_id, token in (tokens or {}).items():
        try:
            wanted[hash_token(str(token))] = (int(table_id), str(token))
        except (TypeError, ValueError):
            continue
    alive = set(
        AccessLink.objects.filter(
            token_hash__in=list(wanted), revoked_at__isnull=True, match__table__round_id=round_id
        ).values_list("token_hash", flat=True)
    )
    return {table_id: token for h, (table_id, token) in wanted.items() if h in alive}


def remember_tokens(session, round_id: int, tokens: dict[int, str]) -> None:
    """Keep freshly issued tokens in the organiser's session (merged per round)."""
    stored = dict(session.get(SESSION_TOKENS, {}))
    current = dict(stored.pop(str(round_id), {}))
    current.update({str(k): v for k, v in tokens.items()})
    # newest rounds last; keep a few
    keys = list(stored)[-(TOKEN_ROUNDS_KEPT - 1) :] if TOKEN_ROUNDS_KEPT > 1 else []
    session[SESSION_TOKENS] = {**{k: stored[k] for k in keys}, str(round_id): current}


def session_tokens(session, round_id: int) -> dict:
    return dict(session.get(SESSION_TOKENS, {}).get(str(round_id), {}))
