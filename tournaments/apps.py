"""App configuration."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # The language's signal receivers: a tournament's saved language, a sign-in's choice.
        from tournaments import languages  # noqa: F401
