"""Who made each hand as it stands, and the key of its check, kept on the
hand (matches/confirmation.py decides the other side's check from these);
a tournament table's links get a side; the audit log's actions a fixed set.

The hands already here get theirs from the last write of each recorded in
the audit log, once: from now on the hands hold them and nothing reads
them back from the log."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


WRITES_OF_A_HAND = ("hand recorded", "hand edited", "hand restored")
CHECKS = ("hand confirmed", "hand disputed")


def from_the_log(apps, schema_editor):
    Hand = apps.get_model("scorekeeper", "Hand")
    AuditEvent = apps.get_model("scorekeeper", "AuditEvent")
    writers, checks = {}, {}
    events = AuditEvent.objects.filter(action__in=WRITES_OF_A_HAND + CHECKS, hand_number__isnull=False)
    for match_id, number, action, link_id, user_id, after in events.order_by("at", "id").values_list(
        "match_id", "hand_number", "action", "link_id", "user_id", "after"
    ):
        if action in CHECKS:
            key = after.get("key") if isinstance(after, dict) else None
            checks[(match_id, number)] = key if isinstance(key, str) else None
        else:
            writers[(match_id, number)] = (link_id, user_id)
            checks.pop((match_id, number), None)  # a new version of the hand: its check is to come
    hands = list(Hand.objects.only("pk", "match_id", "number", "client_key"))
    for hand in hands:
        hand.entered_by_link_id, hand.entered_by_user_id = writers.get((hand.match_id, hand.number), (None, None))
        hand.entry_key = hand.client_key or ""
        hand.check_key = checks.get((hand.match_id, hand.number))
    Hand.objects.bulk_update(hands, ["entered_by_link", "entered_by_user", "entry_key", "check_key"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0009_backup_identity"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="accesslink",
            name="side",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="hand",
            name="check_key",
            field=models.CharField(blank=True, max_length=64, null=True),
        ),
        migrations.AddField(
            model_name="hand",
            name="entered_by_link",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="scorekeeper.accesslink",
            ),
        ),
        migrations.AddField(
            model_name="hand",
            name="entered_by_user",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="hand",
            name="entry_key",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AlterField(
            model_name="auditevent",
            name="action",
            field=models.CharField(
                choices=[
                    ("match started", "Match Started"),
                    ("match imported", "Match Imported"),
                    ("match abandoned", "Match Abandoned"),
                    ("match reopened", "Match Reopened"),
                    ("bids saved", "Bids Saved"),
                    ("bids cleared", "Bids Cleared"),
                    ("hand recorded", "Hand Recorded"),
                    ("hand edited", "Hand Edited"),
                    ("hand restored", "Hand Restored"),
                    ("hand undone", "Hand Undone"),
                    ("hand confirmed", "Hand Confirmed"),
                    ("hand disputed", "Hand Disputed"),
                    ("accepted as it is", "Accepted"),
                    ("corrected after the end", "Corrected After End"),
                    ("corrected after confirmation", "Corrected After Confirmation"),
                    ("ended early", "Ended Early"),
                    ("link issued", "Link Issued"),
                    ("link reissued", "Link Reissued"),
                    ("link revoked", "Link Revoked"),
                    ("links reopened", "Links Reopened"),
                    ("co-organiser added", "Co Organiser Added"),
                    ("player added", "Player Added"),
                    ("player renamed", "Player Renamed"),
                    ("tournament created", "Tournament Created"),
                    ("tournament imported", "Tournament Imported"),
                    ("tournament finished", "Tournament Finished"),
                    ("players registered", "Players Registered"),
                    ("player dropped", "Player Dropped"),
                    ("round proposed", "Round Proposed"),
                    ("round proposed again", "Round Proposed Again"),
                    ("round published", "Round Published"),
                    ("players swapped", "Players Swapped"),
                    ("round links issued", "Round Links Issued"),
                    ("table link issued", "Table Link Issued"),
                    ("table link revoked", "Table Link Revoked"),
                    ("table ended early", "Table Ended Early"),
                    ("round clock pause", "Round Clock Paused"),
                    ("round clock resume", "Round Clock Resumed"),
                    ("round clock add", "Round Clock Added"),
                    ("round ended", "Round Ended"),
                    ("round completed", "Round Completed"),
                ],
                db_index=True,
                max_length=40,
            ),
        ),
        migrations.RunPython(from_the_log, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.UniqueConstraint(fields=("match", "check_key"), name="hand_check_key_unique"),
        ),
    ]
