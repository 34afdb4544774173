from django.db import migrations, models


def fill_player_names(apps, schema_editor):
    """Every match keeps its players' names in seat order, from its seats."""
    Match = apps.get_model("scorekeeper", "Match")
    Seat = apps.get_model("scorekeeper", "Seat")
    names: dict[int, list[tuple[int, str]]] = {}
    for match_id, position, name in Seat.objects.values_list("match_id", "position", "player__name"):
        names.setdefault(match_id, []).append((position, name))
    for match in Match.objects.all():
        match.player_names = [name for _position, name in sorted(names.get(match.pk, []))]
        match.save(update_fields=["player_names"])


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0003_game_from_the_registry"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="player_names",
            field=models.JSONField(blank=True, default=list, editable=False),
        ),
        migrations.RunPython(fill_player_names, migrations.RunPython.noop),
    ]
