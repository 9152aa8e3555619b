from django.db import migrations, models
from django.db.models import F


def mark_standings_behind(apps, schema_editor):
    """Standings stored before this have no percentages: one more results version makes them
    stale, and the periodic reconcile ranks them again. Complete standings keep their places
    (by points); provisional ones are placed by percentage from then on, except in a
    tournament already final, whose table is left as it was approved."""
    StandingsState = apps.get_model("scoring", "StandingsState")
    StandingsState.objects.filter(computed_at__isnull=False).exclude(
        tournament__status="final", provisional=True
    ).update(results_version=F("results_version") + 1)


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
