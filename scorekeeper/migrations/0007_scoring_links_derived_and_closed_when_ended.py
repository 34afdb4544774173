"""Scoring links: tokens worked out from SECRET_KEY (no hash stored), and
closed for good when their match ends.

Links issued before this migration are replaced: their old tokens (of
which only a hash was stored) stop working, and the cards and share page
show each link's new token. A device that had already opened an old link
keeps scoring with it (its grant names the link, which stays). Matches that
have already ended get their links closed."""

from django.db import migrations, models
from django.db.models import F, Q


def close_links_of_ended_matches(apps, schema_editor):
    Match = apps.get_model("scorekeeper", "Match")
    ended = Q(status__in=["finished", "abandoned"]) | Q(table__round__status="complete")
    ended |= Q(table__round__tournament__status="finished") | Q(table__ended_early_at__isnull=False)
    ids = list(Match.objects.filter(ended).values_list("pk", flat=True))
    Match.objects.filter(pk__in=ids).update(links_closed_at=F("updated_at"))


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0006_tournament_seed_by_rating"),
    ]

    operations = [
        migrations.RemoveField(model_name="accesslink", name="token_hash"),
        migrations.AddField(
            model_name="accesslink",
            name="generation",
            field=models.PositiveIntegerField(default=1, help_text="Bumped when the link is revoked or reissued"),
        ),
        migrations.AddField(model_name="match", name="links_closed_at", field=models.DateTimeField(blank=True, null=True)),
        migrations.RunPython(close_links_of_ended_matches, migrations.RunPython.noop),
    ]
