"""A board's table results are named for the seats whose they are: North's and East's."""

import django.db.models.deletion
from django.db import migrations, models


def _entrant(related_name: str, optional: bool = False) -> models.ForeignKey:
    return models.ForeignKey(
        blank=optional,
        null=optional,
        on_delete=django.db.models.deletion.CASCADE,
        related_name=related_name,
        to="tournaments.entrant",
    )


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0006_submission_deal_disagreement"),
        ("tournaments", "0005_entrant_and_match_seats_named"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="result", name="result_has_table_results_unless_passed_out"
        ),
        migrations.RenameField(
            model_name="submission", old_name="ns_result", new_name="north_result"
        ),
        migrations.RenameField(
            model_name="submission", old_name="ew_result", new_name="east_result"
        ),
        migrations.RenameField(model_name="result", old_name="ns_result", new_name="north_result"),
        migrations.RenameField(model_name="result", old_name="ew_result", new_name="east_result"),
        migrations.AddConstraint(
            model_name="result",
            constraint=models.CheckConstraint(
                condition=models.Q(passed_out=True)
                | (models.Q(north_result__isnull=False) & models.Q(east_result__isnull=False)),
                name="result_has_table_results_unless_passed_out",
            ),
        ),
        # The entrant model's new name in the state of the fields that point at it.
        migrations.AlterField(
            model_name="rankingpoints", name="team", field=_entrant("ranking_points")
        ),
        migrations.AlterField(model_name="review", name="team", field=_entrant("+", optional=True)),
        migrations.AlterField(model_name="standing", name="team", field=_entrant("standings")),
        migrations.AlterField(
            model_name="submission", name="team", field=_entrant("+", optional=True)
        ),
    ]
