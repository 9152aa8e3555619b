"""Changes to featured tables and their recordings: featuring a table, its recorder's code,
press accounts, and every action the recorder takes.

An action is checked by the game's play rules (``Game.table_play``) against everything taken
before it, and stored only if the rules allow it. Each action carries the client id the
recorder's tablet gave it: an action sent again (the answer was lost with the connection) is
answered as the first time and stored once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext

from broadcast.models import FeaturedTable, RecordedAction, Recording
from engine.games.base import PlayRefused, TablePlay
from scoring import selectors as scoring_selectors
from scoring.visibility import PRESS_GROUP
from tournaments.action_log import write_log
from tournaments.models import Board, Match, Tournament, new_access_code

#: Client ids are made by the tablet: long enough not to collide, short enough to store.
CLIENT_ID_LENGTH = (8, 64)


class BroadcastError(Exception):
    """A refused change, in words for the person who asked."""


def featuring_problem(tournament: Tournament) -> str | None:
    """Why no table of the tournament can be featured (its game's play rules are not in the
    engine), or None."""
    game = tournament.game_rules
    if game.offers_table_play():
        return None
    return gettext(
        "%(game)s cannot be featured: the engine does not know its play rules yet, so a "
        "recorder could not be offered the legal cards."
    ) % {"game": game.title}


@transaction.atomic
def feature_table(*, by: Any, tournament: Tournament, number: int) -> FeaturedTable:
    """Mark a table as featured and give it a recorder's code."""
    problem = featuring_problem(tournament)
    if problem:
        raise BroadcastError(problem)
    table = tournament.tables.filter(number=number).first()
    if table is None:
        raise BroadcastError(gettext("there is no table %(number)s") % {"number": number})
    featured, created = FeaturedTable.objects.get_or_create(table=table)
    if created:
        write_log(
            tournament=tournament,
            by=by,
            action="feature_table",
            summary=f"Table {number} featured: a recorder takes down its play",
        )
    return featured


@transaction.atomic
def unfeature_table(*, by: Any, featured: FeaturedTable) -> None:
    """The table is no longer featured: its recorder's code stops working; recordings go."""
    tournament = featured.table.tournament
    number = featured.table.number
    featured.delete()
    write_log(
        tournament=tournament,
        by=by,
        action="unfeature_table",
        summary=f"Table {number} no longer featured",
    )


@transaction.atomic
def regenerate_recorder_code(*, by: Any, featured: FeaturedTable) -> FeaturedTable:
    """A new recorder's code (the codes are not written to the log)."""
    featured.recorder_code = new_access_code()
    featured.save(update_fields=["recorder_code"])
    write_log(
        tournament=featured.table.tournament,
        by=by,
        action="regenerate_recorder_code",
        summary=f"New recorder's code for table {featured.table.number}",
    )
    return featured


def press_group() -> Group:
    group, _ = Group.objects.get_or_create(name=PRESS_GROUP)
    return group


@transaction.atomic
def grant_press(*, by: Any, username: str) -> Any:
    """Accredit an existing account as press: it follows featured tables live."""
    user = get_user_model().objects.filter(username=username.strip()).first()
    if user is None:
        raise BroadcastError(gettext("there is no account '%(name)s'") % {"name": username.strip()})
    user.groups.add(press_group())
    write_log(
        tournament=None, by=by, action="grant_press", summary=f"{user.username} accredited as press"
    )
    return user


@transaction.atomic
def revoke_press(*, by: Any, username: str) -> None:
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise BroadcastError(gettext("there is no account '%(name)s'") % {"name": username})
    user.groups.remove(press_group())
    write_log(
        tournament=None, by=by, action="revoke_press", summary=f"{user.username}: press withdrawn"
    )


# --- recording ----------------------------------------------------------------------------


def standing_actions(recording: Recording) -> list[str]:
    """The actions of a recording still standing (not undone), in order."""
    return list(
        recording.actions.exclude(action=RecordedAction.UNDO)
        .filter(undone=False)
        .order_by("position")
        .values_list("action", flat=True)
    )


def new_table_play(
    tournament: Tournament, match: Match, board: Board, *, constrained: bool = True
) -> TablePlay:
    """The board's play before any action, under the tournament's rules; ``constrained``:
    offering only what North's entry offers now (a declarer's score sheet as it stands),
    for a new action; a replay of stored actions is not held to a sheet that has moved on."""
    game = tournament.game_rules
    extra: dict[str, Any] = {}
    if constrained:
        context = scoring_selectors.entry_context(tournament, match, board.number)
        extra = {key: value for key, value in context.items() if key == "calls"}
    return game.table_play(
        board.parsed(),
        settings=tournament.rules,
        table=match.table.number,
        players=match.table.size,
        dealer=board.dealer,
        **extra,
    )


def replay(
    tournament: Tournament, match: Match, board: Board, actions: list[str], *, constrained: bool
) -> TablePlay:
    """The play after ``actions``; held to the entry's choices of now when ``constrained``
    and the stored actions still fit them, else not."""
    if constrained:
        try:
            return _replayed(new_table_play(tournament, match, board), actions)
        except PlayRefused:
            pass
    return _replayed(new_table_play(tournament, match, board, constrained=False), actions)


def _replayed(play: TablePlay, actions: list[str]) -> TablePlay:
    for action in actions:
        play.apply(action)
    return play


def table_play(
    recording: Recording, actions: list[str] | None = None, *, constrained: bool = False
) -> TablePlay:
    """The recording's play after its standing actions (or ``actions``)."""
    match = recording.match
    board = Board.objects.get(table=match.table, number=recording.board)
    shown = standing_actions(recording) if actions is None else actions
    return replay(match.table.tournament, match, board, shown, constrained=constrained)


@dataclass(frozen=True)
class Taken:
    recording: Recording
    play: TablePlay
    repeated: bool  # the action was taken before (a re-send): nothing new stored


def _recording_for(featured: FeaturedTable, match_id: int, board: int) -> Recording:
    match = Match.objects.filter(pk=match_id, table=featured.table).first()
    if match is None:
        raise BroadcastError(gettext("that match is not played at this table"))
    if not Board.objects.filter(table=featured.table, number=board).exclude(deal="").exists():
        raise BroadcastError(gettext("board %(board)s has no deal on file yet") % {"board": board})
    recording, _ = Recording.objects.get_or_create(featured=featured, match=match, board=board)
    return recording


def _check_client_id(client_id: str) -> None:
    low, high = CLIENT_ID_LENGTH
    if not isinstance(client_id, str) or not low <= len(client_id) <= high:
        raise BroadcastError(f"a client id of {low} to {high} characters is needed")


def take_action(
    *, featured: FeaturedTable, match_id: int, board: int, action: str, client_id: str
) -> Taken:
    """Take ``action`` (a call, a card, or ``undo``) on a board of the featured table.

    Refused (``BroadcastError``, nothing stored) when the play rules do not allow it now; a
    client id already taken on the board answers with the board as it stands."""
    _check_client_id(client_id)
    if not isinstance(action, str) or not action or len(action) > 40:
        raise BroadcastError("an action is a short text such as card:F9 or undo")
    try:
        with transaction.atomic():
            return _take(featured, match_id, board, action, client_id)
    except IntegrityError:
        # The same client id raced in twice: the first one stands.
        recording = Recording.objects.get(match_id=match_id, board=board)
        return Taken(recording, table_play(recording), repeated=True)


def _take(featured: FeaturedTable, match_id: int, board: int, action: str, client_id: str) -> Taken:
    recording = _recording_for(featured, match_id, board)
    recording = Recording.objects.select_for_update(of=("self",)).get(pk=recording.pk)
    if recording.actions.filter(client_id=client_id).exists():
        return Taken(recording, table_play(recording), repeated=True)
    standing = list(
        recording.actions.exclude(action=RecordedAction.UNDO)
        .filter(undone=False)
        .order_by("position")
    )
    last_position = recording.actions.order_by("-position").values_list("position", flat=True)
    position = (last_position.first() or 0) + 1
    if action == RecordedAction.UNDO:
        if not standing:
            raise BroadcastError("nothing to undo on this board")
        undone = standing.pop()
        undone.undone = True
        undone.save(update_fields=["undone"])
        play = table_play(recording, [row.action for row in standing])
    else:
        play = table_play(recording, [row.action for row in standing], constrained=True)
        try:
            play.apply(action)
        except PlayRefused as exc:
            raise BroadcastError(str(exc)) from None
    RecordedAction.objects.create(
        recording=recording, position=position, action=action, client_id=client_id
    )
    recording.over = play.over
    recording.facts = play.facts()
    recording.save(update_fields=["over", "facts", "updated_at"])
    FeaturedTable.objects.filter(pk=featured.pk).update(version=F("version") + 1)
    return Taken(recording, play, repeated=False)
