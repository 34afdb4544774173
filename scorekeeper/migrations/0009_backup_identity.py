"""Every match and tournament gets the uid its backups carry, so a backup
restored again is recognised (scorekeeper/backups/restore.py).

The rows already here get the uid a version 1 backup of them is known by
(scorekeeper/backups/identity.py). A row whose uid an earlier row already
holds was that earlier one restored a second time (version 1 restores made
a new copy each time): it keeps a fresh uid and is marked a copy of the
first, so those games count once in the players' records and ratings."""

import uuid
from collections import defaultdict

from django.db import migrations, models

from scorekeeper.backups.identity import legacy_match_uid, legacy_tournament_uid


def give_uids(apps, schema_editor):
    Match = apps.get_model("scorekeeper", "Match")
    Tournament = apps.get_model("scorekeeper", "Tournament")
    Table = apps.get_model("scorekeeper", "Table")
    Entrant = apps.get_model("scorekeeper", "Entrant")

    def assign(row, known_by, taken):
        if known_by in taken:
            row.uid, row.copy_of = uuid.uuid4(), known_by
        else:
            row.uid = known_by
            taken.add(known_by)

    legacy = {}
    taken = set()
    matches = list(Match.objects.order_by("pk").only("pk", "game", "created_at"))
    for m in matches:
        legacy[m.pk] = legacy_match_uid(m.game, m.created_at)
        assign(m, legacy[m.pk], taken)
    Match.objects.bulk_update(matches, ["uid", "copy_of"], batch_size=500)

    match_ids = defaultdict(list)
    for tournament_id, match_id in Table.objects.values_list("round__tournament_id", "match_id"):
        match_ids[tournament_id].append(match_id)
    entrants = defaultdict(list)
    for tournament_id, name in Entrant.objects.values_list("tournament_id", "player__name"):
        entrants[tournament_id].append(name)
    taken = set()
    tournaments = list(Tournament.objects.order_by("pk").only("pk", "name", "game", "format"))
    for t in tournaments:
        known_by = legacy_tournament_uid(
            t.name, t.game, t.format, [legacy[i] for i in match_ids[t.pk]], entrants[t.pk]
        )
        assign(t, known_by, taken)
    Tournament.objects.bulk_update(tournaments, ["uid", "copy_of"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0008_round_clock")]

    operations = [
        *(
            op
            for model in ("match", "tournament")
            for op in (
                migrations.AddField(model, "uid", models.UUIDField(null=True, editable=False)),
                migrations.AddField(
                    model,
                    "restored_at",
                    models.DateTimeField(blank=True, editable=False, help_text="Restored from a backup", null=True),
                ),
                migrations.AddField(model, "copy_of", models.UUIDField(blank=True, editable=False, null=True)),
            )
        ),
        migrations.RunPython(give_uids, migrations.RunPython.noop),
        migrations.AlterField("match", "uid", models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
        migrations.AlterField("tournament", "uid", models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
    ]
