"""Backing up one tournament as JSON, and restoring it.

``export_tournament`` writes everything the tournament holds, for every game: its settings
and status (the game and all of its settings), tables, boards (deals and dealers), entrants
(the teams of a pair game, the single players of a game of individuals) with their access
codes, matches and the seats of their players (together the schedule or movement), the byes
that follow from them, disqualifications, the whole scoring history (every entry, every check
and director's ruling, every result including retired ones, with every seat's table result)
and the action log. ``import_tournament`` creates the tournament again from such a document,
under its own slug or a new one, in one transaction: all or nothing. It checks the whole
tournament before that transaction commits, down to ranking it, so a backup that cannot be
restored leaves nothing behind (no tournament, row, log entry or queued task) and says why.

The standings are not in the file: they follow from the results, and the restore recomputes
them in its transaction. Rows refer to each other by what an organiser sees (team and table
numbers, rounds, board numbers, an entry's or review's number in the file), never by database
ids, so a backup restores into any database. Users are named by username; a user missing
where the backup is restored is left out (the log keeps the actor's name as text).

Every other column of a row is written under its own name, from the model's fields: a column a
model gains is in the next backup, and a backup without it restores with the column's default.

Format (``"format": "pymtheg-tournament-backup"``, ``"version": 3``): one JSON object with the
sections ``tournament``, ``tables``, ``boards``, ``teams``, ``matches``, ``seats``, ``byes``,
``disqualifications``, ``submissions``, ``reviews``, ``results`` and ``action_log``, and
``room_changes`` (late arrivals, withdrawals, substitutes; absent from older backups);
timestamps in ISO 8601 (docs/organiser.md, "Backups"). Version 2 is read as version 3, its
table results under their names of then (``ns_result``, ``ew_result``). Version 1 (no
``seats`` or ``byes``, the game's settings under ``settings``) is still read: its pair
tournaments restore whole, its tournaments of individuals cannot (it lacks their seats) and
are refused with that reason. A backup written before tournaments named their game holds
the default game's settings (``DEFAULT_GAME``) as fields of ``tournament`` and restores as
that game.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from engine.core.words import plural
from engine.games import DEFAULT_GAME, get_game
from engine.ranking import RankingInputError
from scoring import standings
from scoring.models import Result, Review, Submission
from scoring.services import rebuild_progress
from tournaments.action_log import summary_text, write_log
from tournaments.models import (
    ActionLog,
    Board,
    Disqualification,
    Entrant,
    Match,
    MatchSeat,
    RoomChange,
    Table,
    Tournament,
    scorable_games,
    seat_order,
)

FORMAT = "pymtheg-tournament-backup"
VERSION = 3
SECTIONS_BY_VERSION = {
    1: (
        "tournament",
        "tables",
        "boards",
        "teams",
        "matches",
        "disqualifications",
        "submissions",
        "reviews",
        "results",
        "action_log",
    ),
    2: (
        "tournament",
        "tables",
        "boards",
        "teams",
        "matches",
        "seats",
        "byes",
        "disqualifications",
        "submissions",
        "reviews",
        "results",
        "action_log",
    ),
}
# Version 3 holds the sections of version 2; its table results are named by seat.
SECTIONS_BY_VERSION[3] = SECTIONS_BY_VERSION[2]
SECTIONS = SECTIONS_BY_VERSION[VERSION]
# Columns of older versions under their names of then: {section: {old name: name now}}.
RENAMED_BEFORE_3 = {
    section: {"ns_result": "north_result", "ew_result": "east_result"}
    for section in ("submissions", "results")
}

# The relations of every model a backup holds. Each is written as what an organiser sees (the
# numbers of tables, boards, entrants and rounds; an entry or a review by its number in the
# file; a user by name), never as a database id; the tournament is the one being restored.
RELATIONS: dict[type[models.Model], tuple[str, ...]] = {
    Tournament: (),
    Table: ("tournament",),
    Board: ("table",),
    Entrant: ("tournament",),
    Match: ("table", "north_entrant", "east_entrant"),
    MatchSeat: ("match", "entrant"),
    Disqualification: ("entrant", "by"),
    RoomChange: ("tournament", "entrant", "by"),
    Submission: ("match", "board", "entrant", "user"),
    Review: ("match", "board", "submission", "entrant", "user"),
    Result: ("match", "board", "submission", "review"),
    ActionLog: ("tournament", "user"),
}
# Columns a restore sets itself: a log entry names the restored tournament's slug.
SET_ON_RESTORE: dict[type[models.Model], tuple[str, ...]] = {ActionLog: ("tournament_slug",)}
# Rows of a tournament that are not in a backup, and why (a test holds every model that refers
# to a tournament's rows to one of the lists).
DERIVED = {
    "scoring.BoardProgress": "folded again from the entries and reviews",
    "scoring.StandingsState": "recomputed from the results",
    "scoring.Standing": "recomputed from the results",
    "scoring.RankingPoints": "recomputed from the results",
    "publishing.ChartData": "recomputed from the standings",
    "publishing.Export": "files of this server, made again on request",
    "publishing.PublishingSettings": "this server's publishing choices, set again by hand",
    "broadcast.FeaturedTable": "this server's broadcast, featured again by hand (a new code)",
    "broadcast.Recording": "a featured table's play as recorded; its results are in the backup",
    "analysis.BoardAnalysis": "solved again from the deals (the deals page starts the job)",
    "clubs.ClubEvent": "the club's, not the tournament's: linked again on the club's event page",
    "clubs.EntrantMember": "the club's member list is not in a backup: linked again by hand",
}


class BackupError(Exception):
    """A backup that cannot be restored; the message says where and why."""


# --- the columns of a row --------------------------------------------------------------------


def own_fields(model: type[models.Model]) -> list[models.Field]:
    """The columns of ``model`` a backup writes under their own names: all but the id, the
    relations (``RELATIONS``) and what a restore sets itself."""
    skip = set(SET_ON_RESTORE.get(model, ()))
    return [
        field
        for field in model._meta.concrete_fields
        if not field.primary_key and not field.is_relation and field.name not in skip
    ]


def _stamped(field: models.Field) -> bool:
    """A time the database sets on save (``auto_now``/``auto_now_add``), restored after it."""
    return bool(getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False))


def _json_value(value: Any) -> Any:
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, Decimal | UUID):
        return str(value)
    return value


def _columns(obj: models.Model) -> dict[str, Any]:
    return {
        field.name: _json_value(field.value_from_object(obj)) for field in own_fields(type(obj))
    }


# --- export ----------------------------------------------------------------------------------


def _username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


def byes_of(
    entrant_numbers: Iterable[int], playing: Iterable[tuple[int, int]]
) -> list[dict[str, int]]:
    """Every round up to the last that has a match, each entrant not in ``playing`` (pairs of
    round and entrant number) that round: the byes of the schedule or movement."""
    seated: dict[int, set[int]] = defaultdict(set)
    for round_number, number in playing:
        seated[round_number].add(number)
    numbers = sorted(entrant_numbers)
    return [
        {"round": round_number, "team": number}
        for round_number in range(1, max(seated, default=0) + 1)
        for number in numbers
        if number not in seated[round_number]
    ]


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as a JSON-ready dict (see the module docstring)."""
    where, schedule = _schedule_sections(tournament)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "tournament": {
            **_columns(tournament),
            # Complete and checked, so the play keeps its rules wherever a game's defaults move.
            "game_settings": tournament.rules,
        },
        "tables": [_columns(t) for t in tournament.tables.order_by("number")],
        "boards": [
            {"table": b.table.number, **_columns(b)}
            for b in Board.objects.filter(table__tournament=tournament)
            .select_related("table")
            .order_by("table__number", "number")
        ],
        **schedule,
        "disqualifications": [
            {"team": d.entrant.number, **_columns(d), "by": _username(d.by)}
            for d in Disqualification.objects.filter(entrant__tournament=tournament)
            .select_related("entrant", "by")
            .order_by("entrant__number")
        ],
        # Late arrivals, withdrawals, substitutes (tournaments.room); an older backup has none.
        "room_changes": [
            {"entrant": c.entrant.number, **_columns(c), "by": _username(c.by)}
            for c in RoomChange.objects.filter(tournament=tournament)
            .select_related("entrant", "by")
            .order_by("created_at", "id")
        ],
        **_scoring_sections(tournament, where),
        "action_log": [
            {"user": _username(entry.user), **_columns(entry)}
            for entry in ActionLog.objects.filter(tournament=tournament)
            .select_related("user")
            .order_by("created_at", "id")
        ],
    }


Where = dict[int, dict[str, int]]


def _schedule_sections(tournament: Tournament) -> tuple[Where, dict[str, Any]]:
    """Each match's place by id (round and table), and the sections ``teams``, ``matches``,
    ``seats`` and ``byes``."""
    matches = list(
        Match.objects.filter(table__tournament=tournament)
        .select_related("table", "north_entrant", "east_entrant")
        .order_by("round", "table__number")
    )
    where = {m.pk: {"round": m.round, "table": m.table.number} for m in matches}
    seats = list(
        MatchSeat.objects.filter(match__table__tournament=tournament)
        .select_related("entrant")
        .order_by("round", "match__table__number", seat_order())
    )
    entrants = list(tournament.entrants.order_by("number"))
    playing = [(m.round, t.number) for m in matches for t in (m.north_entrant, m.east_entrant)]
    playing += [(seat.round, seat.entrant.number) for seat in seats]
    return where, {
        "teams": [_columns(t) for t in entrants],
        "matches": [
            {
                **where[m.pk],
                **_columns(m),
                "ns": m.north_entrant.number,
                "ew": m.east_entrant.number,
            }
            for m in matches
        ],
        "seats": [
            {**where[seat.match_id], **_columns(seat), "team": seat.entrant.number}
            for seat in seats
        ],
        "byes": byes_of((t.number for t in entrants), playing),
    }


def _scoring_sections(tournament: Tournament, where: Where) -> dict[str, Any]:
    """The sections ``submissions``, ``reviews`` and ``results``: the whole scoring history.
    Entries and reviews are numbered by their place in the file (ids of this database mean
    nothing in another)."""
    submissions = list(
        Submission.objects.filter(match__table__tournament=tournament)
        .select_related("board", "entrant", "user")
        .order_by("created_at", "id")
    )
    reviews = list(
        Review.objects.filter(match__table__tournament=tournament)
        .select_related("board", "entrant", "user")
        .order_by("created_at", "id")
    )
    entry_number = {s.pk: n for n, s in enumerate(submissions, 1)}
    review_number = {r.pk: n for n, r in enumerate(reviews, 1)}
    return {
        "submissions": [
            {
                "number": entry_number[s.pk],
                **where[s.match_id],
                "board": s.board.number,
                "team": s.entrant.number if s.entrant else None,
                "user": _username(s.user),
                **_columns(s),
            }
            for s in submissions
        ],
        "reviews": [
            {
                "number": review_number[r.pk],
                **where[r.match_id],
                "board": r.board.number,
                "submission": entry_number.get(r.submission_id),
                "team": r.entrant.number if r.entrant else None,
                "user": _username(r.user),
                **_columns(r),
            }
            for r in reviews
        ],
        "results": [
            {
                **where[r.match_id],
                "board": r.board.number,
                "submission": entry_number.get(r.submission_id),
                "review": review_number[r.review_id],
                **_columns(r),
            }
            for r in Result.objects.filter(match__table__tournament=tournament)
            .select_related("board")
            .order_by("created_at", "id")
        ],
    }


# --- reading a file --------------------------------------------------------------------------


def parse_backup(text: str) -> Any:
    """The JSON document of a backup file's text; ``BackupError`` says what is wrong with a
    file that is not one: empty, cut short (truncated), or not JSON at all."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        if not text.strip():
            raise BackupError("the file is empty") from None
        if _cut_short(text, exc):
            line = text.count("\n") + 1
            column = len(text) - text.rfind("\n")
            raise BackupError(
                f"the file is truncated: it ends at line {line} column {column}, in the middle "
                "of the backup"
            ) from None
        raise BackupError(f"not JSON: {exc}") from None


def _cut_short(text: str, exc: json.JSONDecodeError) -> bool:
    """Whether the JSON was well formed up to where the text ends: the parser ran out of text
    after a value, inside a string, or in the middle of a word (``tr`` of ``true``)."""
    rest = text[exc.pos :].strip()
    if not rest or exc.msg.startswith("Unterminated string"):
        return True
    return any(word.startswith(rest) for word in ("true", "false", "null"))


# --- import ----------------------------------------------------------------------------------


class _Reader:
    """Reads the sections of a backup, naming the place of any bad value."""

    def __init__(self, data: Any):
        if not isinstance(data, dict):
            raise BackupError("a backup is a JSON object")
        if data.get("format") != FORMAT:
            raise BackupError(f"not a tournament backup: 'format' must be {FORMAT!r}")
        self.version = data.get("version")
        if isinstance(self.version, bool) or self.version not in SECTIONS_BY_VERSION:
            readable = ", ".join(map(str, SECTIONS_BY_VERSION))
            raise BackupError(
                f"backup version {self.version!r} is not supported (this program reads "
                f"versions {readable})"
            )
        missing = [name for name in SECTIONS_BY_VERSION[self.version] if name not in data]
        if missing:
            raise BackupError(
                f"the backup lacks {plural(len(missing), 'section')}: {', '.join(missing)}"
            )
        self.data = data
        self.users: dict[str, Any] = {}
        self.unknown_users: set[str] = set()

    def rows(self, section: str) -> Iterable[tuple[str, dict[str, Any]]]:
        """``(where, row)`` of a section; a section a version 1 backup lacks is empty."""
        if section not in self.data and section not in SECTIONS_BY_VERSION[self.version]:
            return
        rows = self.data[section]
        if not isinstance(rows, list):
            raise BackupError(f"{section}: must be a list")
        for index, row in enumerate(rows):
            if not isinstance(row, dict):
                raise BackupError(f"{section}[{index}]: must be an object")
            yield f"{section}[{index}]", self._current_names(section, row)

    def _current_names(self, section: str, row: dict[str, Any]) -> dict[str, Any]:
        renamed = RENAMED_BEFORE_3.get(section, {}) if self.version < 3 else {}
        return {renamed.get(name, name): value for name, value in row.items()}

    def user(self, username: Any, where: str) -> Any:
        """The user of this name here; None (and noted) for one this server lacks."""
        if not username:
            return None
        if not isinstance(username, str):
            raise BackupError(f"{where}: a user is named by text, not {username!r}")
        if username not in self.users:
            User = get_user_model()
            found = User.objects.filter(**{User.USERNAME_FIELD: username}).first()
            if found is None:
                self.unknown_users.add(username)
            self.users[username] = found
        return self.users[username]


def _when(value: Any, where: str) -> datetime | None:
    if value is None:
        return None
    parsed = parse_datetime(value) if isinstance(value, str) else None
    if parsed is None:
        raise BackupError(f"{where}: {value!r} is not a date and time")
    return parsed


def _value(field: models.Field, raw: Any, where: str) -> Any:
    """A column's value from the file, converted and checked as the model's field does."""
    name = field.name
    if isinstance(field, models.DateTimeField):
        return _when(raw, f"{where}: {name}")
    if raw is None and not isinstance(field, models.JSONField):
        if field.null:
            return None
        raise BackupError(f"{where}: {name} may not be null")
    try:
        value = field.to_python(raw)
        if value not in field.empty_values:
            field.validate(value, None)  # a value among the field's choices
            field.run_validators(value)  # its length, its range, an address's form ...
    except ValidationError as exc:
        raise BackupError(f"{where}: {name}: {' '.join(exc.messages)}") from None
    return value


def _make(
    model: type[models.Model], where: str, row: dict[str, Any], **given: Any
) -> tuple[models.Model, dict[str, Any]]:
    """A row of ``model`` from the file's object (columns under their own names; ``given``
    sets the relations and any column in their place), and its database-set times."""
    values: dict[str, Any] = {}
    stamps: dict[str, Any] = {}
    for field in own_fields(model):
        if field.name in given:
            continue
        if field.name not in row:
            if not (field.has_default() or field.null or _stamped(field)):
                raise BackupError(f"{where}: the field {field.name!r} is missing")
            continue  # written before the model had this column: its default
        value = _value(field, row[field.name], where)
        (stamps if _stamped(field) else values)[field.name] = value
    try:
        return model(**values, **given), stamps
    except (TypeError, ValueError) as exc:
        raise BackupError(f"{where}: {exc}") from None


def _insert(model: type[models.Model], rows: list[tuple[models.Model, dict[str, Any]]]) -> None:
    """Insert the rows in order, then give them back their own times (which ``auto_now_add``
    replaced with now)."""
    objects = [obj for obj, _stamps in rows]
    model.objects.bulk_create(objects, batch_size=500)
    names: set[str] = set()
    for obj, stamps in rows:
        for name, value in stamps.items():
            if value is not None:
                setattr(obj, name, value)
                names.add(name)
    if names:
        model.objects.bulk_update(objects, sorted(names), batch_size=500)


def _look_up(table: dict, key: Any, where: str, what: str) -> Any:
    try:
        return table[key]
    except (KeyError, TypeError):
        raise BackupError(f"{where}: there is no {what} {key!r} in the backup") from None


def _once(found: dict, key: Any, value: Any, where: str, what: str) -> None:
    if key in found:
        raise BackupError(f"{where}: the {what} {key!r} appears twice")
    found[key] = value


def _older_game_settings(data: dict[str, Any]) -> Any:
    """The game's settings of a backup older than version 2: a backup written before
    tournaments named their game held the default game's settings as tournament fields."""
    if "settings" in data:
        return data["settings"]
    names = get_game(DEFAULT_GAME).default_settings
    return {name: data[name] for name in names if name in data}


def _check_tournament(reader: _Reader, slug: str | None) -> tuple[Tournament, dict[str, Any]]:
    data = reader.data["tournament"]
    if not isinstance(data, dict):
        raise BackupError("tournament: must be an object")
    game = data.get("game", DEFAULT_GAME)
    if game not in scorable_games():
        raise BackupError(
            f"tournament: unknown game {game!r}: this program plays {', '.join(scorable_games())}"
        )
    slug = slug or data.get("slug")
    if Tournament.objects.filter(slug=slug).exists():
        raise BackupError(
            f"a tournament {slug!r} exists already: restore under another slug (--slug) or "
            "delete that one first"
        )
    given: dict[str, Any] = {"slug": slug}
    if "game_settings" not in data:
        given["game_settings"] = _older_game_settings(data)
    tournament, stamps = _make(Tournament, "tournament", data, **given)
    try:
        tournament.full_clean()
    except ValidationError as exc:
        problems = "; ".join(f"{k}: {' '.join(v)}" for k, v in exc.message_dict.items())
        raise BackupError(f"tournament: {problems}") from None
    return tournament, stamps


@transaction.atomic
def import_tournament(data: Any, *, slug: str | None = None, by: Any = None) -> Tournament:
    """Create the tournament of a backup (under ``slug`` if given) and its standings, in one
    transaction. Raises ``BackupError``; nothing is then left of the restore."""
    reader = _Reader(data)
    tournament, stamps = _check_tournament(reader, slug)
    try:
        _Restore(reader, tournament, by).run(stamps)
    except DatabaseError as exc:
        # A value the database refuses: two rows claiming one place, a bad address, ...
        raise BackupError(f"the database refused the backup: {exc}") from None
    tournament.refresh_from_db()  # the restored times were written past the instance
    return tournament


def _whole_per_seat(seats: Any, wanted: tuple[str, ...]) -> bool:
    """Whether a result's ``seats`` gives a whole number to each of the ``wanted`` seats and
    to no other."""
    return (
        isinstance(seats, dict)
        and set(seats) == set(wanted)
        and all(isinstance(v, int) and not isinstance(v, bool) for v in seats.values())
    )


class _Restore:
    """The rows of one backup, created in order; each step checks what it reads."""

    def __init__(self, reader: _Reader, tournament: Tournament, by: Any):
        self.reader = reader
        self.tournament = tournament
        self.by = by
        self.game = tournament.game_rules
        self.seat_names = tournament.seats if tournament.of_players else ()
        self.tables: dict[int, Table] = {}
        self.boards: dict[tuple[int, int], Board] = {}
        self.entrants: dict[int, Entrant] = {}
        self.matches: dict[tuple[int, int], Match] = {}
        self.match_where: dict[tuple[int, int], str] = {}
        self.seating: dict[tuple[int, int], dict[str, Entrant]] = defaultdict(dict)

    def run(self, stamps: dict[str, Any]) -> None:
        """Every row, checked; then the log's note of the restore, and the standings."""
        tournament = self.tournament
        tournament.save()
        created_at = stamps.get("created_at") or timezone.now()
        Tournament.objects.filter(pk=tournament.pk).update(created_at=created_at)
        self._tables()
        self._boards()
        self._entrants()
        self._matches()
        self._seats()
        self._byes()
        self._disqualifications()
        self._room_changes()
        entries = self._history()
        self._action_log()
        if stamps.get("updated_at") is not None:
            Tournament.objects.filter(pk=tournament.pk).update(updated_at=stamps["updated_at"])
        self._log_restore(entries)
        self._standings()

    # -- the field ---------------------------------------------------------------------------

    def _tables(self) -> None:
        rows = []
        for where, row in self.reader.rows("tables"):
            table, stamps = _make(Table, where, row, tournament=self.tournament)
            _once(self.tables, table.number, table, where, "table")
            rows.append((table, stamps))
        _insert(Table, rows)

    def _boards(self) -> None:
        rows = []
        players = self.tournament.table_size
        for where, row in self.reader.rows("boards"):
            table = _look_up(self.tables, row.get("table"), where, "table")
            board, stamps = _make(Board, where, row, table=table)
            if "dealer" not in row:  # version 1: the game's fixed dealer of the board
                board.dealer = self.game.dealer(board.number, players)
            try:
                board.full_clean(exclude=["table"], validate_unique=False)
            except ValidationError as exc:
                raise BackupError(f"{where}: {'; '.join(exc.messages)}") from None
            _once(self.boards, (table.number, board.number), board, where, "board (table, board)")
            rows.append((board, stamps))
        _insert(Board, rows)

    def _entrants(self) -> None:
        rows = []
        word = self.tournament.entrant_word
        for where, row in self.reader.rows("teams"):
            entrant, stamps = _make(Entrant, where, row, tournament=self.tournament)
            _once(self.entrants, entrant.number, entrant, where, word)
            rows.append((entrant, stamps))
        _insert(Entrant, rows)

    # -- the schedule or movement ----------------------------------------------------------

    def _matches(self) -> None:
        rows = []
        word = self.tournament.entrant_word
        for where, row in self.reader.rows("matches"):
            match, stamps = _make(
                Match,
                where,
                row,
                table=_look_up(self.tables, row.get("table"), where, "table"),
                north_entrant=_look_up(self.entrants, row.get("ns"), where, word),
                east_entrant=_look_up(self.entrants, row.get("ew"), where, word),
            )
            key = (match.round, match.table.number)
            _once(self.matches, key, match, where, "match (round, table)")
            self.match_where[key] = f"{where} (round {key[0]}, table {key[1]})"
            rows.append((match, stamps))
        _insert(Match, rows)

    def _seats(self) -> None:
        """The players' seats of a game of individuals: every seat of every match taken, one
        seat a round for each player, North and East the match's own entrants."""
        rows, seated_in_round = [], set()
        for where, row in self.reader.rows("seats"):
            key, seat, stamps = self._seat(where, row, seated_in_round)
            self.seating[key][seat.seat] = seat.entrant
            seated_in_round.add((seat.round, seat.entrant.number))
            rows.append((seat, stamps))
        for key, match in self.matches.items():
            self._check_seated(key, match)
        _insert(MatchSeat, rows)

    def _seat(
        self, where: str, row: dict, seated_in_round: set
    ) -> tuple[tuple[Any, Any], MatchSeat, Any]:
        """One seat of the backup with its match's (round, table): of a match the backup
        holds, free so far, its player seated once in its round."""
        word = self.tournament.entrant_word
        if not self.tournament.of_players:
            raise BackupError(
                f"{where}: {self.game.title} is played by pairs, whose matches have no seats"
            )
        key = (row.get("round"), row.get("table"))
        match = _look_up(self.matches, key, where, "match (round, table)")
        seat, stamps = _make(
            MatchSeat,
            where,
            row,
            match=match,
            entrant=_look_up(self.entrants, row.get("team"), where, word),
        )
        if seat.seat not in self.seat_names:
            raise BackupError(
                f"{where}: {seat.seat!r} is not a seat of a table of "
                f"{self.tournament.table_size} ({', '.join(self.seat_names)})"
            )
        if seat.seat in self.seating[key]:
            raise BackupError(
                f"{where}: the seat {seat.seat} of round {key[0]}, table {key[1]} appears twice"
            )
        if (seat.round, seat.entrant.number) in seated_in_round:
            raise BackupError(
                f"{where}: {word} {seat.entrant.number} has two seats in round {seat.round}"
            )
        return key, seat, stamps

    def _check_seated(self, key: tuple, match: Match) -> None:
        """Every seat of a match of individuals taken, North and East by its own entrants."""
        word = self.tournament.entrant_word
        seated = self.seating.get(key, {})
        if self.tournament.of_players:
            self._check_every_seat_taken(key, match, seated)
        for name, side, entrant in (
            ("N", "ns", match.north_entrant),
            ("E", "ew", match.east_entrant),
        ):
            if seated and seated[name].number != entrant.number:
                raise BackupError(
                    f"{self.match_where[key]}: '{side}' is {word} {entrant.number} but the "
                    f"seat {name} holds {word} {seated[name].number}"
                )

    def _check_every_seat_taken(self, key: tuple, match: Match, seated: dict[str, Any]) -> None:
        """Each seat of the table holds a player (a table's own players where the tables are
        of several sizes)."""
        wanted = self.game.seats(match.table.players or self.tournament.table_size)
        missing = [name for name in wanted if name not in seated]
        if not missing:
            return
        older = (
            " (a version 1 backup does not hold them: export the tournament again)"
            if self.reader.version == 1
            else ""
        )
        raise BackupError(
            f"{self.match_where[key]}: no player in seat{'s' if len(missing) > 1 else ''} "
            f"{', '.join(missing)}: a match of {self.game.title} seats a player at each of "
            f"{', '.join(wanted)}{older}"
        )

    def _byes(self) -> None:
        """A backup's byes follow from its matches and seats; they must agree."""
        if "byes" not in self.reader.data:  # version 1
            return
        written = self._written_byes()
        found: dict[int, set[int]] = defaultdict(set)
        for bye in byes_of(self.entrants, self._playing()):
            found[bye["round"]].add(bye["team"])
        for round_number in sorted(set(written) | set(found)):
            if written[round_number] != found[round_number]:
                listed = ", ".join(map(str, sorted(written[round_number]))) or "none"
                follow = ", ".join(map(str, sorted(found[round_number]))) or "none"
                raise BackupError(
                    f"byes: round {round_number} lists byes for {listed}, but its matches leave "
                    f"out {follow}"
                )

    def _written_byes(self) -> dict[int, set[int]]:
        """The byes the backup lists: each round's entrants sitting out."""
        written: dict[int, set[int]] = defaultdict(set)
        for where, row in self.reader.rows("byes"):
            round_number = row.get("round")
            if isinstance(round_number, bool) or not isinstance(round_number, int):
                raise BackupError(f"{where}: the round must be a whole number")
            entrant = _look_up(self.entrants, row.get("team"), where, self.tournament.entrant_word)
            written[round_number].add(entrant.number)
        return written

    def _playing(self) -> list[tuple[int, int]]:
        """(round, entrant number) of every entrant a match or a seat places."""
        playing = [
            (match.round, entrant.number)
            for match in self.matches.values()
            for entrant in (match.north_entrant, match.east_entrant)
        ]
        playing += [
            (round_number, entrant.number)
            for (round_number, _table), seats in self.seating.items()
            for entrant in seats.values()
        ]
        return playing

    def _disqualifications(self) -> None:
        word = self.tournament.entrant_word
        _insert(
            Disqualification,
            [
                _make(
                    Disqualification,
                    where,
                    row,
                    entrant=_look_up(self.entrants, row.get("team"), where, word),
                    by=self.reader.user(row.get("by"), where),
                )
                for where, row in self.reader.rows("disqualifications")
            ],
        )

    def _room_changes(self) -> None:
        word = self.tournament.entrant_word
        _insert(
            RoomChange,
            [
                _make(
                    RoomChange,
                    where,
                    row,
                    tournament=self.tournament,
                    entrant=_look_up(self.entrants, row.get("entrant"), where, word),
                    by=self.reader.user(row.get("by"), where),
                )
                for where, row in self.reader.rows("room_changes")
            ],
        )

    # -- the scoring history ---------------------------------------------------------------

    def _match_board(self, row: dict, where: str) -> tuple[Match, Board]:
        key = (row.get("round"), row.get("table"))
        match = _look_up(self.matches, key, where, "match (round, table)")
        board = _look_up(
            self.boards, (row.get("table"), row.get("board")), where, "board (table, board)"
        )
        return match, board

    def _entry(self, submissions: dict, number: Any, where: str) -> Submission | None:
        return None if number is None else _look_up(submissions, number, where, "entry")

    def _entrant_or_none(self, number: Any, where: str) -> Entrant | None:
        if number is None:
            return None
        return _look_up(self.entrants, number, where, self.tournament.entrant_word)

    def _history(self) -> int:
        reader = self.reader
        submissions: dict[Any, Submission] = {}
        rows = []
        for where, row in reader.rows("submissions"):
            match, board = self._match_board(row, where)
            submission, stamps = _make(
                Submission,
                where,
                row,
                match=match,
                board=board,
                entrant=self._entrant_or_none(row.get("team"), where),
                user=reader.user(row.get("user"), where),
            )
            _once(submissions, row.get("number"), submission, where, "entry number")
            rows.append((submission, stamps))
        _insert(Submission, rows)
        reviews: dict[Any, Review] = {}
        rows = []
        for where, row in reader.rows("reviews"):
            match, board = self._match_board(row, where)
            review, stamps = _make(
                Review,
                where,
                row,
                match=match,
                board=board,
                submission=self._entry(submissions, row.get("submission"), where),
                entrant=self._entrant_or_none(row.get("team"), where),
                user=reader.user(row.get("user"), where),
            )
            _once(reviews, row.get("number"), review, where, "review number")
            rows.append((review, stamps))
        _insert(Review, rows)
        rows = []
        for where, row in reader.rows("results"):
            match, board = self._match_board(row, where)
            result, stamps = _make(
                Result,
                where,
                row,
                match=match,
                board=board,
                submission=self._entry(submissions, row.get("submission"), where),
                review=_look_up(reviews, row.get("review"), where, "review"),
            )
            self._check_seat_results(result, where)
            rows.append((result, stamps))
        _insert(Result, rows)
        rebuild_progress([match.pk for match in self.matches.values()])
        return len(submissions)

    def _check_seat_results(self, result: Result, where: str) -> None:
        """A result of a game of individuals gives every seat of the table its result."""
        if not self.seat_names:
            return
        # The seats of the result's own table (tables of several sizes have their own).
        wanted = self.game.seats(result.match.table.players or self.tournament.table_size)
        seats = result.seats
        if _whole_per_seat(seats, wanted):
            return
        given = "none" if seats is None else json.dumps(seats)
        older = " (a version 1 backup does not hold them)" if self.reader.version == 1 else ""
        raise BackupError(
            f"{where}: a result of {self.game.title} gives a whole number to each seat "
            f"{', '.join(wanted)} in 'seats'; this one gives {given}{older}"
        )

    # -- the log and the standings ---------------------------------------------------------

    def _action_log(self) -> None:
        rows = []
        for where, row in self.reader.rows("action_log"):
            summary = row.get("summary")
            if isinstance(summary, str):
                # Cut as the log's writer cuts it (a backup made on SQLite may hold a longer one).
                row = {**row, "summary": summary_text(summary)}
            rows.append(
                _make(
                    ActionLog,
                    where,
                    row,
                    tournament=self.tournament,
                    tournament_slug=self.tournament.slug,
                    user=self.reader.user(row.get("user"), where),
                )
            )
        _insert(ActionLog, rows)

    def _log_restore(self, entries: int) -> None:
        reader, tournament = self.reader, self.tournament
        write_log(
            tournament=tournament,
            by=self.by,
            action="import_tournament",
            summary=(
                f"Restored the tournament from a backup made {reader.data.get('exported_at')}"
            ),
            after={
                "slug": tournament.slug,
                "backup_slug": reader.data["tournament"].get("slug"),
                "version": reader.version,
                "teams": len(self.entrants),
                "entries": entries,
                "unknown_users": sorted(reader.unknown_users),
            },
        )

    def _standings(self) -> None:
        """Rank the restored results in this transaction: the standings are there when it
        commits, and results that cannot be ranked restore nothing."""
        standings.mark_changed(self.tournament)
        try:
            standings.recompute(self.tournament.pk)
        except RankingInputError as exc:
            raise BackupError(f"the restored results cannot be ranked: {exc}") from None
