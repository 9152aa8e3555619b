"""Pyramid's scoring of one board: the declarer's points and every seat's table result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.messages import words
from engine.core.seats import SEAT_NAMES

#: Points by the difference between tricks won and declared, either way: 10 - 2 * |d|.
POINTS_BY_DIFFERENCE = (10, 8, 6, 4, 2, 0, -2)
#: The trump of a declaration as the score says it.
TRUMP_WORDS = {
    "nt": words("no trumps"),
    "spades": words("spades"),
    "hearts": words("hearts"),
    "diamonds": words("diamonds"),
    "clubs": words("clubs"),
}


def points_for(declared: int, won: int) -> int:
    """The declarer's points: 10 for an exact call, 2 fewer for each trick over or under."""
    return 10 - 2 * abs(won - declared)


def table_results(seats: tuple[str, ...], declarer: str, points: int) -> dict[str, int]:
    """Every seat's table result: ``+points`` for the declarer, ``-points`` for each defender."""
    return {seat: points if seat == declarer else -points for seat in seats}


def describe(score: Mapping[str, Any]) -> str:
    """``East declared 3 in hearts and took 2 tricks: 8 points``, in the engine's words
    (engine.core.messages), translated by the pages."""
    trump = TRUMP_WORDS.get(score["trump"], score["trump"])
    won = score["won"]
    took = words("1 trick") if won == 1 else words("%(count)s tricks", count=won)
    points = score["points"]
    result = words("1 point") if abs(points) == 1 else words("%(count)s points", count=points)
    values = {
        "seat": words(SEAT_NAMES[score["declarer"]]),
        "declared": score["declared"],
        "trump": trump,
        "took": took,
        "result": result,
    }
    if score["exact"]:
        return words(
            "%(seat)s declared %(declared)s in %(trump)s and took %(took)s: exact, %(result)s",
            **values,
        )
    return words(
        "%(seat)s declared %(declared)s in %(trump)s and took %(took)s: %(result)s", **values
    )
