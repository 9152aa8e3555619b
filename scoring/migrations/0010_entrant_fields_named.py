"""Entries, reviews, standings and ranking points name their entrant as ``entrant``: the
columns are renamed, every stored row kept."""

from django.db import migrations, models
from django.db.models import Q


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0009_standings_stored_as_json"),
        ("tournaments", "0009_entrant_fields_named"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="submission", name="submission_from_north_names_its_team"
        ),
        migrations.RemoveConstraint(model_name="standing", name="standing_one_per_team"),
        migrations.RemoveConstraint(
            model_name="rankingpoints", name="ranking_points_one_per_team_board"
        ),
        migrations.RenameField(model_name="submission", old_name="team", new_name="entrant"),
        migrations.RenameField(model_name="review", old_name="team", new_name="entrant"),
        migrations.RenameField(model_name="standing", old_name="team", new_name="entrant"),
        migrations.RenameField(model_name="rankingpoints", old_name="team", new_name="entrant"),
        migrations.AlterModelOptions(
            name="standing",
            options={
                "ordering": [
                    "tournament",
                    models.OrderBy(models.F("place"), nulls_last=True),
                    "points",
                    "entrant__number",
                ]
            },
        ),
        migrations.AddConstraint(
            model_name="submission",
            constraint=models.CheckConstraint(
                condition=Q(source="director") | Q(entrant__isnull=False),
                name="submission_from_north_names_its_entrant",
            ),
        ),
        migrations.AddConstraint(
            model_name="standing",
            constraint=models.UniqueConstraint(
                fields=["tournament", "entrant"], name="standing_one_per_entrant"
            ),
        ),
        migrations.AddConstraint(
            model_name="rankingpoints",
            constraint=models.UniqueConstraint(
                fields=["match", "board", "entrant"], name="ranking_points_one_per_entrant_board"
            ),
        ),
    ]
