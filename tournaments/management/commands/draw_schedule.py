"""``manage.py draw_schedule SLUG``: draw up the schedule with the engine."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser

from tournaments import services
from tournaments.management.commands._common import (
    acting_user,
    add_by_argument,
    service_failure,
    tournament_by_slug,
)
from tournaments.models import SideMode
from tournaments.services import ServiceError


class Command(BaseCommand):
    help = "Draw up (or redraw) a tournament's schedule and list any rule it breaks."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument(
            "--sides", choices=SideMode.values, help="default: the tournament's side mode"
        )
        add_by_argument(parser)

    def handle(self, *args, **options) -> None:
        tournament = tournament_by_slug(options["slug"])
        try:
            schedule, problems = services.draw_schedule(
                by=acting_user(options["by"]), tournament=tournament, side_mode=options["sides"]
            )
        except ServiceError as exc:
            raise service_failure(exc) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"{tournament.slug}: {schedule['rounds']} rounds, {len(schedule['matches'])} "
                f"matches, max meetings {schedule.get('max_meetings')}"
            )
        )
        for problem in problems:
            self.stdout.write(self.style.WARNING(f"problem: {problem}"))
