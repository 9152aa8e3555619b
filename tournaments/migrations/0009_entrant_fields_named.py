"""A match seat and a disqualification name their entrant as ``entrant``, and a tournament's
entrants are ``tournament.entrants``: the columns are renamed, every stored row kept."""

from django.db import migrations, models
import django.db.models.deletion


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0008_table_players")]

    operations = [
        migrations.RemoveConstraint(model_name="matchseat", name="match_seat_once_per_round"),
        migrations.RenameField(model_name="matchseat", old_name="team", new_name="entrant"),
        migrations.AddConstraint(
            model_name="matchseat",
            constraint=models.UniqueConstraint(
                fields=["entrant", "round"], name="match_seat_once_per_round"
            ),
        ),
        migrations.RenameField(model_name="disqualification", old_name="team", new_name="entrant"),
        migrations.AlterField(
            model_name="entrant",
            name="tournament",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="entrants",
                to="tournaments.tournament",
            ),
        ),
    ]
