"""``manage.py deal SLUG``: deal every table's boards."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser

from tournaments import services
from tournaments.management.commands._common import (
    acting_user,
    add_by_argument,
    service_failure,
    tournament_by_slug,
)
from tournaments.services import ServiceError


class Command(BaseCommand):
    help = "Deal the boards that have no deal yet (or, with --replace, all of them again)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--seed", help="reproducible deals; without it, secure random")
        parser.add_argument("--replace", action="store_true", help="deal every board again")
        add_by_argument(parser)

    def handle(self, *args, **options) -> None:
        tournament = tournament_by_slug(options["slug"])
        try:
            count = services.deal_boards(
                by=acting_user(options["by"]),
                tournament=tournament,
                seed=options["seed"],
                replace=options["replace"],
            )
        except ServiceError as exc:
            raise service_failure(exc) from None
        self.stdout.write(self.style.SUCCESS(f"{tournament.slug}: dealt {count} boards"))
