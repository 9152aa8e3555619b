"""``manage.py create_organiser USERNAME``: a user who may use the organiser pages."""

from __future__ import annotations

import getpass
import os

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from tournaments.permissions import organisers_group

PASSWORD_VARIABLE = "ORGANISER_PASSWORD"


class Command(BaseCommand):
    help = (
        "Create a user (or update an existing one) in the 'organisers' group. The password "
        f"comes from --password, the {PASSWORD_VARIABLE} environment variable, or a prompt."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--email", default="")
        parser.add_argument("--password", help=f"prefer the {PASSWORD_VARIABLE} variable")
        parser.add_argument(
            "--noinput", "--no-input", action="store_true", help="never prompt for a password"
        )

    def _password(self, options: dict) -> str | None:
        password = options["password"] or os.environ.get(PASSWORD_VARIABLE)
        if password or options["noinput"]:
            return password
        first = getpass.getpass("Password: ")
        if first != getpass.getpass("Password (again): "):
            raise CommandError("the two passwords differ")
        return first

    def handle(self, *args, **options) -> None:
        User = get_user_model()
        username = options["username"].strip()
        if not username:
            raise CommandError("the username is empty")
        user = User.objects.filter(username=username).first()
        password = self._password(options)
        if user is None and not password:
            raise CommandError(
                f"a new organiser needs a password: --password or {PASSWORD_VARIABLE}"
            )
        candidate = user or User(username=username, email=options["email"])
        if password:
            try:
                validate_password(password, candidate)
            except ValidationError as exc:
                raise CommandError("password refused: " + " ".join(exc.messages)) from None
        with transaction.atomic():
            if user is None:
                user = User.objects.create_user(username, options["email"], password)
                action = "Created"
            else:
                if password:
                    user.set_password(password)
                if options["email"]:
                    user.email = options["email"]
                user.is_active = True
                user.save()
                action = "Updated"
            user.groups.add(organisers_group())
        self.stdout.write(self.style.SUCCESS(f"{action} organiser {username!r}"))
