"""The demo's club: a club of 30 members with a season of six past weekly events.

Everything goes through the product's own services, as a club's organiser would: the members
imported from a spreadsheet (fixtures/demo-club.csv, read by the clubs' importer), each
evening registered from the list a line a pair or a player (one guest pair on the first),
drawn up, dealt, played by simulation (``operations.simulation``), finalised and its standings
workbook published, so that the players' pages show it; then a season over both games, ranked
by the best four percentages, and its ladder computed.

The evenings are small (a few tables, a board a round) so that ``manage.py demo`` stays
quick, and seeded: the same members come on the same evenings and play the same cards on every
run. The evenings are dated on the six Mondays before today (an event's date is the day its
tournament was created: ``docs/clubs.md``), the way a restored backup keeps its tournament's
date (``operations.backup``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from pathlib import Path
from random import Random
from typing import Any

import yaml
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from clubs import seasons
from clubs import services as clubs
from clubs.imports import parse_link_lines, read_member_file
from clubs.models import Club, ClubEvent, Member, Season
from engine.core.words import plural
from operations.simulation import Progress, SimulationError, simulate_tournament
from publishing import services as publishing
from publishing.models import Export
from scoring import standings
from tournaments import services as tournaments
from tournaments.models import Tournament

CLUB_NAME = "Harbour Card Club"
CLUB_SLUG = "harbour"
MEMBERS_FILE = settings.BASE_DIR / "fixtures" / "demo-club.csv"
# The evenings' games and fields: the demo's choice of games is data, not code.
EVENINGS_FILE = settings.BASE_DIR / "fixtures" / "demo-club-evenings.yaml"
CLUB_SEED = "pymtheg-demo-club"
SEASON_NAME = "Monday season"
SEASON_BEST_N = 4
# The member whose page the demo prints: a regular who comes every week.
REGULAR = "101"
# A pair of visitors on the first evening: guests, linked to no member.
GUEST_WEEK = 1
GUEST_PAIR = ("Visitors from Eastholm", "Kit Arden", "Lou Arden")


@dataclass(frozen=True)
class Evening:
    week: int
    game: str
    name: str
    tables: int
    settings: dict[str, Any] = field(default_factory=dict)
    # Rounds of a movement of players (None: the engine's default; pairs meet once each).
    rounds: int | None = None

    @property
    def slug(self) -> str:
        return f"{CLUB_SLUG}-week-{self.week}"


def read_evenings(path: Path = EVENINGS_FILE) -> tuple[Evening, ...]:
    """The club's evenings, each with its game and field, from the demo's fixture."""
    with path.open(encoding="utf-8") as stream:
        return tuple(Evening(**evening) for evening in yaml.safe_load(stream))


EVENINGS = read_evenings()


class DemoClubError(Exception):
    """The demo's club could not be built; ``messages`` says why."""

    def __init__(self, messages: list[str]):
        self.messages = messages
        super().__init__("; ".join(messages))


@dataclass
class DemoClub:
    club: Club
    season: Season
    events: list[Tournament]
    regular: Member
    members: int


def read_members(path: Path = MEMBERS_FILE) -> list[Any]:
    """The club's member list through the clubs' own importer."""
    with path.open("rb") as stream:
        found = read_member_file(stream, path.name)
    if not found.ok:
        raise DemoClubError([f"{path.name}: {message}" for message in found.all_messages()])
    return found.rows


def remove_old_club(by: Any) -> None:
    """The club of an earlier run, its evenings first (the tournaments are the tournaments
    app's: deleting the club leaves them)."""
    slugs = {evening.slug for evening in EVENINGS}
    held = ClubEvent.objects.filter(club__slug=CLUB_SLUG).values_list("tournament__slug", flat=True)
    for tournament in Tournament.objects.filter(slug__in=slugs | set(held)):
        tournaments.delete_tournament(by=by, tournament=tournament)
    old = Club.objects.filter(slug=CLUB_SLUG).first()
    if old is not None:
        clubs.delete_club(by=by, club=old)


def who_comes(
    tournament: Tournament, evening: Evening, numbers: list[str]
) -> list[tuple[str, ...]]:
    """The entrants of an evening as member numbers (a pair: two regular partners; a
    player: one), the same on every run; the regular member comes every week."""
    rng = Random(f"{CLUB_SEED}:{evening.week}")
    if tournament.of_players:
        entrants = [(number,) for number in numbers]
        wanted = evening.tables * tournament.table_size
    else:
        # Partners by the list's order: 101 with 102, 103 with 104, ...
        entrants = list(zip(numbers[::2], numbers[1::2], strict=False))
        wanted = evening.tables * 2 - (1 if evening.week == GUEST_WEEK else 0)
    regular = next(entrant for entrant in entrants if REGULAR in entrant)
    others = [entrant for entrant in entrants if entrant != regular]
    return [regular, *rng.sample(others, wanted - 1)]


def evening_time(evening: Evening) -> datetime:
    """The club meets on Mondays at half past seven: the last evening on the latest Monday
    before today, the others a week apart before it."""
    today = timezone.localdate()
    last = today - timedelta(days=today.weekday() or 7)
    day = last - timedelta(weeks=len(EVENINGS) - evening.week)
    return timezone.make_aware(datetime.combine(day, time(19, 30)))


@transaction.atomic
def play_evening(*, by: Any, club: Club, evening: Evening, numbers: list[str]) -> Tournament:
    """One evening from the list to its published standings, in one transaction: the
    follow-up jobs (standings, charts, ladders) run once, when it commits."""
    when = evening_time(evening)
    tournament = tournaments.create_tournament(
        by=by,
        name=evening.name,
        slug=evening.slug,
        tables=evening.tables,
        game=evening.game,
        **evening.settings,
    )
    Tournament.objects.filter(pk=tournament.pk).update(created_at=when)
    tournament.created_at = when  # the club's event is dated by it
    lines = "\n".join(" ".join(entrant) for entrant in who_comes(tournament, evening, numbers))
    rows, problems = parse_link_lines(lines, numbered=False)
    if problems:
        raise DemoClubError(problems)
    clubs.register_from_members(by=by, club=club, tournament=tournament, rows=rows)
    if evening.week == GUEST_WEEK:
        name, player1, player2 = GUEST_PAIR
        tournaments.add_entrant(
            by=by, tournament=tournament, name=name, player1=player1, player2=player2
        )
    tournaments.draw_schedule(by=by, tournament=tournament, rounds=evening.rounds)
    tournaments.deal_boards(by=by, tournament=tournament, seed=f"{CLUB_SEED}:{evening.week}")
    simulate_tournament(tournament, rounds=None, seed=f"{CLUB_SEED}:{evening.week}", by=by)
    # With a broker the worker would do this; the demo does it now, as for its tournament.
    standings.recompute(tournament.pk)
    tournaments.finalise_tournament(by=by, tournament=tournament)
    standings.recompute(tournament.pk)
    publish_standings(tournament, by)
    return tournament


def publish_standings(tournament: Tournament, by: Any) -> Export:
    """The standings workbook written and published: the evening shows on the players'
    pages."""
    export, _started = publishing.request_export(
        tournament=tournament, kind=Export.Kind.STANDINGS, fmt=Export.Format.XLSX, enqueue=False
    )
    if export.state != Export.State.DONE:
        export = publishing.run_export(export.pk)
    return publishing.publish_export(export=export, by=by)


def build_demo_club(by: Any, progress: Progress | None = None) -> DemoClub:
    """The club, its members, six past evenings and the season's ladder, made again;
    ``progress`` hears of each evening played."""
    rows = read_members()
    try:
        remove_old_club(by)
        club = clubs.create_club(by=by, name=CLUB_NAME, slug=CLUB_SLUG)
        members = clubs.import_members(by=by, club=club, rows=rows)
        numbers = [member.number for member in members]
        for done, evening in enumerate(EVENINGS, start=1):
            play_evening(by=by, club=club, evening=evening, numbers=numbers)
            if progress is not None:
                progress(done, len(EVENINGS), evening.name)
        season = seasons.save_season(
            by=by,
            club=club,
            name=SEASON_NAME,
            starts=timezone.localdate(evening_time(EVENINGS[0])),
            ends=timezone.localdate() + timedelta(weeks=6),
            games=sorted({evening.game for evening in EVENINGS}),
            kind=Season.Kind.BEST,
            best_n=SEASON_BEST_N,
        )
    except (clubs.ClubError, tournaments.ServiceError, SimulationError) as exc:
        raise DemoClubError(list(exc.messages)) from None
    except publishing.PublishingError as exc:
        raise DemoClubError([str(exc)]) from None
    # The ladder job's work, done now whether or not a worker runs.
    seasons.compute_ladder(season)
    regular = Member.objects.get(club=club, number=REGULAR)
    events = list(Tournament.objects.filter(club_event__club=club).order_by("created_at"))
    return DemoClub(club, season, events, regular, len(members))


def describe_club(built: DemoClub) -> list[str]:
    """The lines the demo prints about its club."""
    games = Counter(event.game_rules.title for event in built.events)
    played = ", ".join(f"{count} {title}" for title, count in games.items())
    view = seasons.ladder_view(built.season, public=False)
    first = [line.member.name for line in view.lines if line.place == 1]
    score = next((f" ({line.score:.2f})" for line in view.lines if line.place == 1), "")
    return [
        f"club: {built.club.name}, {plural(built.members, 'member')}; "
        f"{plural(len(built.events), 'past evening')} ({played}), each finalised and its "
        "standings published",
        f"ladder: {built.season.name}, best {built.season.best_n} percentages, "
        f"{plural(len(view.lines), 'member')}; first: {', '.join(first) or 'nobody yet'}{score}",
    ]
