"""Pyramid's scoring of one board: the declarer's points and every seat's table result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.seats import SEAT_NAMES

#: Points by the difference between tricks won and declared, either way: 10 - 2 * |d|.
POINTS_BY_DIFFERENCE = (10, 8, 6, 4, 2, 0, -2)


def points_for(declared: int, won: int) -> int:
    """The declarer's points: 10 for an exact call, 2 fewer for each trick over or under."""
    return 10 - 2 * abs(won - declared)


def table_results(seats: tuple[str, ...], declarer: str, points: int) -> dict[str, int]:
    """Every seat's table result: ``+points`` for the declarer, ``-points`` for each defender."""
    return {seat: points if seat == declarer else -points for seat in seats}


def _tricks(count: int) -> str:
    return f"{count} trick{'' if count == 1 else 's'}"


def describe(score: Mapping[str, Any]) -> str:
    """``East declared 3 in hearts and took 2 tricks: 8 points``."""
    trump = "no trumps" if score["trump"] == "nt" else score["trump"]
    points = score["points"]
    result = f"{points} point{'' if abs(points) == 1 else 's'}"
    if score["exact"]:
        result = f"exact, {result}"
    return (
        f"{SEAT_NAMES[score['declarer']]} declared {score['declared']} in {trump} "
        f"and took {_tricks(score['won'])}: {result}"
    )
