"""App configuration: no models, only management commands and the modules they share."""

from django.apps import AppConfig


class OperationsConfig(AppConfig):
    name = "operations"
    verbose_name = "Operations: backup, simulation, demo"
