"""``manage.py import_tournament FILE.json [--slug NEW]``: restore a tournament backup."""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from operations.backup import BackupError, import_tournament, parse_backup
from operations.management.commands._output import quiet_eager_broker_warning
from tournaments.management.commands._common import acting_user, add_by_argument


class Command(BaseCommand):
    help = (
        "Create a tournament again from a backup made by export_tournament ('-' reads standard "
        "input), under its own slug or --slug, with its standings; all or nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the backup (.json), or - for standard input")
        parser.add_argument("--slug", help="restore under this slug (e.g. a copy beside it)")
        add_by_argument(parser)

    def _read(self, name: str) -> str:
        try:
            if name == "-":
                return sys.stdin.read()
            return Path(name).read_text(encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"{name}: {exc.strerror or exc}") from None
        except UnicodeDecodeError as exc:
            raise CommandError(f"{name}: nothing restored: not UTF-8 text: {exc}") from None

    def handle(self, *args, **options) -> None:
        quiet_eager_broker_warning()
        name = options["file"]
        text = self._read(name)
        by = acting_user(options["by"])
        # The restore checks and ranks the whole tournament in its one transaction: on any
        # error it leaves nothing behind, and this command writes nothing of its own.
        try:
            tournament = import_tournament(parse_backup(text), slug=options["slug"], by=by)
        except BackupError as exc:
            raise CommandError(f"{name}: nothing restored: {exc}") from None
        word = tournament.entrant_word
        self.stdout.write(
            self.style.SUCCESS(
                f"Restored {tournament.name!r} as {tournament.slug!r}: "
                f"{tournament.entrants.count()} {word}s, {tournament.tables.count()} tables, "
                f"status {tournament.status}"
            )
        )
        note = tournament.log_entries.filter(action="import_tournament").first()
        missing = (note.after or {}).get("unknown_users") if note else None
        if missing:
            self.stdout.write(
                self.style.WARNING(
                    "users not found here (left out, their names stay in the log): "
                    + ", ".join(missing)
                )
            )
