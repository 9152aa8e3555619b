"""``manage.py export_tournament SLUG > FILE.json``: back up one tournament as JSON
(``operations/backup.py``)."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandParser
from django.core.serializers.json import DjangoJSONEncoder

from operations.backup import export_tournament
from tournaments.management.commands._common import tournament_by_slug


class Command(BaseCommand):
    help = (
        "Write one tournament of any game as JSON: its settings, tables, deals, entrants (teams "
        "or players) with access codes, matches and seats, byes, disqualifications, every "
        "entry, check, ruling and result, and its action log."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument(
            "--output", "-o", type=Path, help="write to this file instead of standard output"
        )

    def handle(self, *args, **options) -> None:
        tournament = tournament_by_slug(options["slug"])
        text = json.dumps(
            export_tournament(tournament), cls=DjangoJSONEncoder, ensure_ascii=False, indent=1
        )
        if options["output"] is None:
            self.stdout.write(text)
            return
        options["output"].write_text(text + "\n", encoding="utf-8")
        self.stderr.write(f"{tournament.slug}: written to {options['output']}")
