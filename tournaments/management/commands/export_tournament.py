"""``manage.py export_tournament SLUG > FILE.json``: back up one tournament as JSON."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandParser
from django.core.serializers.json import DjangoJSONEncoder

from tournaments.backup import export_tournament
from tournaments.management.commands._common import tournament_by_slug


class Command(BaseCommand):
    help = (
        "Write one tournament (settings, teams with access codes, tables, deals, matches, "
        "disqualifications, every entry, review and result, its action log) as JSON."
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
