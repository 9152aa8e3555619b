"""Reading a Pyramid board record and scoring it (docs/games/pyramid.md).

``score_record`` checks the record field by field, in this order: the object, ``game``,
unknown fields, ``players``, ``dealer``, ``direction``, ``declarer``, ``declared``, ``trump``,
``deal`` (and its agreement with ``players`` and ``dealer``), ``won``, ``tricks``, ``play``;
the first fault raises ``RecordError`` naming the field. A field set to ``null`` is absent.
The reader is written for speed: plain dict look-ups, no regular expressions.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import DealError, RecordError
from engine.core.jsonfields import record_object
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
TRUMP_LIST = "spades, hearts, diamonds, clubs or nt"

SEATS_OF = {players: SEAT_LETTERS[:players] for players in (2, 3, 4)}
SEAT_SETS = {players: frozenset(seats) for players, seats in SEATS_OF.items()}
DIRECTION_NAMES = {direction: direction for direction in DIRECTIONS}
#: The declarer, by (players, dealer, direction): the first player after the dealer.
DECLARER = {
    (players, dealer, direction): turn_order(dealer, players, direction)[1]
    for players in (2, 3, 4)
    for dealer in SEAT_LETTERS[:players]
    for direction in DIRECTIONS
}


def declarer_of(dealer: str, players: int, direction: str = "clockwise") -> str:
    """The seat that declares when ``dealer`` deals: the next player in play direction."""
    return DECLARER[players, dealer, direction]


def _seat_list(players: int) -> str:
    seats = SEATS_OF[players]
    return ", ".join(seats[:-1]) + " or " + seats[-1]


def _read_tricks(tricks: Any, players: int) -> dict[str, int]:
    """``tricks`` in seat order, checked: exactly the table's seats, integers ≥ 0, adding to 6."""
    if type(tricks) is not dict:
        raise RecordError(
            "tricks",
            f"must be an object of tricks per seat ({_seat_list(players)}), not {tricks!r}",
        )
    seats = SEATS_OF[players]
    if len(tricks) != players or not SEAT_SETS[players].issuperset(tricks):
        extra = [key for key in tricks if key not in SEAT_SETS[players]]
        if extra:
            reason = f"{extra[0]!r} is not a seat at a table of {players}"
        else:
            reason = f"seat {next(s for s in seats if s not in tricks)} is missing"
        raise RecordError("tricks", f"{reason} (the keys are exactly {', '.join(seats)})")
    out = {}
    total = 0
    for seat in seats:
        value = tricks[seat]
        if type(value) is not int or value < 0:
            raise RecordError("tricks", f"{seat}: {value!r} is not an integer 0 or more")
        out[seat] = value
        total += value
    if total != TRICKS:
        raise RecordError("tricks", f"add up to {total}, not {TRICKS}")
    return out


def score_record(record: Any, default_direction: str | None = None) -> dict[str, Any]:
    """The board score of a record (section 6.1), or ``RecordError`` naming the field."""
    record = record_object(record, GAME_ID, RECORD_FIELDS)
    get = record.get

    # The deal is parsed first, since it may supply players and dealer; a fault of its own is
    # reported in its turn, after the fields that come before it.
    raw_deal = get("deal")
    deal: PyramidDeal | None = None
    deal_error = None
    if raw_deal is not None:
        try:
            deal = parse_deal(raw_deal)
        except DealError as exc:
            deal_error = str(exc).removeprefix("deal: ")

    players = get("players")
    if players is not None:
        if type(players) is not int or not 2 <= players <= 4:
            raise RecordError("players", f"{players!r} is not 2, 3 or 4")
    elif raw_deal is None:
        raise RecordError("players", "missing (2, 3 or 4; or give the deal)")
    elif deal is not None:
        players = deal.players

    raw_dealer = get("dealer")
    if raw_dealer is not None:
        dealer = raw_dealer.upper() if type(raw_dealer) is str else None
        if dealer not in SEAT_SETS.get(players, SEAT_LETTERS):
            at = f" at a table of {players}" if players else ""
            raise RecordError("dealer", f"{raw_dealer!r} is not a seat{at}")
    elif raw_deal is None:
        raise RecordError("dealer", "missing (the dealer's seat; or give the deal)")
    else:
        dealer = deal.dealer if deal is not None else None

    raw_direction = get("direction")
    if raw_direction is None:
        direction = default_direction or "clockwise"
        if direction not in DIRECTION_NAMES:
            raise RecordError("direction", f"{direction!r} is not clockwise or counterclockwise")
    else:
        direction = (
            DIRECTION_NAMES.get(raw_direction.lower()) if type(raw_direction) is str else None
        )
        if direction is None:
            raise RecordError(
                "direction", f"{raw_direction!r} is not clockwise or counterclockwise"
            )

    # None while players or dealer is unknown, or when a deal's dealer does not sit at the
    # given table: the deal's own check below then names the fault.
    declarer = DECLARER.get((players, dealer, direction))
    raw_declarer = get("declarer")
    if raw_declarer is not None:
        given = raw_declarer.upper() if type(raw_declarer) is str else None
        if given not in SEAT_LETTERS:
            raise RecordError("declarer", f"{raw_declarer!r} is not a seat")
        if declarer is not None and given != declarer:
            raise RecordError(
                "declarer",
                f"{given} does not declare: {declarer} does, the first player after the "
                f"dealer {dealer} ({direction}, {players} players)",
            )

    declared = get("declared")
    if declared is None:
        raise RecordError("declared", "missing (the declaration, 0 to 6)")
    if type(declared) is not int or not 0 <= declared <= 6:
        raise RecordError("declared", f"{declared!r} is not an integer 0 to 6")

    raw_trump = get("trump")
    if raw_trump is None:
        raise RecordError("trump", f"missing ({TRUMP_LIST})")
    trump = TRUMP_NAMES.get(raw_trump.lower()) if type(raw_trump) is str else None
    if trump is None:
        raise RecordError("trump", f"{raw_trump!r} is not {TRUMP_LIST}")

    if deal_error is not None:
        raise RecordError("deal", deal_error)
    if deal is not None:
        if deal.players != players:
            raise RecordError(
                "deal", f"holds {deal.players} hands, but the table has {players} players"
            )
        if deal.dealer != dealer:
            raise RecordError("dealer", f"{dealer} differs from the deal's dealer {deal.dealer}")

    won = get("won")
    raw_tricks = get("tricks")
    play = get("play")
    if won is None and raw_tricks is None and play is None:
        raise RecordError("won", "missing (the declarer's tricks; or give tricks or play)")
    if won is not None and (type(won) is not int or not 0 <= won <= 6):
        raise RecordError("won", f"{won!r} is not an integer 0 to 6")
    tricks = None
    if raw_tricks is not None:
        tricks = _read_tricks(raw_tricks, players)
        if won is not None and won != tricks[declarer]:
            raise RecordError(
                "won", f"{won} differs from the declarer's tricks ({declarer}: {tricks[declarer]})"
            )
        won = tricks[declarer]
    if play is not None:
        if deal is None:
            raise RecordError("play", "needs the deal (the play is checked against its hands)")
        played = check_play(deal, TRUMP_SUIT[trump], declarer, direction, play)
        if tricks is not None and played != tricks:
            raise RecordError("play", f"gives the tricks {played}, not those of tricks {tricks}")
        if won is not None and played[declarer] != won:
            raise RecordError(
                "play", f"gives the declarer {declarer} {played[declarer]} tricks, not won {won}"
            )
        tricks = played
        won = played[declarer]

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
