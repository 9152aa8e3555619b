"""The entrant model is an Entrant (a pair or a single player), and a match names the
entrants at North and East; every stored tournament keeps its rows."""

import django.db.models.deletion
from django.db import migrations, models

OLD_ENTRANT_CONSTRAINTS = (
    "team_number_unique_in_tournament",
    "team_access_code_unique_in_tournament",
    "team_number_at_least_1",
    "team_name_not_empty",
)

ENTRANT_CONSTRAINTS = (
    models.UniqueConstraint(
        fields=("tournament", "number"), name="entrant_number_unique_in_tournament"
    ),
    models.UniqueConstraint(
        fields=("tournament", "access_code"), name="entrant_access_code_unique_in_tournament"
    ),
    models.CheckConstraint(condition=models.Q(number__gte=1), name="entrant_number_at_least_1"),
    models.CheckConstraint(condition=~models.Q(name=""), name="entrant_name_not_empty"),
)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_longer_deal_notation"),
        # Its first migration names the model that is renamed here.
        ("scoring", "0001_initial"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="match", name="match_ns_team_once_per_round"),
        migrations.RemoveConstraint(model_name="match", name="match_ew_team_once_per_round"),
        migrations.RemoveConstraint(model_name="match", name="match_teams_differ"),
        *(
            migrations.RemoveConstraint(model_name="team", name=name)
            for name in OLD_ENTRANT_CONSTRAINTS
        ),
        migrations.RenameModel(old_name="Team", new_name="Entrant"),
        *(
            migrations.AddConstraint(model_name="entrant", constraint=constraint)
            for constraint in ENTRANT_CONSTRAINTS
        ),
        migrations.RenameField(model_name="match", old_name="ns_team", new_name="north_entrant"),
        migrations.RenameField(model_name="match", old_name="ew_team", new_name="east_entrant"),
        migrations.AlterField(
            model_name="match",
            name="north_entrant",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.RESTRICT,
                related_name="matches_at_north",
                to="tournaments.entrant",
            ),
        ),
        migrations.AlterField(
            model_name="match",
            name="east_entrant",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.RESTRICT,
                related_name="matches_at_east",
                to="tournaments.entrant",
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.UniqueConstraint(
                fields=("north_entrant", "round"), name="match_north_entrant_once_per_round"
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.UniqueConstraint(
                fields=("east_entrant", "round"), name="match_east_entrant_once_per_round"
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.CheckConstraint(
                condition=~models.Q(north_entrant=models.F("east_entrant")),
                name="match_entrants_differ",
            ),
        ),
    ]
