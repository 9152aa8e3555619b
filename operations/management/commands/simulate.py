"""``manage.py simulate SLUG``: play the next rounds of a tournament by simulation.

Every result is an actual play of the table's deal, entered by North's team and accepted by
East's team through the scorers' services (see ``operations.simulation``).
"""

from __future__ import annotations

import argparse
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine.core.words import plural
from operations.management.commands._output import ProgressBar, quiet_eager_broker_warning
from operations.simulation import SimulationError, SimulationReport, simulate_tournament
from tournaments.management.commands._common import acting_user, tournament_by_slug
from tournaments.models import Tournament


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def describe(report: SimulationReport, tournament: Tournament) -> list[str]:
    """What a simulation did, a line each."""
    if report.nothing_to_play:
        return [f"{tournament.slug}: every match has its result; nothing to play"]
    rounds = ", ".join(str(number) for number in report.rounds)
    lines = []
    if report.started:
        lines.append(f"{tournament.slug}: started the tournament")
    outcome = _outcome_words(report, tournament)
    lines.append(
        f"{tournament.slug}: played {'round' if len(report.rounds) == 1 else 'rounds'} {rounds}: "
        f"{plural(report.matches, 'match', 'matches')}, {plural(report.boards, 'board')}"
        f"{f' ({outcome})' if outcome else ''}, seed {report.seed}"
    )
    if report.open_calls:
        lines.append(
            f"left alone, the director is called: {'; '.join(report.open_calls)} "
            "(rule on them on the director's page)"
        )
    if report.dispute is not None:
        d = report.dispute
        lines.append(
            f"dispute: round {d.round}, table {d.table}, board {d.board}: East rejected "
            f"{d.rejections} times, the director entered the result"
        )
    return lines


def simulated(tournament: Tournament, bar: ProgressBar, **play: Any) -> list[str]:
    """What ``simulate_tournament`` did as ``play`` says, a line each, its progress on ``bar``;
    its refusal a ``CommandError``."""
    try:
        report = simulate_tournament(tournament, progress=bar.update, **play)
    except SimulationError as exc:
        raise CommandError("\n".join(exc.messages)) from None
    finally:
        bar.finish()
    return describe(report, tournament)


def _outcome_words(report: SimulationReport, tournament: Tournament) -> str:
    """How the boards played ended, counted."""
    if tournament.of_players:
        return ", ".join(
            " ".join(filter(None, (plural(count, noun), after)))
            for (noun, after), count in sorted(report.outcomes.items())
        )
    return f"{report.made} contracts made, {report.passed_out} passed out"


class Command(BaseCommand):
    help = (
        "Simulate the earliest rounds still without results: a random legal auction and a "
        "card-by-card play of each table's deal, entered by North and accepted by East."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        how_many = parser.add_mutually_exclusive_group()
        how_many.add_argument(
            "--rounds", type=positive_int, default=1, help="how many rounds (default 1)"
        )
        how_many.add_argument("--all", action="store_true", help="every round left")
        parser.add_argument("--seed", help="reproducible play; without it, a random seed")
        parser.add_argument(
            "--dispute",
            action="store_true",
            help="send one board through East's two rejections to the director",
        )
        parser.add_argument(
            "--by", metavar="USERNAME", help="the director and organiser named in the log"
        )
        parser.add_argument("--quiet", action="store_true", help="no progress bar")

    def handle(self, *args, **options) -> None:
        tournament = tournament_by_slug(options["slug"])
        quiet_eager_broker_warning()
        bar = ProgressBar(
            f"{tournament.slug}: playing",
            getattr(self.stderr, "_out", self.stderr),
            enabled=not options["quiet"],
        )
        for line in simulated(
            tournament,
            bar,
            rounds=None if options["all"] else options["rounds"],
            seed=options["seed"],
            dispute=options["dispute"],
            by=acting_user(options["by"]),
        ):
            self.stdout.write(line)
