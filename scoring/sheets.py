"""Score sheets of games that keep one per player (``Game.sheet_size``): which sheet a board's
declaration falls on, and what is already used on it.

A player's declarations are numbered in the order they are played, by round and then board
number, over the whole tournament; the first ``sheet_size`` make his first sheet, and so on.
The order is the schedule's, not the order in which results come in, so a sheet's contents do
not depend on which table reports first.
"""

from __future__ import annotations

from typing import Any

from scoring.models import Result
from tournaments.models import Board, Entrant, Match, MatchSeat, Tournament


def player_at(match: Match, seat: str) -> Entrant:
    """The player in ``seat`` of a match of individuals."""
    return MatchSeat.objects.select_related("entrant").get(match=match, seat=seat).entrant


def declaration_slots(tournament: Tournament, player: Entrant) -> list[tuple[int, int]]:
    """``(match id, board number)`` of every board the player declares, in playing order (the
    declarer of a board as its table's players make him: tables may be of several sizes)."""
    game, rules = tournament.game_rules, tournament.rules
    by_size: dict[int, dict[int, str]] = {}

    def declarers(players: int) -> dict[int, str]:
        if players not in by_size:
            by_size[players] = {
                board: game.declarer_seat(game.dealer(board, players), players, rules)
                for board in range(1, tournament.boards_per_table + 1)
            }
        return by_size[players]

    seats = (
        MatchSeat.objects.filter(entrant=player)
        .order_by("round")
        .values_list("match_id", "seat", "match__table__players")
    )
    return [
        (match_id, board)
        for match_id, seat, own in seats
        for board, declarer in declarers(own or tournament.table_size).items()
        if declarer == seat
    ]


def sheet_of_board(
    tournament: Tournament, player: Entrant, match: Match, board: Board
) -> tuple[int, list[int]]:
    """``(sheet number, values used on it)`` for the player's declaration on this board; the
    values come from the current results of his other declarations on the same sheet."""
    size = tournament.game_rules.sheet_size
    slots = declaration_slots(tournament, player)
    index = slots.index((match.pk, board.number))
    sheet = index // size + 1
    others = set(slots[(sheet - 1) * size : sheet * size]) - {(match.pk, board.number)}
    return sheet, used_values(tournament, others)


def used_values(tournament: Tournament, slots: set[tuple[int, int]]) -> list[int]:
    """The declared values of the current results on these boards (an adjusted result, which
    has no entry behind it, uses no place)."""
    return list(declared_values(tournament, slots).values())


def declared_values(
    tournament: Tournament, slots: set[tuple[int, int]]
) -> dict[tuple[int, int], int]:
    """``{(match id, board number): declared value}`` of the current results on these boards
    that declare, in the order the results were stored; one query."""
    game = tournament.game_rules
    results = Result.objects.filter(
        current=True, match_id__in={match_id for match_id, _ in slots}, submission__isnull=False
    ).values_list("match_id", "board__number", "submission__score")
    values = {}
    for match_id, board_number, score in results:
        if (match_id, board_number) in slots:
            declared = game.declaration(score)
            if declared is not None:
                values[(match_id, board_number)] = declared[1]
    return values


def player_sheets(tournament: Tournament, player: Entrant) -> list[dict[str, Any]]:
    """Every sheet of a player as far as it is filled, as the game draws it (``sheet``, from
    the board scores of his declarations in playing order), with its ``number``."""
    game = tournament.game_rules
    size = game.sheet_size
    slots = declaration_slots(tournament, player)
    scores = {
        (match_id, board_number): score
        for match_id, board_number, score in Result.objects.filter(
            current=True,
            match_id__in={match_id for match_id, _ in slots},
            submission__isnull=False,
        ).values_list("match_id", "board__number", "submission__score")
    }
    sheets = []
    for start in range(0, len(slots), size):
        calls = [
            scores[slot]
            for slot in slots[start : start + size]
            if slot in scores and game.declaration(scores[slot]) is not None
        ]
        sheets.append({"number": start // size + 1, **game.sheet({"calls": calls})})
    return sheets


def match_sheets(tournament: Tournament, match: Match) -> dict[int, dict[str, Any]]:
    """For every board of a match on which a player declares: ``{"seat", "player", "sheet",
    "used"}`` (his sheet's number and the values already used on it, this board's aside)."""
    game = tournament.game_rules
    size = game.sheet_size
    if not size:
        return {}
    found: dict[int, dict[str, Any]] = {}
    others_of: dict[int, set[tuple[int, int]]] = {}
    for seat in MatchSeat.objects.filter(match=match).select_related("entrant"):
        slots = declaration_slots(tournament, seat.entrant)
        for index, (match_id, board) in enumerate(slots):
            if match_id != match.pk:
                continue
            sheet = index // size + 1
            others_of[board] = set(slots[(sheet - 1) * size : sheet * size]) - {(match_id, board)}
            found[board] = {"seat": seat.seat, "player": seat.entrant, "sheet": sheet}
    # The results of every sheet the match's boards fall on, read at once.
    declared = declared_values(tournament, set().union(*others_of.values()))
    for board, others in others_of.items():
        found[board]["used"] = [value for slot, value in declared.items() if slot in others]
    return found
