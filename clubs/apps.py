from django.apps import AppConfig


class ClubsConfig(AppConfig):
    """Clubs: their member lists, entrants linked to members, players' pages, seasons."""

    name = "clubs"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from clubs import signals

        signals.connect()
