"""``manage.py import_tournament FILE.json [--slug NEW]``: restore a tournament backup."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring import standings
from tournaments.backup import BackupError, import_tournament
from tournaments.management.commands._common import acting_user, add_by_argument
from tournaments.management.commands._output import quiet_eager_broker_warning


class Command(BaseCommand):
    help = (
        "Create a tournament again from a backup made by export_tournament ('-' reads standard "
        "input), under its own slug or --slug; then recompute its standings."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the backup (.json), or - for standard input")
        parser.add_argument("--slug", help="restore under this slug (e.g. a copy beside it)")
        add_by_argument(parser)

    def _read(self, name: str):
        try:
            if name == "-":
                return json.load(sys.stdin)
            with Path(name).open(encoding="utf-8") as stream:
                return json.load(stream)
        except OSError as exc:
            raise CommandError(f"{name}: {exc.strerror or exc}") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise CommandError(f"{name}: not JSON: {exc}") from None

    def handle(self, *args, **options) -> None:
        quiet_eager_broker_warning()
        data = self._read(options["file"])
        try:
            tournament = import_tournament(
                data, slug=options["slug"], by=acting_user(options["by"])
            )
        except BackupError as exc:
            raise CommandError(f"{options['file']}: nothing restored: {exc}") from None
        # Done here as well as by the task, so the pages have standings even before a worker
        # runs (a restore is often the first thing on a new server).
        standings.recompute(tournament.pk)
        self.stdout.write(
            self.style.SUCCESS(
                f"Restored {tournament.name!r} as {tournament.slug!r}: "
                f"{tournament.teams.count()} teams, {tournament.tables.count()} tables, "
                f"status {tournament.status}"
            )
        )
        unknown = tournament.log_entries.filter(action="import_tournament").first()
        missing = (unknown.after or {}).get("unknown_users") if unknown else None
        if missing:
            self.stdout.write(
                self.style.WARNING(
                    "users not found here (left out, their names stay in the log): "
                    + ", ".join(missing)
                )
            )
