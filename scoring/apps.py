from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring: entries, checks, director, standings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scoring import selectors
        from scoring.services import results_changed
        from tournaments import progress
        from tournaments.signals import standings_inputs_changed

        # The organiser's pages and finalising ask tournaments how far play has come; the
        # boards' results are read here.
        progress.register(selectors)

        def recompute_standings(sender, tournament, **kwargs) -> None:
            results_changed(tournament)

        # Disqualifications, finalising and reopening change the standings too.
        standings_inputs_changed.connect(
            recompute_standings, dispatch_uid="scoring.recompute_standings", weak=False
        )
