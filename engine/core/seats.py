"""Seats at a table of 2 to 4 players (GAMES.md): the first n of N, E, S, W."""

from __future__ import annotations

import functools

from engine.core.messages import words

SEAT_LETTERS = ("N", "E", "S", "W")
#: The seats' names: the engine's words (engine.core.messages), translated by the pages.
SEAT_NAMES = {"N": words("North"), "E": words("East"), "S": words("South"), "W": words("West")}
#: The seats' letters as people read them (a card, a phone, a result): the engine's words, so
#: that West's "W" reads "O" (Ouest) in French. What is stored, typed or keyed (records, deal
#: notation, the API, backups) keeps N, E, S, W.
SEAT_MARKS = {"N": words("N"), "E": words("E"), "S": words("S"), "W": words("W")}
DIRECTIONS = ("clockwise", "counterclockwise")


def seat_mark(seat: str) -> str:
    """``seat``'s letter as people read it (translated by the pages); anything else as is."""
    return SEAT_MARKS.get(seat, seat)


def table_seats(players: int) -> tuple[str, ...]:
    """The seats a table of ``players`` uses, in clockwise order."""
    if players not in (2, 3, 4):
        raise ValueError(f"a table seats 2, 3 or 4 players, not {players}")
    return SEAT_LETTERS[:players]


@functools.cache
def turn_order(first: str, players: int, direction: str = "clockwise") -> tuple[str, ...]:
    """The table's seats in play order, starting with ``first``."""
    seats = table_seats(players)
    if direction not in DIRECTIONS:
        raise ValueError(f"unknown direction {direction!r} (clockwise or counterclockwise)")
    start = seats.index(first)
    step = 1 if direction == "clockwise" else -1
    return tuple(seats[(start + step * i) % players] for i in range(players))


def next_seat(seat: str, players: int, direction: str = "clockwise") -> str:
    """The player after ``seat`` in play direction."""
    return turn_order(seat, players, direction)[1]


def checker_seat(players: int) -> str:
    """Who checks North's entry: East, at every game and table size (GAMES.md)."""
    return table_seats(players)[1]
