"""Reading a Pyramid board record and scoring it (docs/games/pyramid.md).

``score_record`` checks the record field by field, in this order: the object, ``game``,
unknown fields, ``players``, ``dealer``, ``direction``, ``declarer``, ``declared``, ``trump``,
``deal`` (and its agreement with ``players`` and ``dealer``), ``won``, ``tricks``, ``play``;
the first fault raises ``RecordError`` naming the field. A field set to ``null`` is absent.
The reader is written for speed: plain dict look-ups, no regular expressions.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import RecordError
from engine.core.messages import words
from engine.core.records import (
    SEATS_OF,
    deal_fits,
    missing_unless_dealt,
    read_deal,
    read_direction,
    read_players,
    read_seat,
    record_object,
    seat_keys,
    seat_list,
)
from engine.core.seats import DIRECTIONS, SEAT_LETTERS, turn_order
from engine.games.pyramid.cards import SUITS, TRICKS, PyramidDeal, parse_deal
from engine.games.pyramid.play import check_play

GAME_ID = "pyramid"
RECORD_FIELDS = frozenset(
    {
        "game",
        "players",
        "dealer",
        "direction",
        "declarer",
        "declared",
        "trump",
        "won",
        "tricks",
        "deal",
        "play",
    }
)
#: ``trump`` as written (lower case) to its name in scores.
TRUMP_NAMES = {
    "spades": "spades",
    "hearts": "hearts",
    "diamonds": "diamonds",
    "clubs": "clubs",
    "nt": "nt",
    "s": "spades",
    "h": "hearts",
    "d": "diamonds",
    "c": "clubs",
}
#: A trump's name to its suit number (None: no-trump).
TRUMP_SUIT: dict[str, int | None] = {name: SUITS.index(name) for name in SUITS}
TRUMP_SUIT["nt"] = None

DIRECTION_LIST = "clockwise or counterclockwise"
#: The declarer, by (players, dealer, direction): the first player after the dealer.
DECLARER: dict[tuple[int | None, str | None, str], str] = {
    (players, dealer, direction): turn_order(dealer, players, direction)[1]
    for players in (2, 3, 4)
    for dealer in SEAT_LETTERS[:players]
    for direction in DIRECTIONS
}


def declarer_of(dealer: str, players: int, direction: str = "clockwise") -> str:
    """The seat that declares when ``dealer`` deals: the next player in play direction."""
    return DECLARER[players, dealer, direction]


def _read_tricks(tricks: Any, players: int) -> dict[str, int]:
    """``tricks`` in seat order, checked: exactly the table's seats, integers ≥ 0, adding to 6."""
    if type(tricks) is not dict:
        raise RecordError(
            "tricks",
            words(
                "must be an object of tricks per seat (%(seats)s), not %(value)s",
                seats=seat_list(players),
                value=repr(tricks),
            ),
        )
    seat_keys("tricks", tricks, players, f" at a table of {players}")
    out = {}
    total = 0
    for seat in SEATS_OF[players]:
        value = tricks[seat]
        if type(value) is not int or value < 0:
            raise RecordError(
                "tricks",
                words(
                    "%(seat)s: %(value)s is not an integer 0 or more", seat=seat, value=repr(value)
                ),
            )
        out[seat] = value
        total += value
    if total != TRICKS:
        raise RecordError(
            "tricks", words("add up to %(total)s, not %(top)s", total=total, top=TRICKS)
        )
    return out


def _read_players(raw: Any, raw_deal: Any, deal: PyramidDeal | None) -> int | None:
    """``players``, or the deal's (None while the deal has a fault of its own)."""
    missing_unless_dealt("players", raw, raw_deal, "2, 3 or 4")
    return read_players(raw, deal.players if deal is not None else None)


def _read_dealer(
    raw: Any, raw_deal: Any, deal: PyramidDeal | None, players: int | None
) -> str | None:
    """``dealer``, a seat at the table, or the deal's."""
    missing_unless_dealt("dealer", raw, raw_deal, "the dealer's seat")
    if raw is None:
        return deal.dealer if deal is not None else None
    at = f" at a table of {players}" if players else ""
    return read_seat("dealer", raw, players or 4, at)


def _read_declarer(
    raw: Any, declarer: str | None, players: int | None, dealer: str | None, direction: str
) -> None:
    """``declarer`` when given: a seat, the one the dealer and the direction make declare
    (``declarer``, None while the table is not known)."""
    if raw is None:
        return
    given = read_seat("declarer", raw)
    if declarer is not None and given != declarer:
        raise RecordError(
            "declarer",
            words(
                "%(seat)s does not declare: %(declarer)s does, the first player after the "
                "dealer %(dealer)s (%(direction)s, %(players)s players)",
                seat=given,
                declarer=declarer,
                dealer=dealer,
                direction=words(direction),
                players=players,
            ),
        )


def _read_declared(declared: Any) -> int:
    if declared is None:
        raise RecordError("declared", words("missing (the declaration, 0 to 6)"))
    if type(declared) is not int or not 0 <= declared <= 6:
        raise RecordError(
            "declared", words("%(value)s is not an integer 0 to 6", value=repr(declared))
        )
    return declared


def _read_trump(raw: Any) -> str:
    if raw is None:
        raise RecordError("trump", words("missing (spades, hearts, diamonds, clubs or nt)"))
    trump = TRUMP_NAMES.get(raw.lower()) if type(raw) is str else None
    if trump is None:
        raise RecordError(
            "trump",
            words("%(value)s is not spades, hearts, diamonds, clubs or nt", value=repr(raw)),
        )
    return trump


def _read_won(won: Any, raw_tricks: Any, play: Any) -> int | None:
    """``won`` when given, 0 to 6; one of ``won``, ``tricks`` and ``play`` must be there."""
    if won is None and raw_tricks is None and play is None:
        raise RecordError("won", words("missing (the declarer's tricks; or give tricks or play)"))
    if won is not None and (type(won) is not int or not 0 <= won <= 6):
        raise RecordError("won", words("%(value)s is not an integer 0 to 6", value=repr(won)))
    return won


def _tricks_agree(tricks: dict[str, int], won: int | None, declarer: str) -> int:
    """The declarer's tricks, which ``won`` (when given) must be."""
    if won is not None and won != tricks[declarer]:
        raise RecordError(
            "won",
            words(
                "%(won)s differs from the declarer's tricks (%(declarer)s: %(tricks)s)",
                won=won,
                declarer=declarer,
                tricks=tricks[declarer],
            ),
        )
    return tricks[declarer]


def _read_play(
    play: Any,
    deal: PyramidDeal | None,
    trump: str,
    declarer: str,
    direction: str,
    tricks: dict[str, int] | None,
    won: int | None,
) -> dict[str, int]:
    """The tricks of ``play``, checked against the deal and agreeing with ``tricks`` and
    ``won`` when given."""
    if deal is None:
        raise RecordError("play", words("needs the deal (the play is checked against its hands)"))
    played = check_play(deal, TRUMP_SUIT[trump], declarer, direction, play)
    if tricks is not None and played != tricks:
        raise RecordError(
            "play",
            words(
                "gives the tricks %(played)s, not those of tricks %(tricks)s",
                played=str(played),
                tricks=str(tricks),
            ),
        )
    if won is not None and played[declarer] != won:
        raise RecordError(
            "play",
            words(
                "gives the declarer %(declarer)s %(played)s tricks, not won %(won)s",
                declarer=declarer,
                played=played[declarer],
                won=won,
            ),
        )
    return played


def _read_outcome(
    get: Any, deal: PyramidDeal | None, players: int, declarer: str, trump: str, direction: str
) -> tuple[int, dict[str, int] | None]:
    """``(won, tricks per seat or None)`` from ``won``, ``tricks`` and ``play``, which agree."""
    raw_tricks = get("tricks")
    play = get("play")
    won = _read_won(get("won"), raw_tricks, play)
    tricks = None
    if raw_tricks is not None:
        tricks = _read_tricks(raw_tricks, players)
        won = _tricks_agree(tricks, won, declarer)
    if play is not None:
        tricks = _read_play(play, deal, trump, declarer, direction, tricks, won)
        won = tricks[declarer]
    assert won is not None  # given, or from tricks or play
    return won, tricks


def score_record(record: Any, default_direction: str | None = None) -> dict[str, Any]:
    """The board score of a record (section 6.1), or ``RecordError`` naming the field."""
    record = record_object(record, GAME_ID, RECORD_FIELDS)
    get = record.get
    # The deal is read first, since it may supply players and dealer; a fault of its own is
    # reported in its turn, after the fields that come before it.
    raw_deal = get("deal")
    deal, deal_error = read_deal(raw_deal, parse_deal)
    players = _read_players(get("players"), raw_deal, deal)
    dealer = _read_dealer(get("dealer"), raw_deal, deal, players)
    direction = read_direction(get("direction"), default_direction or "clockwise", DIRECTION_LIST)
    # None while players or dealer is unknown, or when a deal's dealer does not sit at the
    # given table: the deal's own check below then names the fault.
    declarer = DECLARER.get((players, dealer, direction))
    _read_declarer(get("declarer"), declarer, players, dealer, direction)
    declared = _read_declared(get("declared"))
    trump = _read_trump(get("trump"))
    if deal_error is not None:
        raise RecordError("deal", deal_error)
    if deal is not None:
        deal_fits(deal, players=players, dealer=dealer)
    # Now the table is known: given, or from the deal.
    assert players is not None and dealer is not None and declarer is not None
    won, tricks = _read_outcome(get, deal, players, declarer, trump, direction)
    difference = won - declared
    points = 10 - 2 * abs(difference)
    against = -points
    return {
        "game": GAME_ID,
        "players": players,
        "dealer": dealer,
        "declarer": declarer,
        "declared": declared,
        "trump": trump,
        "won": won,
        "difference": difference,
        "points": points,
        "exact": difference == 0,
        "tricks": tricks,
        "seats": {seat: points if seat == declarer else against for seat in SEATS_OF[players]},
    }
