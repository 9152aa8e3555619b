"""Reading a Twenty board record and scoring it (docs/games/twenty.md).

``score_record`` checks the record field by field, in the order of the rulebook's list of bad
records: the object, ``game``, unknown fields, ``dealer``, ``deal`` (then its agreement with
``dealer``), ``auction``, ``called``, ``partner``, ``contras``, ``points``, ``tricks``, points
against tricks, ``last``, ``held``. The first fault raises ``RecordError`` naming the field. A
field set to ``null`` is absent. Written for speed: plain dict look-ups, cached calls and deals.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import DealError, RecordError
from engine.core.jsonfields import record_object
from engine.core.seats import SEAT_LETTERS
from engine.games.twenty.auction import BID_VALUE, NT, PART, CallError, call_text, read_auction
from engine.games.twenty.cards import (
    CARD_TEXT,
    FEWEST_POINTS,
    HONOURS,
    KINGS,
    MAGICIAN,
    MOST_POINTS,
    NEXT_SEAT,
    POINTS_TOTAL,
    TRICKS,
    TwentyDeal,
    called_card,
    parse_card,
    parse_deal,
)
from engine.games.twenty.scoring import MULTIPLIER, SLAM_BASE, SPARROW_BASE, TARGET, item, pay

GAME_ID = "twenty"
RECORD_FIELDS = frozenset(
    {
        "game",
        "dealer",
        "deal",
        "auction",
        "called",
        "partner",
        "contras",
        "points",
        "tricks",
        "last",
        "held",
    }
)
ITEMS = ("bid", "sparrow", "slam")
SEAT_OF = {seat: seat for seat in SEAT_LETTERS} | {seat.lower(): seat for seat in SEAT_LETTERS}
LEVEL_OF = {level: level for level in MULTIPLIER}
SEAT_SET = frozenset(SEAT_LETTERS)


def _seat(name: str, value: Any) -> str:
    seat = SEAT_OF.get(value) if type(value) is str else None
    if seat is None:
        raise RecordError(name, f"{value!r} is not a seat (N, E, S or W)")
    return seat


def _level(key: str, value: Any) -> str:
    level = LEVEL_OF.get(value.lower()) if type(value) is str else None
    if level is None:
        raise RecordError("contras", f"{key}: {value!r} is not none, contra, re or sub")
    return level


def _total(name: str, value: Any, top: int) -> tuple[int | None, dict[str, int] | None]:
    """``points`` or ``tricks``: ``(side total, None)`` or ``(None, per seat)``, checked."""
    if value is None:
        raise RecordError(name, f"missing (the declarer's side's {name}, 0 to {top})")
    if type(value) is int:
        if not 0 <= value <= top:
            raise RecordError(name, f"{value} is not a whole number from 0 to {top}")
        return value, None
    if type(value) is not dict:
        raise RecordError(
            name, f"{value!r} is not a whole number from 0 to {top} or an object per seat"
        )
    if len(value) != 4 or not SEAT_SET.issuperset(value):
        extra = [key for key in value if key not in SEAT_SET]
        if extra:
            reason = f"{extra[0]!r} is not a seat key"
        else:
            reason = f"seat {next(s for s in SEAT_LETTERS if s not in value)} is missing"
        raise RecordError(name, f"{reason} (the keys are exactly N, E, S, W)")
    total = 0
    per_seat = {}
    for seat in SEAT_LETTERS:
        part = value[seat]
        if type(part) is not int or part < 0:
            raise RecordError(name, f"{seat}: {part!r} is not a whole number 0 or more")
        per_seat[seat] = part
        total += part
    if total != top:
        raise RecordError(name, f"the seats add up to {total}, not {top}")
    return None, per_seat


def _possible(points: int, tricks: int) -> bool:
    return FEWEST_POINTS[tricks] <= points <= MOST_POINTS[tricks]


def _impossible(who: str, points: int, tricks: int) -> RecordError:
    return RecordError(
        "points",
        f"{who} cannot have {points} points with {tricks} trick{'' if tricks == 1 else 's'} "
        f"({FEWEST_POINTS[tricks]} to {MOST_POINTS[tricks]})",
    )


def score_record(record: Any) -> dict[str, Any]:
    """The board score of a record (section 5.2), or ``RecordError`` naming the field."""
    record = record_object(record, GAME_ID, RECORD_FIELDS)
    get = record.get

    # -- dealer and deal ---------------------------------------------------------------------
    raw_dealer = get("dealer")
    raw_deal = get("deal")
    dealer = None
    if raw_dealer is not None:
        dealer = _seat("dealer", raw_dealer)
    elif raw_deal is None:
        raise RecordError("dealer", "missing (the dealer's seat; or give the deal)")
    deal: TwentyDeal | None = None
    if raw_deal is not None:
        try:
            deal = parse_deal(raw_deal)
        except DealError as exc:
            raise RecordError("deal", str(exc).removeprefix("deal: ")) from None
        if dealer is not None and dealer != deal.dealer:
            raise RecordError("dealer", f"{dealer} differs from the deal's dealer {deal.dealer}")
        dealer = deal.dealer
    eldest = NEXT_SEAT[dealer]

    # -- auction ------------------------------------------------------------------------------
    auction = get("auction")
    if auction is None:
        raise RecordError("auction", 'missing (the calls in order, like "E:PART")')
    if type(auction) is not list or not auction:
        raise RecordError("auction", f"{auction!r} is not a non-empty list of calls")
    for position, call in enumerate(auction, 1):
        if type(call) is not str:
            raise RecordError("auction", f"call {position}: {call!r} is not a string")
    try:
        state = read_auction(auction, dealer)
    except CallError as exc:
        raise RecordError("auction", str(exc)) from None
    if state.turn is not None:
        raise RecordError("auction", f"not finished: {state.turn} has still to call")
    declarer, contract, _sparrow, slam_announced = state.highest
    sparrow_by = state.sparrow_by

    # -- called card and partner --------------------------------------------------------------
    derived_called = called_card(deal.hand(eldest)) if deal is not None else None
    raw_called = get("called")
    called = derived_called
    if raw_called is not None:
        card = parse_card(raw_called)
        if card is None:
            raise RecordError("called", f"{raw_called!r} is not a card")
        if not 2 <= card <= 18:
            raise RecordError("called", f"{CARD_TEXT[card]} is not a trump from T4 to T20")
        if deal is not None and card != derived_called:
            raise RecordError(
                "called",
                f"{CARD_TEXT[card]} disagrees with the deal: Eldest {eldest}'s Partnership "
                f"calls {CARD_TEXT[derived_called]}",
            )
        called = card
    announcer = state.partner_sparrow
    derived_partner = deal.holder(derived_called) if deal is not None else None
    raw_partner = get("partner")
    partner = derived_partner or announcer
    if raw_partner is not None:
        given = _seat("partner", raw_partner)
        if given == eldest:
            raise RecordError("partner", f"{given} is Eldest, who cannot be his own partner")
        if deal is not None and given != derived_partner:
            raise RecordError(
                "partner",
                f"{given} disagrees with the deal: {derived_partner} holds the called card "
                f"{CARD_TEXT[derived_called]}",
            )
        if announcer is not None and given != announcer:
            raise RecordError(
                "partner",
                f"{given} is not {announcer}, who announced the Sparrow without a bid",
            )
        partner = given
    if deal is not None and announcer is not None and announcer != derived_partner:
        raise RecordError(
            "partner",
            f"{announcer} announced the Sparrow without a bid but does not hold the called "
            f"card {CARD_TEXT[derived_called]} ({derived_partner} does)",
        )
    if contract == PART:
        if partner is None:
            raise RecordError(
                "partner",
                "missing: a Partnership needs the partner (give partner, or the deal)",
            )
        side = (declarer, partner)
    else:
        side = (declarer,)
        partner = called = None

    # -- contras ------------------------------------------------------------------------------
    raw_contras = get("contras")
    levels = {}
    if raw_contras is not None:
        if type(raw_contras) is not dict:
            raise RecordError("contras", f"{raw_contras!r} is not an object")
        for key, value in raw_contras.items():
            if key not in ITEMS:
                raise RecordError("contras", f"{key!r} is not an item (bid, sparrow, slam)")
            if (key == "sparrow" and sparrow_by is None) or (key == "slam" and not slam_announced):
                raise RecordError("contras", f"{key}: no {key} stands in this auction")
            levels[key] = _level(key, value)

    # -- points and tricks --------------------------------------------------------------------
    side_points, seat_points = _total("points", get("points"), POINTS_TOTAL)
    side_tricks, seat_tricks = _total("tricks", get("tricks"), TRICKS)
    if seat_points is not None:
        side_points = sum(seat_points[seat] for seat in side)
    if seat_tricks is not None:
        side_tricks = sum(seat_tricks[seat] for seat in side)
        if seat_points is not None:
            for seat in SEAT_LETTERS:
                if not _possible(seat_points[seat], seat_tricks[seat]):
                    raise _impossible(seat, seat_points[seat], seat_tricks[seat])
    if not _possible(side_points, side_tricks):
        raise _impossible("the declarer's side", side_points, side_tricks)

    # -- the last trick -----------------------------------------------------------------------
    raw_last = get("last")
    last = None
    if raw_last is None:
        if sparrow_by is not None:
            raise RecordError("last", "missing: a Sparrow stands (who won the last trick, with)")
    else:
        if type(raw_last) is not dict or set(raw_last) != {"seat", "card"}:
            raise RecordError("last", f"{raw_last!r} is not an object of exactly seat and card")
        last_seat = _seat("last", raw_last["seat"])
        last_card = parse_card(raw_last["card"])
        if last_card is None:
            raise RecordError("last", f"{raw_last['card']!r} is not a card")
        if seat_tricks is not None:
            if seat_tricks[last_seat] == 0:
                raise RecordError("last", f"{last_seat} took no trick (tricks)")
        elif (side_tricks == 0) if last_seat in side else (side_tricks == TRICKS):
            raise RecordError("last", f"{last_seat}'s side took no trick (tricks)")
        if deal is not None and not deal.hand(last_seat) >> last_card & 1:
            raise RecordError(
                "last",
                f"{last_seat} was not dealt {CARD_TEXT[last_card]} ({deal.holder(last_card)} was)",
            )
        last = (last_seat, last_card)

    # -- held bonus ---------------------------------------------------------------------------
    held_item = "kings" if contract == NT else "honours"
    held = deal.set_holder(KINGS if contract == NT else HONOURS) if deal is not None else None
    raw_held = get("held")
    if raw_held is not None:
        given = _seat("held", raw_held)
        if deal is not None and given != held:
            raise RecordError(
                "held",
                f"{given} disagrees with the deal: it gives the {held_item.capitalize()} to "
                f"{held or 'nobody'}",
            )
        held = given

    # -- score ----------------------------------------------------------------------------------
    made = side_points >= TARGET
    items = [item("bid", declarer, BID_VALUE[contract], levels.get("bid", "none"), made)]
    if sparrow_by is not None:
        won = last is not None and last[0] == sparrow_by and last[1] == MAGICIAN
        items.append(item("sparrow", sparrow_by, SPARROW_BASE, levels.get("sparrow", "none"), won))
    if slam_announced:
        items.append(
            item("slam", declarer, SLAM_BASE, levels.get("slam", "none"), side_tricks == TRICKS)
        )
    seats = dict.fromkeys(SEAT_LETTERS, 0)
    for entry in items:
        pay(seats, side, entry["value"] if entry["won"] else -entry["value"])
    if held is not None:
        items.append(item(held_item, held, 1, "none", True))
        for seat in SEAT_LETTERS:
            seats[seat] += 3 if seat == held else -1
    return {
        "game": GAME_ID,
        "dealer": dealer,
        "declarer": declarer,
        "contract": contract,
        "partner": partner,
        "called": CARD_TEXT[called] if called is not None else None,
        "points": side_points,
        "tricks": side_tricks,
        "made": made,
        "items": items,
        "seats": seats,
    }


def auction_texts(record: dict[str, Any]) -> list[str]:
    """A valid record's auction in canonical calls (``E:PART+SPARROW``)."""
    dealer = record.get("dealer") or parse_deal(record["deal"]).dealer
    state = read_auction(record["auction"], SEAT_OF[dealer])
    return [call_text(call) for call in state.calls]
