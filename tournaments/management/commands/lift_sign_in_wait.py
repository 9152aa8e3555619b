"""``manage.py lift_sign_in_wait USERNAME``: the account's sign-in waits no more, from any
address (config/sign_in.py)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser

from config.sign_in import lift_waits


class Command(BaseCommand):
    help = "Lift every wait on an account's sign-in after wrong passwords."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args, **options) -> None:
        lift_waits(options["username"])
        self.stdout.write(f"{options['username']} may sign in again at once.")
