"""The standings in the compact form they are stored in, and back.

``RankingState.to_stored_standings()`` leaves the teams' tables out of the standings rows and
keeps, under ``team_tables``, what rebuilds them: the tables and boards (``table_boards``),
each bye mode's rank at every one of them (``byes``: NS, EW, both sides' mean), and per row
(in the rows' order) the team's bye mode, the indexes of the tables and boards it sits at
and its played entries. ``expand_standings`` gives back the standings object of the
interchange formats, equal to ``to_standings()``.
"""

from __future__ import annotations

from typing import Any

from engine.ranking.core import SIDES

TEAM_TABLES = "team_tables"


def expand_standings(stored: Any) -> Any:
    """The standings object of a stored one; anything else (standings stored whole, a part
    of them read alone) as it is.

    A bye's entry is one object shared by every row of the same bye mode at that table and
    board (the standings of a big field hold millions of them): read the result, do not
    change its entries in place."""
    if not isinstance(stored, dict) or TEAM_TABLES not in stored:
        return stored
    compact = stored[TEAM_TABLES]
    table_boards = [tuple(key) for key in compact["table_boards"]]
    index = {key: number for number, key in enumerate(table_boards)}
    byes = [
        _bye_entries(table_boards, side, ranks)
        for side, ranks in zip((*SIDES, None), compact["byes"], strict=True)
    ]
    rows = [
        {**row, "tables": _tables(byes[mode], seated, played, index)}
        for row, (mode, seated, played) in zip(stored["standings"], compact["teams"], strict=True)
    ]
    return {"provisional": stored["provisional"], "groups": stored["groups"], "standings": rows}


def _bye_entries(
    table_boards: list[tuple[int, int]], side: str | None, ranks: list[Any]
) -> list[dict[str, Any]]:
    """The entry of a bye on ``side`` (None: either) at every table and board, worth
    ``ranks``."""
    return [
        {
            "table": table,
            "board": board,
            "side": side,
            "round": None,
            "rank": rank,
            "score": None,
            "bye": True,
        }
        for (table, board), rank in zip(table_boards, ranks, strict=True)
    ]


def _tables(
    byes: list[dict[str, Any]],
    seated: list[int],
    played: list[dict[str, Any]],
    index: dict[tuple[int, int], int],
) -> list[dict[str, Any]]:
    """A team's tables: a bye at every table and board it does not sit at, its played
    entries (by round) at those it does."""
    tables: list[dict[str, Any]] = []
    start = next_played = 0
    for table_board in seated:
        tables += byes[start:table_board]
        while (
            next_played < len(played)
            and index[(played[next_played]["table"], played[next_played]["board"])] == table_board
        ):
            tables.append(played[next_played])
            next_played += 1
        start = table_board + 1
    tables += byes[start:]
    return tables
