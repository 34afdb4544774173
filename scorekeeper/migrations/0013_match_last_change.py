# The newest change of a sheet kept on the match's row, so the live sheet's
# note and a refused write no longer read the audit log back. Matches still
# being played get theirs from the log once, here.

from django.db import migrations, models

SHEET_ACTIONS = [
    "bids saved",
    "bids cleared",
    "hand recorded",
    "hand edited",
    "hand restored",
    "hand undone",
    "match abandoned",
    "match reopened",
    "ended early",
]


def fill_in(apps, schema_editor):
    Match = apps.get_model("scorekeeper", "Match")
    AuditEvent = apps.get_model("scorekeeper", "AuditEvent")
    for match in Match.objects.filter(status="in_progress").only("pk"):
        event = (
            AuditEvent.objects.filter(match_id=match.pk, action__in=SHEET_ACTIONS)
            .select_related("user", "link")
            .order_by("-at", "-id")
            .first()
        )
        if event is None:
            continue
        link = event.link.label if event.link is not None else None
        user = event.user.get_username() if link is None and event.user is not None else None
        kept = {"action": event.action, "hand": event.hand_number, "link": link, "user": user, "at": event.at.isoformat()}
        Match.objects.filter(pk=match.pk).update(last_change=kept)


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0012_entrant_partner"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="last_change",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(fill_in, migrations.RunPython.noop),
    ]
