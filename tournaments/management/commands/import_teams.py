"""``manage.py import_teams SLUG FILE``: teams from a .csv, .xlsx or .ods file, all or none."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments import services
from tournaments.imports import conflicts_with_existing, read_entrant_file
from tournaments.management.commands._common import (
    acting_user,
    add_by_argument,
    service_failure,
    tournament_by_slug,
)
from tournaments.services import ServiceError


class Command(BaseCommand):
    help = "Import teams from a spreadsheet or CSV file; a file with any bad row imports nothing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("file", type=Path)
        parser.add_argument("--replace", action="store_true", help="remove the current teams first")
        parser.add_argument("--dry-run", action="store_true", help="check the file, import nothing")
        add_by_argument(parser)

    def handle(self, *args, **options) -> None:
        tournament = tournament_by_slug(options["slug"])
        path: Path = options["file"]
        try:
            with path.open("rb") as stream:
                result = read_entrant_file(stream, path.name)
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror or exc}") from None
        if not options["replace"]:
            taken = dict(tournament.entrants.values_list("number", "name"))
            result.problems += conflicts_with_existing(result.rows, taken)
            result.problems.sort(key=lambda problem: problem.line)
        if not result.ok:
            raise CommandError(
                f"{path.name}: nothing imported.\n" + "\n".join(result.all_messages())
            )
        if options["dry_run"]:
            self.stdout.write(f"{path.name}: {len(result.rows)} teams, no problems (dry run)")
            return
        try:
            entrants = services.import_teams(
                by=acting_user(options["by"]),
                tournament=tournament,
                rows=result.rows,
                replace=options["replace"],
            )
        except ServiceError as exc:
            raise service_failure(exc) from None
        self.stdout.write(
            self.style.SUCCESS(f"Imported {len(entrants)} teams into {tournament.slug!r}")
        )
