"""``manage.py demo``: a running demo tournament to click through, from a fresh clone.

It migrates the database if needed, loads the demo tournament again (fixtures/demo.yaml: 7
tables, 14 teams; any old one is deleted), simulates the first rounds (one board disputed and
settled by the director), brings the standings up to date, writes the results workbook when
the publishing app is installed, makes the ``organiser`` account with a new random password,
builds the demo's club (``operations.demo_club``: 30 members, six past weekly evenings of two
games, a season's ladder; ``--no-club`` skips it) and prints the addresses to open. Without
``--no-serve`` it then runs the development server.

``--host 0.0.0.0`` (``make demo HOST=0.0.0.0``) listens on the local network: the printed
links, the route cards' QR codes and the scorer links then carry this machine's address on
that network, so a phone on the same Wi-Fi can open them.
"""

from __future__ import annotations

import secrets
import socket
from io import StringIO
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.urls import NoReverseMatch, reverse

from config.devserver import answer_at_once
from engine.games import DEFAULT_GAME
from operations.management.commands._output import ProgressBar, quiet_eager_broker_warning
from operations.management.commands.load_demo import demo_file
from operations.management.commands.simulate import simulated
from operations.simulation import rounds_to_play
from scoring import standings
from tournaments.description import load_description_file
from tournaments.models import Match, Tournament, scorable_games
from tournaments.printing import scorer_path

DEMO_SLUG = "demo"
DEMO_USERNAME = "organiser"
DEMO_ROUNDS = 3
# The demo's play is the same on every machine; `simulate` without --seed varies.
DEMO_PLAY_SEED = "pymtheg-demo-play"


def migrate_if_needed(stdout) -> bool:
    """Apply any unapplied migration (a fresh clone has none applied). True if it did."""
    connection = connections[DEFAULT_DB_ALIAS]
    executor = MigrationExecutor(connection)
    if not executor.migration_plan(executor.loader.graph.leaf_nodes()):
        return False
    call_command("migrate", interactive=False, verbosity=0, stdout=stdout)
    return True


def reset_organiser(username: str = DEMO_USERNAME) -> tuple[Any, str]:
    """The demo organiser with a new random password (printed once, never stored in clear)."""
    password = secrets.token_urlsafe(12)
    call_command("create_organiser", username, password=password, noinput=True, stdout=StringIO())
    return get_user_model().objects.get_by_natural_key(username), password


def write_workbook(tournament: Tournament, by: Any) -> str:
    """The results workbook through the publishing app, if installed; says what happened."""
    if not apps.is_installed("publishing"):
        return "workbook: skipped (the publishing app is not installed)"
    try:
        from publishing.services import export_path, request_export

        export, _started = request_export(tournament=tournament, kind="results", fmt="xlsx", by=by)
        export.refresh_from_db()
        path = export_path(export)
    except Exception as exc:  # the demo goes on without its workbook, and says why
        return f"workbook: not written ({type(exc).__name__}: {exc})"
    if path is None:
        return f"workbook: {export.get_state_display().lower()} ({export.error or export.step})"
    return f"workbook: {path}"


def next_round_match(tournament: Tournament) -> Match | None:
    """The first match of the earliest round still to play."""
    remaining = rounds_to_play(tournament)
    if not remaining:
        return None
    return (
        Match.objects.filter(table__tournament=tournament, round=remaining[0])
        .select_related("table", "north_entrant__tournament", "east_entrant__tournament")
        .order_by("table__number")
        .first()
    )


def _path_or_none(name: str, **kwargs: Any) -> str | None:
    try:
        return reverse(name, kwargs=kwargs)
    except NoReverseMatch:
        return None


def local_network_address() -> str:
    """This machine's address on its local network: the one its route to the outside would
    leave from (a UDP socket sends nothing to connect); loopback when it has no network."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def build_club(by: Any, progress: Any = None) -> tuple[list[str], list[tuple[str, str]]]:
    """The demo's club when the clubs app is installed: what to say, and (what, path) of its
    pages to open (the club's list, the season's ladder, a player's page)."""
    if not apps.is_installed("clubs"):
        return ["club: skipped (the clubs app is not installed)"], []
    from operations.demo_club import DemoClubError, build_demo_club, describe_club

    try:
        built = build_demo_club(by, progress)
    except DemoClubError as exc:
        raise CommandError("the demo's club: " + "\n".join(exc.messages)) from None
    club, season = built.club.slug, built.season.slug
    paths = [
        ("Club's members (organiser)", reverse("clubs:members", kwargs={"club_slug": club})),
        ("Season's ladder", reverse("clubs:ladder", kwargs={"club": club, "season": season})),
        (
            f"Player's page ({built.regular.name})",
            reverse("clubs:player", kwargs={"club": club, "number": built.regular.number}),
        ),
    ]
    return describe_club(built), paths


def demo_links(tournament: Tournament, base: str) -> list[tuple[str, str]]:
    """(what, address) of every page the demo invites the reader to open."""
    slug = tournament.slug
    dashboard = reverse("tournaments:dashboard", kwargs={"slug": slug})
    links = [("Organiser sign-in", f"{base}{reverse('login')}?next={dashboard}")]
    match = next_round_match(tournament)
    if match is not None:
        where = f"round {match.round}, table {match.table.number}"
        word = tournament.entrant_word
        links += [
            (
                f"North scorer ({where}, {word} {match.north_entrant.number})",
                base + scorer_path(match.north_entrant),
            ),
            (
                f"East scorer ({where}, {word} {match.east_entrant.number})",
                base + scorer_path(match.east_entrant),
            ),
        ]
    links += [
        ("Public standings", base + reverse("scoring:standings", kwargs={"slug": slug})),
        ("Director's dashboard", base + reverse("scoring:director", kwargs={"slug": slug})),
    ]
    publishing = _path_or_none("publishing:organiser", slug=slug)
    if publishing:
        links.append(("Exports and publishing", base + publishing))
    return links


class Command(BaseCommand):
    help = (
        "Load the demo tournament again, simulate its first rounds, create the 'organiser' "
        "account and print the addresses to open; then run the development server."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--no-serve", action="store_true", help="prepare everything, do not run the server"
        )
        parser.add_argument("--host", default="127.0.0.1", help="default 127.0.0.1")
        parser.add_argument("--port", type=int, default=8000, help="default 8000")
        parser.add_argument(
            "--rounds",
            type=int,
            default=DEMO_ROUNDS,
            help=f"rounds to play (default {DEMO_ROUNDS})",
        )
        parser.add_argument("--quiet", action="store_true", help="no progress bar")
        parser.add_argument(
            "--no-club",
            action="store_true",
            help="do not build the demo's club and its season of past evenings",
        )
        parser.add_argument(
            "--game",
            choices=scorable_games(),
            default=DEFAULT_GAME,
            help="the game (default %(default)s)",
        )

    def say(self, text: str) -> None:
        self.stdout.write(text)

    def handle(self, *args, **options) -> None:
        quiet_eager_broker_warning()
        if migrate_if_needed(self.stdout):
            self.say("database: migrated")
        tournament = self._load(options["game"])
        organiser, password = reset_organiser()
        self._play(tournament, organiser, rounds=options["rounds"], quiet=options["quiet"])
        # Tasks run in-process on the embedded defaults; with a broker this does the worker's
        # job now so the printed standings are complete.
        standings.recompute(tournament.pk)
        self.say(f"standings: {self._standings_summary(tournament)}")
        self.say(write_workbook(tournament, organiser))
        club_paths: list[tuple[str, str]] = []
        if not options["no_club"]:
            lines, club_paths = self._club(organiser, quiet=options["quiet"])
            for line in lines:
                self.say(line)
        base = settings.PUBLIC_BASE_URL or self._base_url(options["host"], options["port"])
        links = demo_links(tournament, base) + [(what, base + path) for what, path in club_paths]
        self._sign_in_and_links(password, links)
        if not options["no_serve"]:
            answer_at_once()  # the phones' requests answered without Nagle's delay
            call_command("runserver", f"{options['host']}:{options['port']}", use_reloader=False)

    def _load(self, game: str) -> Tournament:
        """The game's demo tournament loaded afresh, drawn up and dealt."""
        path = demo_file(game)
        slug = load_description_file(path).slug
        self.say(f"demo: loading {path.name} (any earlier '{slug}' tournament is replaced)")
        call_command("load_demo", replace=True, game=game, stdout=self.stdout, stderr=self.stderr)
        return Tournament.objects.get(slug=slug)

    def _play(self, tournament: Tournament, organiser: Any, *, rounds: Any, quiet: bool) -> None:
        """The tournament played by simulation (disputes and all for pairs), then described."""
        bar = ProgressBar(
            "demo: playing", getattr(self.stderr, "_out", self.stderr), enabled=not quiet
        )
        for line in simulated(
            tournament,
            bar,
            rounds=rounds,
            seed=DEMO_PLAY_SEED,
            dispute=not tournament.of_players,
            by=organiser,
        ):
            self.say(line)

    def _sign_in_and_links(self, password: str, links: list[tuple[str, str]]) -> None:
        self.say("")
        self.say(f"Sign in as {DEMO_USERNAME!r} with the password {password}")
        self.say("(a new password on every run of the demo)")
        self.say("")
        for what, address in links:
            self.say(f"  {what + ':':<46} {address}")
        self.say("")

    def _club(self, organiser: Any, *, quiet: bool) -> tuple[list[str], list[tuple[str, str]]]:
        bar = ProgressBar(
            "demo: the club's evenings",
            getattr(self.stderr, "_out", self.stderr),
            enabled=not quiet,
        )
        try:
            return build_club(organiser, bar.update)
        finally:
            bar.finish()

    @staticmethod
    def _base_url(host: str, port: int) -> str:
        """The address phones reach the demo at. Listening on every interface, that is this
        machine's address on the local network: it becomes the public base address (QR codes
        of route cards) and an allowed host of the server this command runs."""
        if host not in ("0.0.0.0", "::", ""):
            return f"http://{host}:{port}"
        address = local_network_address()
        base = f"http://{address}:{port}"
        settings.PUBLIC_BASE_URL = base
        if address not in settings.ALLOWED_HOSTS:
            settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, address]
        return base

    @staticmethod
    def _standings_summary(tournament: Tournament) -> str:
        state = tournament.standings_state
        state.refresh_from_db()
        rows = state.standings.get("standings", [])
        leader = next((row for row in rows if row.get("place") == 1), None)
        word = "provisional" if state.provisional else "complete"
        if leader is None:
            return f"{word}, no results yet"
        entrant = tournament.entrants.get(pk=int(leader.get("team", leader.get("player"))))
        if "total" in leader:
            value = f"total {leader['total']:g}, {leader['tiebreak']} exact"
        elif leader.get("percentage") is not None:
            value = f"{leader['percentage']:g} %, {leader['points']:g} ranking points"
        else:
            value = f"{leader['points']:g} points"
        return f"{word}, {len(rows)} {tournament.entrant_word}s; first: {entrant.name} ({value})"
