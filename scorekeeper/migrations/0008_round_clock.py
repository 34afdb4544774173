from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0007_scoring_links_derived_and_closed_when_ended"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="paused_remaining",
            field=models.PositiveIntegerField(
                blank=True, help_text="Seconds left when the organiser paused the round's clock", null=True
            ),
        ),
    ]
