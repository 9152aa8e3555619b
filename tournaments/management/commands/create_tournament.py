"""``manage.py create_tournament FILE``: a tournament (and its teams) from JSON or YAML."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from tournaments import services
from tournaments.description import DescriptionError, TournamentDescription, load_description_file
from tournaments.management.commands._common import acting_user, add_by_argument, service_failure
from tournaments.models import Tournament
from tournaments.services import ServiceError


def create_from_description(description: TournamentDescription, by=None) -> Tournament:
    """Create the tournament and its teams in one transaction (all or nothing)."""
    with transaction.atomic():
        tournament = services.create_tournament(
            by=by,
            name=description.name,
            slug=description.slug,
            tables=description.tables,
            table_labels=description.table_labels,
            **description.settings,
        )
        if description.entrants:
            services.import_teams(by=by, tournament=tournament, rows=description.entrants)
    return tournament


class Command(BaseCommand):
    help = "Create a tournament, with its tables and teams, from a JSON or YAML description."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="a .json, .yaml or .yml description")
        add_by_argument(parser)

    def handle(self, *args, **options) -> None:
        try:
            description = load_description_file(options["file"])
        except DescriptionError as exc:
            raise CommandError("\n".join(exc.messages)) from None
        try:
            tournament = create_from_description(description, acting_user(options["by"]))
        except ServiceError as exc:
            raise service_failure(exc) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"Created {tournament.slug!r}: {tournament.tables.count()} tables, "
                f"{tournament.entrants.count()} teams"
            )
        )
