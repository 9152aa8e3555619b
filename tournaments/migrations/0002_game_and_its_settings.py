"""A tournament names its game and keeps that game's settings as data: Pymtheg's seven columns
(ruleset, three house rules, direction, opening rule and seat) move into ``game_settings``."""

from django.db import migrations, models

import tournaments.models

PYMTHEG_COLUMNS = (
    "ruleset",
    "direction",
    "opening_rule",
    "opening_seat",
    "all_tricks_bonus",
    "heavy_failure_penalty",
    "illegal_trump_penalty",
)


def columns_to_settings(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament in Tournament.objects.all().only("pk", *PYMTHEG_COLUMNS):
        settings = {name: getattr(tournament, name) for name in PYMTHEG_COLUMNS}
        Tournament.objects.filter(pk=tournament.pk).update(game="pymtheg", game_settings=settings)


def settings_to_columns(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament in Tournament.objects.filter(game="pymtheg"):
        for name in PYMTHEG_COLUMNS:
            if name in tournament.game_settings:
                setattr(tournament, name, tournament.game_settings[name])
        tournament.save(update_fields=list(PYMTHEG_COLUMNS))


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="game",
            field=models.CharField(
                choices=tournaments.models.game_choices,
                default="pymtheg",
                help_text="The card game played; cannot change once the tournament has entrants.",
                max_length=20,
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="game_settings",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="The game's own settings (the game checks them); missing ones take "
                "defaults.",
            ),
        ),
        migrations.RunPython(columns_to_settings, settings_to_columns, elidable=False),
        *(
            migrations.RemoveConstraint(model_name="tournament", name=name)
            for name in (
                "tournament_all_tricks_bonus_not_negative",
                "tournament_heavy_failure_penalty_not_negative",
                "tournament_illegal_trump_penalty_not_negative",
                "tournament_direction_valid",
                "tournament_opening_rule_valid",
                "tournament_opening_seat_valid",
            )
        ),
        *(migrations.RemoveField(model_name="tournament", name=name) for name in PYMTHEG_COLUMNS),
    ]
