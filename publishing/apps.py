"""App configuration: connects the signal handlers that follow the stored standings."""

from django.apps import AppConfig


class PublishingConfig(AppConfig):
    name = "publishing"
    verbose_name = "Publishing: exports, hand records, charts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from publishing import signals

        signals.connect()
