"""App configuration: featured tables, their recorders and the broadcast of their play."""

from django.apps import AppConfig


class BroadcastConfig(AppConfig):
    name = "broadcast"
    verbose_name = "Broadcast: featured tables, recorders, live play"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from broadcast import drafts

        drafts.register()
