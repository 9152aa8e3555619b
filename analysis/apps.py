from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = "Analysis: the double-dummy table of every dealt board"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from analysis import services
        from tournaments.models import Board

        # A board dealt, dealt again or typed in: its table is solved afresh.
        post_save.connect(
            services.board_saved, sender=Board, dispatch_uid="analysis.board_saved", weak=False
        )
