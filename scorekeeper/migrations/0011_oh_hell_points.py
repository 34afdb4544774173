"""How a seated event counts its Oh Hell tables, chosen per event:
placement points (the default, and what every event so far used, now
2 for a table's winner to 0 for its last at any size) or total score."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scorekeeper', '0010_hand_entered_by_and_link_sides'),
    ]

    operations = [
        migrations.AddField(
            model_name='tournament',
            name='oh_hell_points',
            field=models.CharField(choices=[('placement', 'Placement points'), ('total_score', 'Total score')], default='placement', max_length=12, verbose_name='Oh Hell points'),
        ),
    ]
