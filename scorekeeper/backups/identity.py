"""Who a match or tournament is, across backups.

A backup of version 2 carries each match's and tournament's ``uid``. One
of version 1 (before uids) did not: its matches and tournaments are known
by what cannot change once they exist, worked out the same way here and
in the migration that gave the rows already in a database their uid
(0009), so a version 1 file restored again is recognised too.

Plain functions of plain values: no database.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime

NAMESPACE = uuid.UUID("6f1c7d3e-8a52-4c1b-9a57-3f0c2b9e4d11")  # Scorekeeper's own: never change it


def _stamp(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")


def legacy_match_uid(game: str, created_at: datetime) -> uuid.UUID:
    """A match of a version 1 backup: its game and the moment it started
    (to the microsecond; a restore kept that moment)."""
    return uuid.uuid5(NAMESPACE, json.dumps(["match", game, _stamp(created_at)]))


def legacy_tournament_uid(name: str, game: str, format: str, match_uids: list, entrant_names: list[str]) -> uuid.UUID:
    """A tournament of a version 1 backup (which kept no start time): its
    name, game and format with the uids of its matches, or before it had
    any, the names of its entrants."""
    who = sorted(str(u) for u in match_uids) or sorted(" ".join(n.split()).casefold() for n in entrant_names)
    return uuid.uuid5(NAMESPACE, json.dumps(["tournament", name.strip(), game, format, who]))
