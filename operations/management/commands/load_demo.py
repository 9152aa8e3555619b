"""``manage.py load_demo [--game G]``: a demo tournament, drawn up and dealt.

The default game's (fixtures/demo.yaml: 7 tables, 14 teams) by default; ``--game G`` loads
fixtures/demo-G.yaml (e.g. 16 players at 4 tables of a game of individuals), or the demo
beside the game's package."""

from __future__ import annotations

import inspect
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from engine.games import DEFAULT_GAME, get_game
from tournaments import services
from tournaments.description import DescriptionError, load_description_file
from tournaments.management.commands._common import service_failure
from tournaments.management.commands.create_tournament import create_from_description
from tournaments.models import Tournament, scorable_games
from tournaments.services import ServiceError

DEMO_FILE = settings.BASE_DIR / "fixtures" / "demo.yaml"


def demo_file(game: str = DEFAULT_GAME) -> Path:
    """The demo tournament of a game: fixtures/demo.yaml for the default game, else
    fixtures/demo-<game>.yaml, else a ``demo.yaml`` beside the game's own package (a game
    from outside the product brings its demo with it)."""
    if game == DEFAULT_GAME:
        return DEMO_FILE
    shipped = settings.BASE_DIR / "fixtures" / f"demo-{game}.yaml"
    if shipped.exists():
        return shipped
    return Path(inspect.getfile(type(get_game(game)))).parent / "demo.yaml"


# A fixed seed keeps the demo's deals the same on every machine; real tournaments use none.
DEMO_SEED = "pymtheg-demo"


class Command(BaseCommand):
    help = "Load a demo tournament from fixtures/, draw up its schedule and deal."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--replace", action="store_true", help="delete an existing demo tournament first"
        )
        parser.add_argument(
            "--game",
            choices=scorable_games(),
            default=DEFAULT_GAME,
            help="the game (default %(default)s)",
        )

    def handle(self, *args, **options) -> None:
        try:
            description = load_description_file(demo_file(options["game"]))
        except DescriptionError as exc:
            raise CommandError("\n".join(exc.messages)) from None
        existing = Tournament.objects.filter(slug=description.slug).first()
        if existing and not options["replace"]:
            raise CommandError(
                f"the demo tournament {description.slug!r} exists; use --replace to load it again"
            )
        try:
            with transaction.atomic():
                if existing:
                    services.delete_tournament(by=None, tournament=existing)
                tournament = create_from_description(description)
                _schedule, problems = services.draw_schedule(by=None, tournament=tournament)
                services.deal_boards(by=None, tournament=tournament, seed=DEMO_SEED)
        except ServiceError as exc:
            raise service_failure(exc) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded {tournament.name!r} ({tournament.slug}): {tournament.entrants.count()} "
                f"{tournament.entrant_word}s, {tournament.tables.count()} tables, schedule "
                "drawn up, boards dealt"
            )
        )
        for problem in problems:
            self.stdout.write(self.style.WARNING(f"problem: {problem}"))
