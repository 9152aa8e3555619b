"""Backing up one tournament as JSON, and restoring it.

``export_tournament`` writes everything the tournament holds: its settings and status, tables,
boards (deals), teams with their access codes, matches, disqualifications, the whole scoring
history (every entry, every review, every result including retired ones) and its action log.
``import_tournament`` creates the tournament again from such a document, under its own slug or
a new one, in one transaction: all or nothing.

The standings are not in the file: they follow from the results, and are recomputed after a
restore. Rows refer to each other by what an organiser sees (team and table numbers, rounds,
board numbers, the entry's place in the file), never by database ids, so a backup restores
into any database. Users are named by username; a user missing where the backup is restored is
left out (the log keeps the actor's name as text).

Format (``"format": "pymtheg-tournament-backup"``, ``"version": 1``): one JSON object with the
sections ``tournament``, ``tables``, ``boards``, ``teams``, ``matches``, ``disqualifications``,
``submissions``, ``reviews``, ``results`` and ``action_log``; timestamps in ISO 8601. The
tournament names its ``game`` and that game's ``settings``; a backup written before tournaments
named their game holds Pymtheg's settings as fields of ``tournament`` and restores as Pymtheg.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from engine.core.words import plural
from engine.games import DEFAULT_GAME
from scoring.models import Result, Review, Submission
from tournaments.action_log import summary_text, write_log
from tournaments.models import (
    ActionLog,
    Board,
    Disqualification,
    Match,
    Table,
    Team,
    Tournament,
)
from tournaments.services import TOURNAMENT_FIELDS

FORMAT = "pymtheg-tournament-backup"
VERSION = 1
SECTIONS = (
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
)
SETTINGS = (*TOURNAMENT_FIELDS, "status")


class BackupError(Exception):
    """A backup that cannot be restored; the message says where and why."""


# --- export ----------------------------------------------------------------------------------


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as a JSON-ready dict (see the module docstring)."""
    matches = Match.objects.filter(table__tournament=tournament).select_related(
        "table", "ns_team", "ew_team"
    )
    where = {m.pk: {"round": m.round, "table": m.table.number} for m in matches}
    submissions = list(
        Submission.objects.filter(match__in=matches)
        .select_related("board", "team", "user")
        .order_by("created_at", "id")
    )
    reviews = list(
        Review.objects.filter(match__in=matches)
        .select_related("board", "team", "user")
        .order_by("created_at", "id")
    )
    # Entries and reviews are numbered by their place in the file: ids of this database mean
    # nothing in another.
    entry_number = {s.pk: n for n, s in enumerate(submissions, 1)}
    review_number = {r.pk: n for n, r in enumerate(reviews, 1)}
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _time(timezone.now()),
        "tournament": {
            **{name: getattr(tournament, name) for name in SETTINGS},
            "game": tournament.game,
            "settings": tournament.rules,
            "slug": tournament.slug,
            "created_at": _time(tournament.created_at),
            "updated_at": _time(tournament.updated_at),
        },
        "tables": [
            {"number": t.number, "label": t.label} for t in tournament.tables.order_by("number")
        ],
        "boards": [
            {"table": b.table.number, "number": b.number, "deal": b.deal}
            for b in Board.objects.filter(table__tournament=tournament)
            .select_related("table")
            .order_by("table__number", "number")
        ],
        "teams": [
            {
                "number": t.number,
                "name": t.name,
                "player1": t.player1,
                "player2": t.player2,
                "access_code": t.access_code,
            }
            for t in tournament.teams.order_by("number")
        ],
        "matches": [
            {**where[m.pk], "ns": m.ns_team.number, "ew": m.ew_team.number}
            for m in matches.order_by("round", "table__number")
        ],
        "disqualifications": [
            {
                "team": d.team.number,
                "reason": d.reason,
                "after_final": d.after_final,
                "by": _username(d.by),
                "created_at": _time(d.created_at),
            }
            for d in Disqualification.objects.filter(team__tournament=tournament)
            .select_related("team", "by")
            .order_by("team__number")
        ],
        "submissions": [
            {
                "number": entry_number[s.pk],
                **where[s.match_id],
                "board": s.board.number,
                "source": s.source,
                "team": s.team.number if s.team else None,
                "seat": s.seat,
                "user": _username(s.user),
                "client_id": s.client_id,
                "remote_addr": s.remote_addr,
                "created_at": _time(s.created_at),
                "record": s.record,
                "score": s.score,
                "ns_result": s.ns_result,
                "ew_result": s.ew_result,
            }
            for s in submissions
        ],
        "reviews": [
            {
                "number": review_number[r.pk],
                **where[r.match_id],
                "board": r.board.number,
                "submission": entry_number.get(r.submission_id),
                "action": r.action,
                "team": r.team.number if r.team else None,
                "user": _username(r.user),
                "client_id": r.client_id,
                "remote_addr": r.remote_addr,
                "reason": r.reason,
                "created_at": _time(r.created_at),
            }
            for r in reviews
        ],
        "results": [
            {
                **where[r.match_id],
                "board": r.board.number,
                "kind": r.kind,
                "submission": entry_number.get(r.submission_id),
                "review": review_number[r.review_id],
                "ns_result": r.ns_result,
                "ew_result": r.ew_result,
                "passed_out": r.passed_out,
                "reason": r.reason,
                "current": r.current,
                "created_at": _time(r.created_at),
                "ended_at": _time(r.ended_at),
            }
            for r in Result.objects.filter(match__in=matches)
            .select_related("board")
            .order_by("created_at", "id")
        ],
        "action_log": [
            {
                "user": _username(entry.user),
                "actor": entry.actor,
                "created_at": _time(entry.created_at),
                "action": entry.action,
                "summary": entry.summary,
                "before": entry.before,
                "after": entry.after,
            }
            for entry in ActionLog.objects.filter(tournament=tournament)
            .select_related("user")
            .order_by("created_at", "id")
        ],
    }


# --- import ----------------------------------------------------------------------------------


class _Reader:
    """Reads the sections of a backup, naming the place of any bad value."""

    def __init__(self, data: Any):
        if not isinstance(data, dict):
            raise BackupError("a backup is a JSON object")
        if data.get("format") != FORMAT:
            raise BackupError(f"not a tournament backup: 'format' must be {FORMAT!r}")
        if data.get("version") != VERSION:
            raise BackupError(
                f"backup version {data.get('version')!r} is not supported (this program reads "
                f"version {VERSION})"
            )
        missing = [name for name in SECTIONS if name not in data]
        if missing:
            raise BackupError(
                f"the backup lacks {plural(len(missing), 'section')}: {', '.join(missing)}"
            )
        self.data = data
        self.users: dict[str, Any] = {}
        self.unknown_users: set[str] = set()

    def rows(self, section: str) -> Iterable[tuple[str, dict[str, Any]]]:
        rows = self.data[section]
        if not isinstance(rows, list):
            raise BackupError(f"{section}: must be a list")
        for index, row in enumerate(rows):
            if not isinstance(row, dict):
                raise BackupError(f"{section}[{index}]: must be an object")
            yield f"{section}[{index}]", row

    def user(self, username: str | None) -> Any:
        if not username:
            return None
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


def _look_up(table: dict, key: Any, where: str, what: str) -> Any:
    try:
        return table[key]
    except (KeyError, TypeError):
        raise BackupError(f"{where}: there is no {what} {key!r} in the backup") from None


def _once(found: dict, key: Any, value: Any, where: str, what: str) -> None:
    if key in found:
        raise BackupError(f"{where}: the {what} {key!r} appears twice")
    found[key] = value


def _build(where: str, make: Callable[[], models.Model]) -> models.Model:
    try:
        return make()
    except KeyError as exc:
        raise BackupError(f"{where}: the field {exc.args[0]!r} is missing") from None
    except (TypeError, ValueError) as exc:
        raise BackupError(f"{where}: {exc}") from None


def _create(model: type[models.Model], rows: list[tuple[models.Model, Any]]) -> list:
    """Insert the rows in order, then give them back their own creation times (which
    ``auto_now_add`` replaced with now)."""
    objects = [obj for obj, _when in rows]
    model.objects.bulk_create(objects, batch_size=500)
    for obj, created_at in rows:
        if created_at is not None:
            obj.created_at = created_at
    if objects:
        model.objects.bulk_update(objects, ["created_at"], batch_size=500)
    return objects


# What a backup written before tournaments named their game held as tournament fields.
PYMTHEG_FIELDS = (
    "ruleset",
    "direction",
    "opening_rule",
    "opening_seat",
    "all_tricks_bonus",
    "heavy_failure_penalty",
    "illegal_trump_penalty",
)


def _game_settings(data: dict[str, Any]) -> Any:
    if "settings" in data:
        return data["settings"]
    return {name: data[name] for name in PYMTHEG_FIELDS if name in data}


def _check_tournament(reader: _Reader, slug: str | None) -> Tournament:
    data = reader.data["tournament"]
    if not isinstance(data, dict):
        raise BackupError("tournament: must be an object")
    slug = slug or data.get("slug")
    if Tournament.objects.filter(slug=slug).exists():
        raise BackupError(
            f"a tournament {slug!r} exists already: restore under another slug (--slug) or "
            "delete that one first"
        )
    tournament = _build(
        "tournament",
        lambda: Tournament(
            slug=slug,
            game=data.get("game", DEFAULT_GAME),
            game_settings=_game_settings(data),
            **{name: data[name] for name in SETTINGS},
        ),
    )
    try:
        tournament.full_clean()
    except ValidationError as exc:
        problems = "; ".join(f"{k}: {' '.join(v)}" for k, v in exc.message_dict.items())
        raise BackupError(f"tournament: {problems}") from None
    return tournament


@transaction.atomic
def import_tournament(data: Any, *, slug: str | None = None, by: Any = None) -> Tournament:
    """Create the tournament of a backup (under ``slug`` if given). Raises ``BackupError``."""
    reader = _Reader(data)
    tournament = _check_tournament(reader, slug)
    try:
        _restore(reader, tournament, by)
    except DatabaseError as exc:
        # A value the database refuses: two rows claiming one place, a bad address, ...
        raise BackupError(f"the database refused the backup: {exc}") from None
    tournament.refresh_from_db()  # the restored times were written past the instance
    return tournament


def _restore(reader: _Reader, tournament: Tournament, by: Any) -> None:
    header = reader.data["tournament"]
    tournament.save()
    Tournament.objects.filter(pk=tournament.pk).update(
        created_at=_when(header.get("created_at"), "tournament") or timezone.now()
    )
    tables = {
        t.number: t
        for t in Table.objects.bulk_create(
            _build(
                w, lambda r=r: Table(tournament=tournament, number=r["number"], label=r["label"])
            )
            for w, r in reader.rows("tables")
        )
    }
    boards = {}
    for where, row in reader.rows("boards"):
        table = _look_up(tables, row.get("table"), where, "table")
        board = _build(
            where, lambda r=row, t=table: Board(table=t, number=r["number"], deal=r["deal"])
        )
        try:
            board.full_clean(exclude=["table"], validate_unique=False)
        except ValidationError as exc:
            raise BackupError(f"{where}: {'; '.join(exc.messages)}") from None
        _once(boards, (table.number, board.number), board, where, "board (table, board)")
    Board.objects.bulk_create(boards.values())
    teams = {
        t.number: t
        for t in Team.objects.bulk_create(
            _build(
                w,
                lambda r=r: Team(
                    tournament=tournament,
                    number=r["number"],
                    name=r["name"],
                    player1=r["player1"],
                    player2=r["player2"],
                    access_code=r["access_code"],
                ),
            )
            for w, r in reader.rows("teams")
        )
    }
    matches = {}
    for where, row in reader.rows("matches"):
        match = _build(
            where,
            lambda r=row, w=where: Match(
                round=r["round"],
                table=_look_up(tables, r["table"], w, "table"),
                ns_team=_look_up(teams, r["ns"], w, "team"),
                ew_team=_look_up(teams, r["ew"], w, "team"),
            ),
        )
        _once(matches, (match.round, match.table.number), match, where, "match (round, table)")
    Match.objects.bulk_create(matches.values())
    _create(
        Disqualification,
        [
            (
                _build(
                    w,
                    lambda r=r, w=w: Disqualification(
                        team=_look_up(teams, r["team"], w, "team"),
                        reason=r["reason"],
                        after_final=r["after_final"],
                        by=reader.user(r.get("by")),
                    ),
                ),
                _when(r.get("created_at"), w),
            )
            for w, r in reader.rows("disqualifications")
        ],
    )
    entries = _restore_history(reader, matches, boards, teams)
    _create(
        ActionLog,
        [
            (
                _build(
                    w,
                    lambda r=r: ActionLog(
                        tournament=tournament,
                        tournament_slug=tournament.slug,
                        user=reader.user(r.get("user")),
                        actor=r["actor"],
                        action=r["action"],
                        summary=_summary(r["summary"]),
                        before=r.get("before"),
                        after=r.get("after"),
                    ),
                ),
                _when(r.get("created_at"), w),
            )
            for w, r in reader.rows("action_log")
        ],
    )
    updated_at = _when(header.get("updated_at"), "tournament")
    if updated_at is not None:
        Tournament.objects.filter(pk=tournament.pk).update(updated_at=updated_at)
    _log_restore(tournament, by, reader, entries)
    # The standings follow from the restored results (recomputed by the standings task).
    from scoring.services import results_changed

    results_changed(tournament)


def _match_board(row: dict, where: str, matches: dict, boards: dict) -> tuple[Match, Board]:
    match = _look_up(matches, (row.get("round"), row.get("table")), where, "match (round, table)")
    board = _look_up(boards, (row.get("table"), row.get("board")), where, "board (table, board)")
    return match, board


def _team_or_none(teams: dict, number: Any, where: str) -> Team | None:
    return None if number is None else _look_up(teams, number, where, "team")


def _restore_history(reader: _Reader, matches: dict, boards: dict, teams: dict) -> int:
    submissions: dict[int, Submission] = {}
    rows = []
    for where, row in reader.rows("submissions"):
        match, board = _match_board(row, where, matches, boards)
        submission = _build(
            where,
            lambda r=row, w=where, m=match, b=board: Submission(
                match=m,
                board=b,
                source=r["source"],
                team=_team_or_none(teams, r.get("team"), w),
                seat=r["seat"],
                user=reader.user(r.get("user")),
                client_id=r["client_id"],
                remote_addr=r.get("remote_addr"),
                record=r["record"],
                score=r["score"],
                ns_result=r.get("ns_result"),
                ew_result=r.get("ew_result"),
            ),
        )
        submissions[row.get("number")] = submission
        rows.append((submission, _when(row.get("created_at"), where)))
    _create(Submission, rows)
    reviews: dict[int, Review] = {}
    rows = []
    for where, row in reader.rows("reviews"):
        match, board = _match_board(row, where, matches, boards)
        number = row.get("submission")
        review = _build(
            where,
            lambda r=row, w=where, m=match, b=board, n=number: Review(
                match=m,
                board=b,
                submission=None if n is None else _look_up(submissions, n, w, "entry"),
                action=r["action"],
                team=_team_or_none(teams, r.get("team"), w),
                user=reader.user(r.get("user")),
                client_id=r["client_id"],
                remote_addr=r.get("remote_addr"),
                reason=r["reason"],
            ),
        )
        reviews[row.get("number")] = review
        rows.append((review, _when(row.get("created_at"), where)))
    _create(Review, rows)
    rows = []
    for where, row in reader.rows("results"):
        match, board = _match_board(row, where, matches, boards)
        number = row.get("submission")
        result = _build(
            where,
            lambda r=row, w=where, m=match, b=board, n=number: Result(
                match=m,
                board=b,
                kind=r["kind"],
                submission=None if n is None else _look_up(submissions, n, w, "entry"),
                review=_look_up(reviews, r["review"], w, "review"),
                ns_result=r.get("ns_result"),
                ew_result=r.get("ew_result"),
                passed_out=r["passed_out"],
                reason=r["reason"],
                current=r["current"],
                ended_at=_when(r.get("ended_at"), w),
            ),
        )
        rows.append((result, _when(row.get("created_at"), where)))
    _create(Result, rows)
    from scoring.services import rebuild_progress

    rebuild_progress([match.pk for match in matches.values()])
    return len(submissions)


def _summary(value: Any) -> Any:
    """A log entry's summary cut as the log's writer cuts it (a backup made on SQLite may
    hold a longer one); anything but text is left for the checks to refuse."""
    return summary_text(value) if isinstance(value, str) else value


def _log_restore(tournament: Tournament, by: Any, reader: _Reader, entries: int) -> None:
    write_log(
        tournament=tournament,
        by=by,
        action="import_tournament",
        summary=f"Restored the tournament from a backup made {reader.data.get('exported_at')}",
        after={
            "slug": tournament.slug,
            "backup_slug": reader.data["tournament"].get("slug"),
            "teams": tournament.teams.count(),
            "entries": entries,
            "unknown_users": sorted(reader.unknown_users),
        },
    )
