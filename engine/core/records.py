"""The header of a board record: the fields every game's reader checks before its own, in the
same order and words.

A reader takes the record as an object of its game (``record_object``), reads the deal first
(it may give the table's size, the dealer or the up card) but keeps the deal's fault for its
turn (``read_deal``), then the table's size (``read_players``), the seats (``read_seat``), the
play direction (``read_direction``) and checks that the deal fits the table (``deal_fits``).
A field set to ``null`` counts as absent everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from engine.core.errors import DealError, RecordError
from engine.core.jsonfields import record_object
from engine.core.messages import words
from engine.core.seats import DIRECTIONS, table_seats

__all__ = [
    "DIRECTION_NAMES",
    "SEATS_OF",
    "SEAT_NAMES_OF",
    "SEAT_SETS",
    "deal_fits",
    "missing_unless_dealt",
    "read_deal",
    "read_direction",
    "read_players",
    "read_seat",
    "record_object",
    "seat_keys",
    "seat_list",
]

TABLE_SIZES = (2, 3, 4)
#: The seats of a table, by its size.
SEATS_OF = {players: table_seats(players) for players in TABLE_SIZES}
SEAT_SETS = {players: frozenset(seats) for players, seats in SEATS_OF.items()}
#: A seat's letter in either case to the letter, by the table's size.
SEAT_NAMES_OF = {
    players: {**{seat: seat for seat in seats}, **{seat.lower(): seat for seat in seats}}
    for players, seats in SEATS_OF.items()
}
DIRECTION_NAMES = {direction: direction for direction in DIRECTIONS}

Deal = TypeVar("Deal")


class TableDeal(Protocol):
    """What the header reads of any game's deal: its table size and its dealer."""

    @property
    def players(self) -> int: ...

    @property
    def dealer(self) -> str: ...


def seat_list(players: int) -> str:
    """The seats of a table in words: ``N, E or S``."""
    seats = SEATS_OF[players]
    return words("%(seats)s or %(last)s", seats=", ".join(seats[:-1]), last=seats[-1])


def read_deal(raw: Any, parse: Callable[[Any], Deal]) -> tuple[Deal | None, str | None]:
    """``(deal, fault)``: the deal read with the game's ``parse``, or its fault in words (to be
    reported in its turn, after the fields that come before it); ``(None, None)`` when the
    record gives no deal."""
    if raw is None:
        return None, None
    try:
        return parse(raw), None
    except DealError as exc:
        return None, exc.reason


#: The fields the deal would give, as the readers name them (others stay as written).
_WHAT = {
    "the dealer's seat": words("the dealer's seat"),
    "the turned-up card": words("the turned-up card"),
    "2, 3 or 4": words("2, 3 or 4"),
}


def _not_a_seat(raw: Any, where: str, players: int) -> str:
    """Why ``raw`` is no seat of a table of ``players``: the readers' ``where`` in words."""
    value, seats = repr(raw), seat_list(players)
    if not where:
        return words("%(value)s is not a seat (%(seats)s)", value=value, seats=seats)
    if where == f" at a table of {players}":
        return words(
            "%(value)s is not a seat at a table of %(players)s (%(seats)s)",
            value=value,
            players=players,
            seats=seats,
        )
    # Another table's words: the reader's language where the caller made them with ``words``.
    return words(
        "%(value)s is not a seat%(where)s (%(seats)s)", value=value, where=where, seats=seats
    )


def missing_unless_dealt(field: str, raw: Any, raw_deal: Any, what: str) -> None:
    """``RecordError`` for a field the deal would give when neither is there."""
    if raw is None and raw_deal is None:
        raise RecordError(
            field, words("missing (%(what)s; or give the deal)", what=_WHAT.get(what, what))
        )


def read_players(raw: Any, fallback: int | None) -> int | None:
    """The table's size, 2 to 4; ``fallback`` (the deal's, a default) when not given."""
    if raw is None:
        return fallback
    if type(raw) is not int or raw not in SEATS_OF:
        raise RecordError("players", words("%(value)s is not 2, 3 or 4", value=repr(raw)))
    return raw


def read_seat(field: str, raw: Any, players: int = 4, where: str = "") -> str:
    """A seat of a table of ``players``, its letter in either case; the error lists the seats
    (``where`` words the table: " at a table of 3")."""
    seat = SEAT_NAMES_OF[players].get(raw) if type(raw) is str else None
    if seat is None:
        raise RecordError(field, _not_a_seat(raw, where, players))
    return seat


def read_direction(raw: Any, default: str, listed: str) -> str:
    """The play direction in any case; ``default`` when not given. ``listed``: the directions
    in the game's words, for the error."""
    if raw is None:
        if default not in DIRECTION_NAMES:
            raise RecordError("direction", f"{default!r} is not {listed}")
        return default
    direction = DIRECTION_NAMES.get(raw.lower()) if type(raw) is str else None
    if direction is None:
        raise RecordError("direction", f"{raw!r} is not {listed}")
    return direction


def deal_fits(deal: TableDeal, *, players: int | None = None, dealer: str | None = None) -> None:
    """``RecordError`` when the deal has another table size or dealer than the record gives
    (each checked when given)."""
    if players is not None and deal.players != players:
        raise RecordError(
            "deal",
            words(
                "holds %(hands)s hands, but the table has %(players)s players",
                hands=deal.players,
                players=players,
            ),
        )
    if dealer is not None and deal.dealer != dealer:
        raise RecordError(
            "dealer",
            words(
                "%(dealer)s differs from the deal's dealer %(dealt)s",
                dealer=dealer,
                dealt=deal.dealer,
            ),
        )


def seat_keys(field: str, value: Mapping[str, Any], players: int, where: str) -> None:
    """``RecordError`` unless an object per seat has exactly the seats of the table as keys
    (``where`` words a key that is no seat: " key", " at a table of 3")."""
    seats = SEAT_SETS[players]
    if len(value) == players and seats.issuperset(value):
        return
    order = SEATS_OF[players]
    extra = [key for key in value if key not in seats]
    keys = ", ".join(order)
    reason: str
    if not extra:
        missing = next(seat for seat in order if seat not in value)
        reason = words(
            "seat %(seat)s is missing (the keys are exactly %(keys)s)", seat=missing, keys=keys
        )
    elif where == " key":
        reason = words(
            "%(value)s is not a seat key (the keys are exactly %(keys)s)",
            value=repr(extra[0]),
            keys=keys,
        )
    elif where == f" at a table of {players}":
        reason = words(
            "%(value)s is not a seat at a table of %(players)s (the keys are exactly %(keys)s)",
            value=repr(extra[0]),
            players=players,
            keys=keys,
        )
    else:
        reason = words(
            "%(value)s is not a seat%(where)s (the keys are exactly %(keys)s)",
            value=repr(extra[0]),
            where=where,
            keys=keys,
        )
    raise RecordError(field, reason)
