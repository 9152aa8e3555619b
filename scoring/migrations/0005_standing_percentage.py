from django.db import migrations, models
from django.db.models import F


def mark_standings_behind(apps, schema_editor):
    """Standings stored before this have no percentages: one more results version makes them
    stale, and the periodic reconcile ranks them again (the same places while complete)."""
    StandingsState = apps.get_model("scoring", "StandingsState")
    StandingsState.objects.filter(computed_at__isnull=False).update(
        results_version=F("results_version") + 1
    )


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0004_result_seats"),
    ]

    operations = [
        migrations.AddField(
            model_name="standing",
            name="percentage",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.RunPython(mark_standings_behind, migrations.RunPython.noop),
    ]
