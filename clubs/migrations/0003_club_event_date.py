"""A club event's date: the day it was played, as the organiser gives it; the events already
linked take the day their tournament was created."""

from django.db import migrations, models
from django.utils import timezone


def creation_day(apps, schema_editor):
    ClubEvent = apps.get_model("clubs", "ClubEvent")
    for event in ClubEvent.objects.select_related("tournament"):
        event.date = timezone.localdate(event.tournament.created_at)
        event.save(update_fields=["date"])


class Migration(migrations.Migration):
    dependencies = [("clubs", "0002_seasons")]

    operations = [
        migrations.AddField(
            model_name="clubevent",
            name="date",
            field=models.DateField(null=True, verbose_name="played on"),
        ),
        migrations.RunPython(creation_day, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="clubevent",
            name="date",
            field=models.DateField(verbose_name="played on"),
        ),
    ]
