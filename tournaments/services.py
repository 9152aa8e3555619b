"""Everything an organiser changes goes through these functions.

Each is keyword-only, runs in one transaction with the tournament row locked (so two
organisers cannot interleave changes to the same tournament), checks the tournament's status,
and writes an ``ActionLog`` entry. A refused change raises ``ServiceError`` carrying every
reason, in words an organiser understands.

Status: draft → scheduled (drawing up the schedule) → running (start) → final (finalise);
final → running again only by ``reopen_tournament``, with a reason, logged. Clearing the
schedule takes a scheduled tournament back to draft.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Iterator
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_noop, ngettext

from engine.core.errors import DealError
from engine.core.words import plural
from engine.games import DEFAULT_GAME, Game, get_game
from engine.schedule import ScheduleError, generate_schedule
from tournaments import selectors
from tournaments.action_log import write_log
from tournaments.imports import EntrantRow
from tournaments.locks import lock_results_exclusively
from tournaments.models import (
    ActionLog,
    Board,
    Disqualification,
    Entrant,
    Match,
    MatchSeat,
    Status,
    Table,
    Tournament,
    new_access_code,
    scorable_games,
)
from tournaments.progress import open_boards
from tournaments.signals import standings_inputs_changed
from tournaments.templatetags.languages import translated

logger = logging.getLogger(__name__)

MAX_TABLES = 500

# Which settings may change in which status. Changing the play settings after the start
# would change games already played; the structure (tables, boards, sides) only in draft,
# because the schedule and the deals are built on it.
SETTINGS_STATUSES: dict[str, tuple[str, ...]] = {
    "name": (Status.DRAFT, Status.SCHEDULED, Status.RUNNING),
    "ties": (Status.DRAFT, Status.SCHEDULED, Status.RUNNING),
    "ranking": (Status.DRAFT, Status.SCHEDULED, Status.RUNNING),
    "boards_per_table": (Status.DRAFT,),
    "table_size": (Status.DRAFT,),
    "side_mode": (Status.DRAFT,),
    "tables": (Status.DRAFT,),
    # The default language of the tournament's pages and cards (tournaments/languages.py).
    "language": tuple(Status),
}
# Settings the standings are computed from: changing one makes the stored standings stale.
TOURNAMENT_FIELDS = tuple(name for name in SETTINGS_STATUSES if name != "tables")
# Every game setting (its rules of play) may change until the first result could exist.
GAME_SETTING_STATUSES = (Status.DRAFT, Status.SCHEDULED)


def setting_statuses(tournament: Tournament, name: str) -> tuple[str, ...] | None:
    """The statuses in which setting ``name`` may change; None if the tournament has none."""
    if name in SETTINGS_STATUSES:
        return SETTINGS_STATUSES[name]
    game = tournament.game_rules
    if name in game.default_settings:
        return (Status.DRAFT,) if game.setting_field(name).structural else GAME_SETTING_STATUSES
    return None


User = AbstractBaseUser | AnonymousUser | None


class ServiceError(Exception):
    """A refused change; ``messages`` lists every reason."""

    def __init__(self, messages: str | Iterable[str]):
        self.messages = [messages] if isinstance(messages, str) else list(messages)
        super().__init__("; ".join(self.messages))


# --- helpers -----------------------------------------------------------------------------


def _log(
    *,
    by: User,
    tournament: Tournament | None,
    action: str,
    summary: str,
    before: Any = None,
    after: Any = None,
) -> ActionLog:
    return write_log(
        tournament=tournament, by=by, action=action, summary=summary, before=before, after=after
    )


def _ranking_inputs_changed(tournament: Tournament) -> None:
    """The one path by which an organiser's change reaches the standings: every write that
    changes what ranking reads (a match edited or removed, a setting, a disqualification,
    the status) calls it, in its transaction; the standings are marked changed and computed
    again once it commits."""
    standings_inputs_changed.send(sender=Tournament, tournament=tournament)


def _locked(tournament: Tournament) -> Tournament:
    """The tournament row, locked until the transaction ends, with its current status; first,
    the results lock (``tournaments.locks``): the result writes under way commit before this
    change begins, and new ones wait for it to end, then read what it changed."""
    lock_results_exclusively(tournament.pk)
    return Tournament.objects.select_for_update(of=("self",)).get(pk=tournament.pk)


# What ``_require_status`` refuses to do, each translated in the refusal (the call sites give
# the English; tests/test_i18n_organiser.py checks that every call site's words are here).
STATUS_ACTIONS = (
    gettext_noop("add teams"),
    gettext_noop("change a deal"),
    gettext_noop("change a team"),
    gettext_noop("clear the schedule"),
    gettext_noop("deal the boards"),
    gettext_noop("draw up the schedule"),
    gettext_noop("edit the schedule"),
    gettext_noop("finalise the tournament"),
    gettext_noop("import teams"),
    gettext_noop("lift a disqualification"),
    gettext_noop("record a withdrawal"),
    gettext_noop("remove a team"),
    gettext_noop("rename tables"),
    gettext_noop("renumber a team"),
    gettext_noop("renumber teams"),
    gettext_noop("reopen the tournament"),
    gettext_noop("seat a late arrival (in draft, add it instead)"),
    gettext_noop("seat a substitute"),
    gettext_noop("start the tournament"),
    gettext_noop("undo a change of the room"),
    gettext_noop("disqualify a team (in draft, remove the team instead)"),
)


def _require_status(tournament: Tournament, allowed: Iterable[str], doing: str) -> None:
    allowed = tuple(allowed)
    if tournament.status not in allowed:
        names = f" {gettext('or')} ".join(str(Status(status).label).lower() for status in allowed)
        raise ServiceError(
            gettext(
                "You cannot %(doing)s while the tournament is %(status)s (only when %(allowed)s)."
            )
            % {
                "doing": gettext(doing),
                "status": str(tournament.get_status_display()).lower(),
                "allowed": names,
            }
        )


def _validation_messages(exc: ValidationError) -> list[str]:
    if hasattr(exc, "error_dict"):
        return [
            f"{field}: {message}" if field != "__all__" else message
            for field, errors in exc.message_dict.items()
            for message in errors
        ]
    return list(exc.messages)


def _tournament_settings(tournament: Tournament) -> dict[str, Any]:
    """Every setting flat, the game's own ones included: what the action log records."""
    data = {name: getattr(tournament, name) for name in TOURNAMENT_FIELDS}
    data["game"] = tournament.game
    data.update(tournament.rules)
    data["slug"] = tournament.slug
    data["status"] = tournament.status
    return data


def _entrant_data(entrant: Entrant) -> dict[str, Any]:
    return {
        "number": entrant.number,
        "name": entrant.name,
        "player1": entrant.player1,
        "player2": entrant.player2,
    }


def _match_data(match: Match) -> dict[str, Any]:
    return {
        "round": match.round,
        "table": match.table.number,
        "ns": match.north_entrant.number,
        "ew": match.east_entrant.number,
    }


def _free_access_codes(tournament: Tournament, count: int) -> list[str]:
    """``count`` new codes, different from each other and from the tournament's."""
    taken = set(tournament.entrants.values_list("access_code", flat=True))
    codes: list[str] = []
    while len(codes) < count:
        code = new_access_code()
        if code not in taken:
            taken.add(code)
            codes.append(code)
    return codes


# --- tournaments --------------------------------------------------------------------------


def free_slug(name: str) -> str:
    """The web address made from a tournament's name ("Club night, 3 May" → club-night-3-may),
    with -2, -3 … when another tournament has it already."""
    base = slugify(name)[:40].strip("-") or "tournament"
    slug, number = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    return slug


@transaction.atomic
def create_tournament(
    *,
    by: User,
    name: str,
    slug: str,
    tables: int,
    table_labels: Iterable[str] = (),
    game: str = DEFAULT_GAME,
    **settings: Any,
) -> Tournament:
    """A new draft tournament of ``game`` with ``tables`` tables numbered 1..tables.

    ``settings`` are Tournament fields (boards_per_table, side_mode, ties) and the game's own
    settings (``Game.setting_fields``: a ruleset, house rules, the direction of play...);
    missing ones take the defaults. An empty ``slug`` is made from the name.
    """
    slug = slug.strip() or free_slug(name)
    if game not in scorable_games():
        raise ServiceError(f"game: {game!r} is not one of {', '.join(scorable_games())}")
    fields, rules = _split_settings(game, settings)
    tournament = Tournament(name=name, slug=slug, game=game, game_settings=rules, **fields)
    labels = [label.strip() for label in table_labels]
    errors = _check_table_count(tables) + _check_labels(dict(enumerate(labels, start=1)))
    try:
        tournament.full_clean()
    except ValidationError as exc:
        errors += _validation_messages(exc)
    if errors:
        raise ServiceError(errors)
    tournament.save()
    Table.objects.bulk_create(
        Table(
            tournament=tournament,
            number=number,
            label=labels[number - 1] if number <= len(labels) else "",
        )
        for number in range(1, tables + 1)
    )
    _log(
        by=by,
        tournament=tournament,
        action="create_tournament",
        summary=f"Created tournament {tournament.name!r} with {tables} tables",
        after={**_tournament_settings(tournament), "tables": tables},
    )
    return tournament


@transaction.atomic
def delete_tournament(*, by: User, tournament: Tournament) -> None:
    """Remove a tournament with everything in it; the log entry keeps its name and slug."""
    tournament = _locked(tournament)
    before = {**_tournament_settings(tournament), "teams": tournament.entrants.count()}
    tournament.delete()
    write_log(
        tournament=None,
        tournament_slug=before["slug"],
        by=by,
        action="delete_tournament",
        summary=f"Deleted tournament {before['name']!r}",
        before=before,
    )


def _check_labels(labels: dict[int, str]) -> list[str]:
    longest = Table._meta.get_field("label").max_length
    return [
        f"table {number}: the label is longer than {longest} characters"
        for number, label in labels.items()
        if len(label) > longest
    ]


def _split_settings(game: str, settings: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The tournament's own fields and the game's settings among ``settings``; a name that is
    neither is refused."""
    game_names = set(get_game(game).default_settings)
    unknown = sorted(set(settings) - set(TOURNAMENT_FIELDS) - game_names)
    if unknown:
        raise ServiceError(f"unknown tournament settings: {', '.join(unknown)}")
    fields = {name: value for name, value in settings.items() if name not in game_names}
    rules = {name: value for name, value in settings.items() if name in game_names}
    return fields, rules


def _check_table_count(tables: Any) -> list[str]:
    if isinstance(tables, bool) or not isinstance(tables, int) or not 1 <= tables <= MAX_TABLES:
        return [f"tables: the number of tables must be a whole number from 1 to {MAX_TABLES}"]
    return []


@transaction.atomic
def update_tournament(*, by: User, tournament: Tournament, changes: dict[str, Any]) -> Tournament:
    """Change settings (and, in draft, the number of tables). Unchanged values are ignored."""
    tournament = _locked(tournament)
    unknown = sorted(name for name in changes if setting_statuses(tournament, name) is None)
    if unknown:
        raise ServiceError(f"these settings do not exist or cannot change: {', '.join(unknown)}")
    current = {**_tournament_settings(tournament), "tables": tournament.tables.count()}
    changed = {name: value for name, value in changes.items() if current[name] != value}
    if not changed:
        return tournament
    errors = _change_problems(tournament, changed)
    _apply_settings(tournament, changed)
    try:
        tournament.full_clean()
    except ValidationError as exc:
        errors += _validation_messages(exc)
    if errors:
        raise ServiceError(errors)
    tournament.save()
    _follow_table_changes(tournament, changed)
    _log(
        by=by,
        tournament=tournament,
        action="update_tournament",
        summary="Changed " + ", ".join(sorted(changed)),
        before={name: current[name] for name in changed},
        after=changed,
    )
    _ranking_inputs_changed(tournament)  # any setting may change how results rank
    return tournament


def _change_problems(tournament: Tournament, changed: dict[str, Any]) -> list[str]:
    """Why the changes cannot be made now, before the model's own checks."""
    errors = [
        f"{name}: cannot change while the tournament is {tournament.get_status_display().lower()}"
        for name in changed
        if tournament.status not in setting_statuses(tournament, name)
    ]
    if "tables" in changed:
        errors += _check_table_count(changed["tables"])
    if changed.get("ranking") == "totals" and tournament.tables.exclude(players=None).exists():
        errors.append(
            "ranking: tables of several sizes are ranked by duplicate only (a result is "
            "compared with those of the same board and seat); draw tables of one size first"
        )
    return errors


def _apply_settings(tournament: Tournament, changed: dict[str, Any]) -> None:
    """The changed settings set on the tournament (unsaved): its own fields, and the game's
    settings; the number of tables is changed after saving (``_follow_table_changes``)."""
    rules = dict(tournament.game_settings)
    for name, value in changed.items():
        if name in SETTINGS_STATUSES:
            if name != "tables":
                setattr(tournament, name, value)
        else:
            rules[name] = value
    tournament.game_settings = rules


def _follow_table_changes(tournament: Tournament, changed: dict[str, Any]) -> None:
    """The tables and boards brought in line with the saved settings."""
    if "tables" in changed:
        _set_table_count(tournament, changed["tables"])
    if "tables" in changed or "table_size" in changed:
        # A new number of tables or players at a table: every table seats the tournament's
        # size again (a proposal of several sizes sets each table's own after this).
        tournament.tables.exclude(players=None).update(players=None)
    if "boards_per_table" in changed:
        Board.objects.filter(
            table__tournament=tournament, number__gt=tournament.boards_per_table
        ).delete()


def _set_table_count(tournament: Tournament, count: int) -> None:
    existing = tournament.tables.count()
    if count > existing:
        Table.objects.bulk_create(
            Table(tournament=tournament, number=number) for number in range(existing + 1, count + 1)
        )
    else:
        tournament.tables.filter(number__gt=count).delete()


@transaction.atomic
def update_table_labels(*, by: User, tournament: Tournament, labels: dict[int, str]) -> None:
    tournament = _locked(tournament)
    _require_status(tournament, (Status.DRAFT, Status.SCHEDULED, Status.RUNNING), "rename tables")
    tables = {table.number: table for table in tournament.tables.all()}
    labels = {number: label.strip() for number, label in labels.items()}
    missing = sorted(set(labels) - set(tables))
    errors = [f"there is no table {number}" for number in missing] + _check_labels(labels)
    if errors:
        raise ServiceError(errors)
    before, after = {}, {}
    for number, label in labels.items():
        table = tables[number]
        if table.label != label:
            before[number], after[number] = table.label, label
            table.label = label
            table.save(update_fields=["label"])
    if after:
        _log(
            by=by,
            tournament=tournament,
            action="update_table_labels",
            summary=f"Renamed {plural(len(after), 'table')}",
            before=before,
            after=after,
        )


# --- teams --------------------------------------------------------------------------------


def _next_entrant_number(tournament: Tournament) -> int:
    return (tournament.entrants.aggregate(top=Max("number"))["top"] or 0) + 1


def _check_entrant_fields(entrant: Entrant) -> None:
    try:
        entrant.full_clean(exclude=["tournament", "access_code"], validate_unique=False)
    except ValidationError as exc:
        raise ServiceError(_validation_messages(exc)) from None


def _check_number_free(tournament: Tournament, number: int, exclude: Entrant | None = None) -> None:
    holder = tournament.entrants.filter(number=number).exclude(pk=exclude.pk if exclude else None)
    if holder.exists():
        raise ServiceError(
            gettext("team number %(number)s is already used by '%(name)s'")
            % {"number": number, "name": holder.get().name}
        )


@transaction.atomic
def add_entrant(
    *,
    by: User,
    tournament: Tournament,
    name: str,
    player1: str = "",
    player2: str = "",
    number: int | None = None,
) -> Entrant:
    """A new team (draft only), numbered after the last one unless ``number`` is given."""
    tournament = _locked(tournament)
    _require_status(tournament, (Status.DRAFT,), "add teams")
    if number is None:
        number = _next_entrant_number(tournament)
    entrant = Entrant(
        tournament=tournament,
        number=number,
        name=name.strip(),
        player1=player1.strip(),
        player2=player2.strip(),
        access_code=_free_access_codes(tournament, 1)[0],
    )
    _check_entrant_fields(entrant)
    _check_number_free(tournament, number)
    entrant.save()
    _log(
        by=by,
        tournament=tournament,
        action="add_team",
        summary=f"Added team {entrant.number} {entrant.name!r}",
        after=_entrant_data(entrant),
    )
    return entrant


@transaction.atomic
def update_entrant(
    *,
    by: User,
    entrant: Entrant,
    name: str,
    player1: str = "",
    player2: str = "",
    number: int | None = None,
) -> Entrant:
    """Rename a team or its players (not once final); renumber it only in draft."""
    tournament = _locked(entrant.tournament)
    entrant = Entrant.objects.get(pk=entrant.pk)
    _require_status(tournament, (Status.DRAFT, Status.SCHEDULED, Status.RUNNING), "change a team")
    before = _entrant_data(entrant)
    if number is not None and number != entrant.number:
        _require_status(tournament, (Status.DRAFT,), "renumber a team")
        _check_number_free(tournament, number, exclude=entrant)
        entrant.number = number
    entrant.name, entrant.player1, entrant.player2 = name.strip(), player1.strip(), player2.strip()
    _check_entrant_fields(entrant)
    after = _entrant_data(entrant)
    if after != before:
        entrant.save()
        _log(
            by=by,
            tournament=tournament,
            action="update_team",
            summary=f"Changed team {entrant.number} {entrant.name!r}",
            before=before,
            after=after,
        )
    return entrant


@transaction.atomic
def delete_entrant(*, by: User, entrant: Entrant) -> None:
    tournament = _locked(entrant.tournament)
    _require_status(tournament, (Status.DRAFT,), "remove a team")
    before = _entrant_data(entrant)
    entrant.delete()
    _log(
        by=by,
        tournament=tournament,
        action="delete_team",
        summary=f"Removed team {before['number']} {before['name']!r}",
        before=before,
    )


@transaction.atomic
def renumber_entrants(*, by: User, tournament: Tournament) -> dict[int, int]:
    """Close gaps: number the teams 1..T in their current order. Returns old → new."""
    tournament = _locked(tournament)
    _require_status(tournament, (Status.DRAFT,), "renumber teams")
    moves: dict[int, int] = {}
    # In ascending order each new number is at most the old one and already free.
    for new_number, entrant in enumerate(tournament.entrants.order_by("number"), start=1):
        if entrant.number != new_number:
            moves[entrant.number] = new_number
            entrant.number = new_number
            entrant.save(update_fields=["number"])
    if moves:
        _log(
            by=by,
            tournament=tournament,
            action="renumber_teams",
            summary=f"Renumbered {plural(len(moves), 'team')} to close gaps",
            before=sorted(moves),
            after=[moves[old] for old in sorted(moves)],
        )
    return moves


@transaction.atomic
def regenerate_access_code(*, by: User, entrant: Entrant) -> Entrant:
    """A new access code (e.g. when a card was lost). The codes are not written to the log."""
    tournament = _locked(entrant.tournament)
    entrant = Entrant.objects.get(pk=entrant.pk)
    entrant.access_code = _free_access_codes(tournament, 1)[0]
    entrant.save(update_fields=["access_code"])
    _log(
        by=by,
        tournament=tournament,
        action="regenerate_access_code",
        summary=f"New access code for team {entrant.number} {entrant.name!r}",
    )
    return entrant


@transaction.atomic
def import_teams(
    *, by: User, tournament: Tournament, rows: list[EntrantRow], replace: bool = False
) -> list[Entrant]:
    """Add every row as a team, or none. ``replace`` first removes the current teams.

    The rows come from ``tournaments.imports.read_entrant_file`` (already checked one by one);
    here they are checked against each other and the tournament again, inside the lock.
    """
    tournament = _locked(tournament)
    _require_status(tournament, (Status.DRAFT,), "import teams")
    if not rows:
        raise ServiceError(
            gettext("there are no players to import")
            if tournament.of_players
            else gettext("there are no teams to import")
        )
    if tournament.of_players:  # a player is his own entrant: no partners to keep
        rows = [dataclasses.replace(row, player1="", player2="") for row in rows]
    existing = {} if replace else dict(tournament.entrants.values_list("number", "name"))
    errors, seen = _number_clashes(rows, existing)
    if errors:
        raise ServiceError(errors)
    before_count = tournament.entrants.count()
    if replace:
        tournament.entrants.all().delete()
    entrants = _new_entrants(tournament, rows, max([*existing, *seen, 0]) + 1)
    Entrant.objects.bulk_create(entrants)
    _log(
        by=by,
        tournament=tournament,
        action="import_teams",
        summary=(
            f"Imported {plural(len(entrants), 'team')}"
            + (f", replacing {before_count}" if replace else "")
        ),
        before={"teams": before_count},
        after={"teams": [_entrant_data(entrant) for entrant in entrants]},
    )
    return entrants


def _number_clashes(
    rows: list[EntrantRow], existing: dict[int, str]
) -> tuple[list[str], dict[int, int]]:
    """Rows whose number another team holds or another row gives; and each number given
    with its first line."""
    errors, seen = [], {}
    for row in rows:
        if row.number is None:
            continue
        if row.number in existing:
            errors.append(
                gettext("line %(line)s: team number %(number)s is already used by '%(name)s'")
                % {"line": row.line, "number": row.number, "name": existing[row.number]}
            )
        elif row.number in seen:
            errors.append(
                gettext("line %(line)s: team number %(number)s is also on line %(other)s")
                % {"line": row.line, "number": row.number, "other": seen[row.number]}
            )
        seen.setdefault(row.number, row.line)
    return errors, seen


def _new_entrants(
    tournament: Tournament, rows: list[EntrantRow], next_number: int
) -> list[Entrant]:
    """An unsaved entrant a row, checked, with a free access code; a row without a number
    takes the next free one from ``next_number``."""
    entrants = []
    for row, code in zip(rows, _free_access_codes(tournament, len(rows)), strict=True):
        number = row.number
        if number is None:
            number, next_number = next_number, next_number + 1
        entrant = Entrant(
            tournament=tournament,
            number=number,
            name=row.name,
            player1=row.player1,
            player2=row.player2,
            access_code=code,
        )
        _check_entrant_fields(entrant)
        entrants.append(entrant)
    return entrants


# --- schedule -----------------------------------------------------------------------------


@transaction.atomic
def draw_schedule(
    *,
    by: User,
    tournament: Tournament,
    side_mode: str | None = None,
    rounds: int | None = None,
    proposal: str | None = None,
) -> tuple[dict[str, Any], list[str]]:
    """Draw up (or redraw) the schedule with the engine; the tournament becomes scheduled.

    Pairs get the schedule of docs/formats.md section 5 (``side_mode``); players a movement
    (docs/movement.md) of ``rounds`` rounds, the engine's default when None. ``proposal``
    draws one of the proposals for the entrants on file instead (``selectors.proposals``, by
    key): the number of tables, the players at a table and the sides become the proposal's
    (logged as a change of settings; only in draft when they change). Returns the engine's
    schedule and the validator's problems with the schedule as stored.
    """
    tournament = _locked(tournament)
    _require_status(tournament, (Status.DRAFT, Status.SCHEDULED), "draw up the schedule")
    chosen = None
    if proposal is not None:
        chosen = _chosen_proposal(by, tournament, proposal)
        tournament = _locked(tournament)
    if side_mode is not None and side_mode != tournament.side_mode:
        _set_side_mode(tournament, side_mode)
    entrants = {entrant.number: entrant for entrant in tournament.entrants.all()}
    tables = {table.number: table for table in tournament.tables.all()}
    errors = _numbering_problems(tournament, entrants, tables)
    if errors:
        raise ServiceError(errors)
    previous = Match.objects.filter(table__tournament=tournament).count()
    schedule, what = _draw_and_store(tournament, entrants, tables, rounds, chosen)
    old_status = tournament.status
    tournament.status = Status.SCHEDULED
    tournament.save(update_fields=["status", "updated_at"])
    _log(
        by=by,
        tournament=tournament,
        action="draw_schedule",
        summary=f"Drew up the schedule: {what}",
        before={"status": old_status, "matches": previous},
        after={
            "status": tournament.status,
            "rounds": schedule["rounds"],
            "matches": Match.objects.filter(table__tournament=tournament).count(),
            "byes": schedule.get("byes", []),
            "max_meetings": schedule.get("max_meetings"),
            **({"proposal": chosen["key"]} if chosen else {}),
        },
    )
    return schedule, selectors.schedule_problems(tournament)


def _set_side_mode(tournament: Tournament, side_mode: str) -> None:
    tournament.side_mode = side_mode
    try:
        tournament.full_clean()
    except ValidationError as exc:
        raise ServiceError(_validation_messages(exc)) from None
    tournament.save(update_fields=["side_mode", "updated_at"])


def _numbering_problems(
    tournament: Tournament, entrants: dict[int, Entrant], tables: dict[int, Table]
) -> list[str]:
    """Too few entrants for a table, or entrants or tables not numbered from 1 without gaps."""
    errors = []
    least = tournament.table_size if tournament.of_players else 2
    if len(entrants) < least:
        errors.append(
            (
                gettext("a schedule needs at least %(least)s players")
                if tournament.of_players
                else gettext("a schedule needs at least %(least)s teams")
            )
            % {"least": least}
        )
    gaps = selectors.number_gaps(entrants)
    if gaps:
        errors.append(
            (
                gettext(
                    "player numbers must run from 1 to the number of players without gaps; "
                    "missing: %(gaps)s (use 'close gaps in numbering' on the teams page)"
                )
                if tournament.of_players
                else gettext(
                    "team numbers must run from 1 to the number of teams without gaps; "
                    "missing: %(gaps)s (use 'close gaps in numbering' on the teams page)"
                )
            )
            % {"gaps": ", ".join(map(str, gaps))}
        )
    if not tables or selectors.number_gaps(tables):
        errors.append(gettext("the tables must be numbered 1 to the number of tables"))
    return errors


def _draw_and_store(
    tournament: Tournament,
    entrants: dict[int, Entrant],
    tables: dict[int, Table],
    rounds: int | None,
    chosen: dict[str, Any] | None,
) -> tuple[dict[str, Any], str]:
    """The schedule drawn (the proposal ``chosen``, else the engine's own) and stored, with
    the words the log says of it."""
    if chosen is not None:
        from engine.schedule.proposals import draw

        drawn = draw(tournament.game, len(entrants), chosen["key"])
        if tournament.of_players:
            schedule = _draw_movement(tournament, entrants, tables, None, drawn)
            what = f"{schedule['rounds']} rounds, {len(schedule['seatings'])} tables played"
        else:
            schedule = _draw_pairs(tournament, entrants, tables, drawn)
            what = f"{schedule['rounds']} rounds, {len(schedule['matches'])} matches"
        return schedule, what + f" (proposal {chosen['key']})"
    if tournament.of_players:
        schedule = _draw_movement(tournament, entrants, tables, rounds)
        return schedule, f"{schedule['rounds']} rounds, {len(schedule['seatings'])} tables played"
    schedule = _draw_pairs(tournament, entrants, tables)
    what = f"{schedule['rounds']} rounds, {len(schedule['matches'])} matches"
    return schedule, what + f", {tournament.side_mode} sides"


def _chosen_proposal(by: User, tournament: Tournament, key: str) -> dict[str, Any]:
    """The proposal ``key`` for the entrants on file; the tournament takes its tables, players
    at a table and sides (a logged change of settings, in draft only)."""
    chosen = _drawable_proposal(tournament, key)
    changed = _proposal_changes(tournament, chosen)
    if changed and tournament.status != Status.DRAFT:
        raise ServiceError(
            "this proposal changes the number of tables, the players at a table or the sides, "
            "which change only in draft: clear the schedule first"
        )
    sizes = changed.pop("table sizes", None)
    if changed:
        update_tournament(by=by, tournament=tournament, changes=changed)
    if sizes is not None:
        _set_table_sizes(by, tournament, chosen)
    return chosen


def _drawable_proposal(tournament: Tournament, key: str) -> dict[str, Any]:
    """The proposal ``key`` among those for the entrants on file, if it can be drawn."""
    found = selectors.proposals(tournament)
    chosen = next((p for p in found["proposals"] if p["key"] == key), None)
    if chosen is None:
        raise ServiceError(
            f"that way of seating is not one of the proposals for "
            f"{found['entrants']} {tournament.entrant_word}s on file; choose one of the list"
        )
    if not chosen["drawable"]:
        raise ServiceError(
            "tables of several sizes are drawn only under duplicate ranking (a result is "
            "compared only with those of the same board and seat); change the ranking first "
            "or choose a proposal with tables of one size"
        )
    return chosen


def _proposal_changes(tournament: Tournament, chosen: dict[str, Any]) -> dict[str, Any]:
    """The settings the proposal changes (tables, players at a table or sides), and
    ``"table sizes"`` when each table's own players change."""
    changes: dict[str, Any] = {"tables": chosen["tables"]}
    if tournament.of_players:
        # Tables of several sizes: the tournament's size is the largest, each table its own.
        changes["table_size"] = max(chosen["sizes"])
    else:
        changes["side_mode"] = chosen["sides"]
    current = {
        "tables": tournament.tables.count(),
        "table_size": tournament.table_size,
        "side_mode": tournament.side_mode,
    }
    changed = {name: value for name, value in changes.items() if current[name] != value}
    if tournament.of_players and _table_sizes(tournament) != _proposal_sizes(chosen):
        changed["table sizes"] = "-".join(map(str, chosen["sizes"]))
    return changed


def _proposal_sizes(chosen: dict[str, Any]) -> dict[int, int | None]:
    """Each table's own number of players under a proposal: None for all where its tables
    are of one size (each seats the tournament's)."""
    sizes = chosen["sizes"]
    mixed = len(set(sizes)) > 1
    return {number: size if mixed else None for number, size in enumerate(sizes, start=1)}


def _table_sizes(tournament: Tournament) -> dict[int, int | None]:
    return dict(tournament.tables.values_list("number", "players"))


def _set_table_sizes(by: User, tournament: Tournament, chosen: dict[str, Any]) -> None:
    """Every table's players as the proposal seats them (a logged change, in draft)."""
    before = _table_sizes(tournament)
    after = _proposal_sizes(chosen)
    for table in tournament.tables.all():
        if table.players != after.get(table.number):
            table.players = after.get(table.number)
            table.save(update_fields=["players"])
    _log(
        by=by,
        tournament=tournament,
        action="update_tournament",
        summary="Changed the players at each table: " + _sizes_words(after, tournament),
        before={"table_players": before},
        after={"table_players": after},
    )
    _ranking_inputs_changed(tournament)


def _sizes_words(sizes: dict[int, int | None], tournament: Tournament) -> str:
    """Each table's players in words ("table 1: 4, table 2: 3"), or every table's one size."""
    if all(size is None for size in sizes.values()):
        return f"every table seats {tournament.table_size}"
    return ", ".join(f"table {number}: {size}" for number, size in sorted(sizes.items()))


def _draw_pairs(
    tournament: Tournament,
    entrants: dict[int, Entrant],
    tables: dict[int, Table],
    drawn: dict[str, Any] | None = None,
) -> dict[str, Any]:
    try:
        schedule = drawn or generate_schedule(
            len(entrants), len(tables), sides=tournament.side_mode
        )
    except ScheduleError as exc:
        raise ServiceError(f"the schedule cannot be drawn up: {exc}") from None
    Match.objects.filter(table__tournament=tournament).delete()
    Match.objects.bulk_create(
        Match(
            round=entry["round"],
            table=tables[entry["table"]],
            north_entrant=entrants[entry["ns"]],
            east_entrant=entrants[entry["ew"]],
        )
        for entry in schedule["matches"]
    )
    return schedule


def _draw_movement(
    tournament: Tournament,
    players: dict[int, Entrant],
    tables: dict[int, Table],
    rounds: int | None,
    drawn: dict[str, Any] | None = None,
) -> dict[str, Any]:
    try:
        movement = (
            drawn if drawn is not None else _new_movement(tournament, len(players), tables, rounds)
        )
    except ScheduleError as exc:
        raise ServiceError(f"the movement cannot be drawn up: {exc}") from None
    if movement["tables"] > len(tables):
        raise ServiceError(
            f"{len(players)} players at tables of {tournament.table_size} need "
            f"{movement['tables']} tables; the tournament has {len(tables)}"
        )
    Match.objects.filter(table__tournament=tournament).delete()
    matches = Match.objects.bulk_create(
        Match(
            round=seating["round"],
            table=tables[seating["table"]],
            north_entrant=players[seating["seats"]["N"]],
            east_entrant=players[seating["seats"]["E"]],
        )
        for seating in movement["seatings"]
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, seat=seat, entrant=players[number], round=match.round)
        for match, seating in zip(matches, movement["seatings"], strict=True)
        for seat, number in seating["seats"].items()
    )
    return movement


def _new_movement(
    tournament: Tournament, players: int, tables: dict[int, Table], rounds: int | None
) -> dict[str, Any]:
    """The engine's movement for the players at the tables: at each table's own size where
    the tables are of several sizes (a proposal drawn before), else at the tournament's."""
    from engine.schedule import generate_individual_schedule
    from engine.schedule.mixed import generate_mixed_schedule

    own = [tables[number].players for number in sorted(tables)]
    if any(own):
        sizes = [size or tournament.table_size for size in own]
        return generate_mixed_schedule(players, sizes, rounds)
    return generate_individual_schedule(players, tournament.table_size, rounds)


@transaction.atomic
def clear_schedule(*, by: User, tournament: Tournament) -> None:
    """Remove every match; the tournament goes back to draft so teams can change."""
    tournament = _locked(tournament)
    _require_status(tournament, (Status.SCHEDULED,), "clear the schedule")
    count, _ = Match.objects.filter(table__tournament=tournament).delete()
    tournament.status = Status.DRAFT
    tournament.save(update_fields=["status", "updated_at"])
    _log(
        by=by,
        tournament=tournament,
        action="clear_schedule",
        summary=f"Cleared the schedule ({count} matches); back to draft",
        before={"status": Status.SCHEDULED, "matches": count},
        after={"status": Status.DRAFT, "matches": 0},
    )


def _read_match_places(
    tournament: Tournament, round_number: int, table_number: int, ns_number: int, ew_number: int
) -> tuple[list[str], Table | None, Entrant | None, Entrant | None]:
    """The table and the two entrants a match names, and what it names that does not exist
    (a round past the next one among them)."""
    top_round = (
        Match.objects.filter(table__tournament=tournament).aggregate(top=Max("round"))["top"] or 0
    )
    errors = []
    if not isinstance(round_number, int) or not 1 <= round_number <= top_round + 1:
        errors.append(gettext("the round must be from 1 to %(top)s") % {"top": top_round + 1})
    table = tournament.tables.filter(number=table_number).first()
    if table is None:
        errors.append(gettext("there is no table %(number)s") % {"number": table_number})
    entrants = {
        entrant.number: entrant
        for entrant in tournament.entrants.filter(number__in=[ns_number, ew_number])
    }
    north_entrant, east_entrant = entrants.get(ns_number), entrants.get(ew_number)
    for number, entrant in ((ns_number, north_entrant), (ew_number, east_entrant)):
        if entrant is None:
            errors.append(gettext("there is no team %(number)s") % {"number": number})
    return errors, table, north_entrant, east_entrant


def _match_conflicts(
    tournament: Tournament,
    *,
    match: Match | None,
    round_number: int,
    table: Table | None,
    north_entrant: Entrant | None,
    east_entrant: Entrant | None,
) -> list[str]:
    """The hard rules a match must keep (the database enforces most of them as well)."""
    errors = []
    others = Match.objects.filter(table__tournament=tournament, round=round_number).select_related(
        "table", "north_entrant", "east_entrant"
    )
    if match is not None:
        others = others.exclude(pk=match.pk)
    if north_entrant is not None and north_entrant == east_entrant:
        errors.append(gettext("a team cannot play against itself"))
    for other in others:
        if table is not None and other.table_id == table.pk:
            errors.append(
                gettext(
                    "table %(table)s already hosts a match in round %(round)s (%(ns)s v %(ew)s)"
                )
                % {
                    "table": table.number,
                    "round": round_number,
                    "ns": other.north_entrant.number,
                    "ew": other.east_entrant.number,
                }
            )
        for entrant in {north_entrant, east_entrant} - {None}:
            if entrant.pk in (other.north_entrant_id, other.east_entrant_id):
                side = gettext("NS") if entrant.pk == other.north_entrant_id else gettext("EW")
                errors.append(
                    gettext(
                        "team %(team)s already plays in round %(round)s (table %(table)s, %(side)s)"
                    )
                    % {
                        "team": entrant.number,
                        "round": round_number,
                        "table": other.table.number,
                        "side": side,
                    }
                )
    return errors


@transaction.atomic
def save_match(
    *,
    by: User,
    tournament: Tournament,
    round_number: int,
    table_number: int,
    ns_number: int,
    ew_number: int,
    match: Match | None = None,
) -> tuple[Match, list[str]]:
    """Add a match by hand, or change ``match``. Returns it and the validator's problems.

    Refused (``ServiceError``): anything the database would refuse, and a team playing twice
    in a round on different sides. Accepted but reported: whatever else the engine's
    validator finds wrong with the whole schedule.
    """
    tournament = _locked(tournament)
    _require_status(tournament, (Status.SCHEDULED, Status.RUNNING), "edit the schedule")
    if match is not None:
        match = Match.objects.select_related("table", "north_entrant", "east_entrant").get(
            pk=match.pk, table__tournament=tournament
        )
    errors, table, north_entrant, east_entrant = _read_match_places(
        tournament, round_number, table_number, ns_number, ew_number
    )
    if not errors:
        errors = _match_conflicts(
            tournament,
            match=match,
            round_number=round_number,
            table=table,
            north_entrant=north_entrant,
            east_entrant=east_entrant,
        )
    if errors:
        raise ServiceError(errors)
    before = _match_data(match) if match is not None else None
    if match is None:
        match = Match()
    match.round, match.table, match.north_entrant, match.east_entrant = (
        round_number,
        table,
        north_entrant,
        east_entrant,
    )
    try:
        with transaction.atomic():
            match.save()
    except IntegrityError:
        raise ServiceError(
            "the database refused the match: a table or team is already taken in that round"
        ) from None
    after = _match_data(match)
    _log(
        by=by,
        tournament=tournament,
        action="edit_match" if before else "add_match",
        summary=(
            f"{'Changed' if before else 'Added'} match: round {match.round}, "
            f"table {table.number}, {north_entrant.number} (NS) v {east_entrant.number} (EW)"
        ),
        before=before,
        after=after,
    )
    _ranking_inputs_changed(tournament)
    return match, selectors.schedule_problems(tournament)


@transaction.atomic
def delete_match(*, by: User, match: Match) -> list[str]:
    """Remove one match by hand. Returns the validator's problems afterwards."""
    tournament = _locked(match.table.tournament)
    _require_status(tournament, (Status.SCHEDULED, Status.RUNNING), "edit the schedule")
    before = _match_data(match)
    match.delete()
    _log(
        by=by,
        tournament=tournament,
        action="delete_match",
        summary=(
            f"Removed match: round {before['round']}, table {before['table']}, "
            f"{before['ns']} (NS) v {before['ew']} (EW)"
        ),
        before=before,
    )
    _ranking_inputs_changed(tournament)
    return selectors.schedule_problems(tournament)


# --- deals --------------------------------------------------------------------------------


@transaction.atomic
def deal_boards(
    *, by: User, tournament: Tournament, seed: str | None = None, replace: bool = False
) -> int:
    """Deal the boards: every missing one, or with ``replace`` every board again.

    With a ``seed`` the deals are reproducible (the same seed, table and board always give
    the same deal); without one they come from the system's secure random source.
    Returns the number of boards dealt.
    """
    tournament = _locked(tournament)
    _require_status(tournament, (Status.DRAFT, Status.SCHEDULED), "deal the boards")
    seed = seed.strip() if seed else None
    tables = {table.number: table for table in tournament.tables.all()}
    existing = {
        (board.table.number, board.number): board
        for board in Board.objects.filter(table__tournament=tournament).select_related("table")
    }
    if existing and not replace and len(existing) == len(tables) * tournament.boards_per_table:
        raise ServiceError(
            gettext("every board is dealt already; choose 'deal again' to replace them")
        )
    dealt = 0
    game = tournament.game_rules
    kept = set() if replace else set(existing)
    for table_number, board_number, players, deal in _deals_to_make(tournament, tables, seed, kept):
        board = existing.get((table_number, board_number))
        _store_deal(game, tables[table_number], board, board_number, players, deal)
        dealt += 1
    _log(
        by=by,
        tournament=tournament,
        action="deal_boards",
        summary=_dealt_in_words(dealt, again=bool(replace and existing), seeded=bool(seed)),
        before={"boards": len(existing)},
        after={"boards_dealt": dealt, "seeded": seed is not None},
    )
    return dealt


def _deals_to_make(
    tournament: Tournament, tables: dict[int, Table], seed: str | None, kept: set[tuple[int, int]]
) -> Iterator[tuple[int, int, int, Any]]:
    """``(table, board, players, deal)`` of every board to deal, those ``kept`` aside. Each
    table deals for its own players (tables of several sizes: one pass per size, the same deal
    of a table and board from a seed whichever pass makes it)."""
    game = tournament.game_rules
    for players in sorted({table.size for table in tables.values()}, reverse=True):
        for table_number, board_number, deal in game.generate_deals(
            len(tables), tournament.boards_per_table, players, seed
        ):
            if tables[table_number].size == players and (table_number, board_number) not in kept:
                yield table_number, board_number, players, deal


def _store_deal(
    game: Game, table: Table, board: Board | None, number: int, players: int, deal: Any
) -> None:
    """A board's new deal: over the board's old one, else on a new board with its dealer."""
    text = game.format_deal(deal)
    if board is not None:
        board.deal = text
        board.save(update_fields=["deal"])
        return
    Board.objects.create(table=table, number=number, deal=text, dealer=game.dealer(number, players))


def _dealt_in_words(dealt: int, *, again: bool, seeded: bool) -> str:
    """The log's summary of a deal: "Dealt 12 boards again from a seed"."""
    again_words = " again" if again else ""
    how = " from a seed" if seeded else " at random"
    return f"Dealt {plural(dealt, 'board')}{again_words}{how}"


@transaction.atomic
def set_deal(
    *, by: User, tournament: Tournament, table_number: int, board_number: int, deal_text: str
) -> Board:
    """Type in one board's deal in the game's notation (a game whose deal leaves the first
    seat open: any first seat, stored from North; a game with a dealer: the board's own dealer)."""
    tournament = _locked(tournament)
    _require_status(tournament, (Status.DRAFT, Status.SCHEDULED), "change a deal")
    table = tournament.tables.filter(number=table_number).first()
    if table is None:
        raise ServiceError(gettext("there is no table %(number)s") % {"number": table_number})
    if not 1 <= board_number <= tournament.boards_per_table:
        raise ServiceError(
            gettext("the board must be from 1 to %(top)s (boards per table)")
            % {"top": tournament.boards_per_table}
        )
    game, players = tournament.game_rules, table.size
    try:
        deal = game.parse_deal(deal_text)
    except DealError as exc:
        # The notation's fault in the reader's language (the engine's words).
        raise ServiceError(
            gettext("the deal is not valid: %(fault)s") % {"fault": translated(exc.reason)}
        ) from None
    problem = game.deal_problem(deal, players=players, dealer=game.dealer(board_number, players))
    if problem:
        raise ServiceError(
            gettext("the deal is not valid for board %(board)s: %(problem)s")
            % {"board": board_number, "problem": translated(problem)}
        )
    board = Board.objects.filter(table=table, number=board_number).first()
    before = board.deal if board else None
    if board is None:
        board = Board(table=table, number=board_number)
    board.deal = game.format_deal(deal)
    board.dealer = game.dealer(board_number, players)
    board.save()
    _log(
        by=by,
        tournament=tournament,
        action="set_deal",
        summary=f"Entered the deal of table {table_number}, board {board_number}",
        before=before,
        after=board.deal,
    )
    return board


# --- disqualification and status ----------------------------------------------------------


@transaction.atomic
def disqualify_entrant(*, by: User, entrant: Entrant, reason: str) -> Disqualification:
    """Disqualify a team. In a final tournament it is marked 'after final' (docs/rulebook.md §7)."""
    tournament = _locked(entrant.tournament)
    _require_status(
        tournament,
        (Status.SCHEDULED, Status.RUNNING, Status.FINAL),
        "disqualify a team (in draft, remove the team instead)",
    )
    reason = reason.strip()
    if not reason:
        raise ServiceError(gettext("give the reason for the disqualification"))
    if Disqualification.objects.filter(entrant=entrant).exists():
        raise ServiceError(
            gettext("%(number)s %(name)s is disqualified already")
            % {"number": entrant.number, "name": entrant.name}
        )
    disqualification = Disqualification.objects.create(
        entrant=entrant,
        reason=reason,
        after_final=tournament.status == Status.FINAL,
        by=by if by is not None and by.is_authenticated else None,
    )
    _log(
        by=by,
        tournament=tournament,
        action="disqualify_team",
        summary=f"Disqualified team {entrant.number} {entrant.name!r}"
        + (" after final" if disqualification.after_final else ""),
        after={
            "team": entrant.number,
            "reason": reason,
            "after_final": disqualification.after_final,
        },
    )
    _ranking_inputs_changed(tournament)
    return disqualification


@transaction.atomic
def reinstate_entrant(*, by: User, entrant: Entrant) -> None:
    """Lift a disqualification given by mistake (not while final: reopen first)."""
    tournament = _locked(entrant.tournament)
    _require_status(tournament, (Status.SCHEDULED, Status.RUNNING), "lift a disqualification")
    disqualification = Disqualification.objects.filter(entrant=entrant).first()
    if disqualification is None:
        raise ServiceError(
            gettext("%(number)s %(name)s is not disqualified")
            % {"number": entrant.number, "name": entrant.name}
        )
    before = {
        "team": entrant.number,
        "reason": disqualification.reason,
        "after_final": disqualification.after_final,
    }
    disqualification.delete()
    _log(
        by=by,
        tournament=tournament,
        action="reinstate_team",
        summary=f"Lifted the disqualification of team {entrant.number} {entrant.name!r}",
        before=before,
    )
    _ranking_inputs_changed(tournament)


def _set_status(
    *, by: User, tournament: Tournament, status: str, action: str, summary: str, **extra: Any
) -> Tournament:
    old = tournament.status
    tournament.status = status
    tournament.save(update_fields=["status", "updated_at"])
    _log(
        by=by,
        tournament=tournament,
        action=action,
        summary=summary,
        before={"status": old},
        after={"status": status, **extra},
    )
    return tournament


@transaction.atomic
def start_tournament(
    *, by: User, tournament: Tournament, accept_problems: bool = False
) -> Tournament:
    """Scheduled → running. Every board must be dealt; schedule problems must be accepted."""
    tournament = _locked(tournament)
    _require_status(tournament, (Status.SCHEDULED,), "start the tournament")
    errors = []
    missing = selectors.missing_boards(tournament)
    if missing:
        listed = ", ".join(
            gettext("table %(table)s board %(board)s") % {"table": table, "board": board}
            for table, board in missing[:10]
        )
        if len(missing) > 10:
            listed += " " + gettext("and %(more)s more") % {"more": len(missing) - 10}
        errors.append(gettext("deal every board first; missing: %(boards)s") % {"boards": listed})
    if not Match.objects.filter(table__tournament=tournament).exists():
        errors.append(gettext("the schedule has no matches"))
    problems = selectors.schedule_problems(tournament)
    if problems and not accept_problems:
        errors.append(
            ngettext(
                "the schedule breaks %(count)s rule; fix it or confirm starting anyway",
                "the schedule breaks %(count)s rules; fix them or confirm starting anyway",
                len(problems),
            )
            % {"count": len(problems)}
        )
        errors += problems
    if errors:
        raise ServiceError(errors)
    return _set_status(
        by=by,
        tournament=tournament,
        status=Status.RUNNING,
        action="start_tournament",
        summary="Started the tournament" + (" despite schedule problems" if problems else ""),
        schedule_problems=problems,
    )


@transaction.atomic
def finalise_tournament(
    *, by: User, tournament: Tournament, anyway: bool = False, reason: str = ""
) -> Tournament:
    """Running → final: the standings are approved and frozen. Refused while a result is
    missing or a director call is open, unless the organiser finalises ``anyway`` and says
    why (the log keeps the reason and what was open)."""
    tournament = _locked(tournament)
    _require_status(tournament, (Status.RUNNING,), "finalise the tournament")
    missing, disputed = open_boards(tournament)
    summary = "Approved the standings as final"
    extra: dict[str, Any] = {}
    if missing or disputed:
        open_words = _open_words(missing, disputed)
        open_now = _open_words_in_language(missing, disputed)
        if not anyway:
            raise ServiceError(
                gettext("%(open)s: finalise anyway, with a reason, or settle them")
                % {"open": open_now}
            )
        reason = reason.strip()
        if not reason:
            raise ServiceError(
                gettext("%(open)s: give the reason for finalising anyway") % {"open": open_now}
            )
        summary = f"Approved the standings as final with {open_words}: {reason}"
        extra = {
            "reason": reason,
            "missing": [str(board) for board in missing],
            "disputed": [str(board) for board in disputed],
        }
    changed = _set_status(
        by=by,
        tournament=tournament,
        status=Status.FINAL,
        action="finalise_tournament",
        summary=summary,
        **extra,
    )
    _ranking_inputs_changed(changed)
    return changed


def _open_words(missing: list[Any], disputed: list[Any]) -> str:
    """``3 results missing and 1 director call open``."""
    parts = []
    if missing:
        parts.append(f"{plural(len(missing), 'result')} missing")
    if disputed:
        parts.append(f"{plural(len(disputed), 'director call')} open")
    return " and ".join(parts)


def _open_words_in_language(missing: list[Any], disputed: list[Any]) -> str:
    """``_open_words`` in the page's language (the log keeps the English)."""
    parts = []
    if missing:
        parts.append(
            ngettext("%(count)s result missing", "%(count)s results missing", len(missing))
            % {"count": len(missing)}
        )
    if disputed:
        parts.append(
            ngettext("%(count)s director call open", "%(count)s director calls open", len(disputed))
            % {"count": len(disputed)}
        )
    return f" {gettext('and')} ".join(parts)


@transaction.atomic
def reopen_tournament(*, by: User, tournament: Tournament, reason: str) -> Tournament:
    """Final → running, only with a reason; the log keeps it."""
    tournament = _locked(tournament)
    _require_status(tournament, (Status.FINAL,), "reopen the tournament")
    reason = reason.strip()
    if not reason:
        raise ServiceError(gettext("give the reason for reopening the tournament"))
    changed = _set_status(
        by=by,
        tournament=tournament,
        status=Status.RUNNING,
        action="reopen_tournament",
        summary=f"Reopened the tournament: {reason}",
        reason=reason,
    )
    _ranking_inputs_changed(changed)
    return changed
