"""Reading a Twenty board record and scoring it (docs/games/twenty.md).

``score_record`` checks the record field by field, in the order of the rulebook's list of bad
records: the object, ``game``, unknown fields, ``dealer``, ``deal`` (then its agreement with
``dealer``), ``auction``, ``called``, ``partner``, ``contras``, ``points``, ``tricks``, points
against tricks, ``last``, ``held``. The first fault raises ``RecordError`` naming the field. A
field set to ``null`` is absent. Written for speed: plain dict look-ups, cached calls and deals.
"""

from __future__ import annotations

from typing import Any, cast

from engine.core.errors import RecordError
from engine.core.messages import words
from engine.core.records import (
    deal_fits,
    missing_unless_dealt,
    read_deal,
    read_seat,
    record_object,
    seat_keys,
)
from engine.core.seats import SEAT_LETTERS, seat_mark
from engine.games.twenty.auction import (
    BID_VALUE,
    NT,
    PART,
    AuctionState,
    Call,
    CallError,
    call_text,
    read_auction,
)
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
    return read_seat(name, value)


def _level(key: str, value: Any) -> str:
    level = LEVEL_OF.get(value.lower()) if type(value) is str else None
    if level is None:
        raise RecordError(
            "contras",
            words("%(key)s: %(value)s is not none, contra, re or sub", key=key, value=repr(value)),
        )
    return level


def _total(name: str, value: Any, top: int) -> tuple[int | None, dict[str, int] | None]:
    """``points`` or ``tricks``: ``(side total, None)`` or ``(None, per seat)``, checked."""
    if value is None:
        raise RecordError(name, _missing_total(name, top))
    if type(value) is int:
        if not 0 <= value <= top:
            raise RecordError(
                name,
                words("%(value)s is not a whole number from 0 to %(top)s", value=value, top=top),
            )
        return value, None
    if type(value) is not dict:
        raise RecordError(
            name,
            words(
                "%(value)s is not a whole number from 0 to %(top)s or an object per seat",
                value=repr(value),
                top=top,
            ),
        )
    return None, _per_seat(name, value, top)


def _missing_total(name: str, top: int) -> str:
    if name == "points":
        return words("missing (the declarer's side's points, 0 to %(top)s)", top=top)
    return words("missing (the declarer's side's tricks, 0 to %(top)s)", top=top)


def _per_seat(name: str, value: dict[str, Any], top: int) -> dict[str, int]:
    """``points`` or ``tricks`` per seat: every seat's whole number, adding up to ``top``."""
    seat_keys(name, value, 4, " key")
    total = 0
    per_seat = {}
    for seat in SEAT_LETTERS:
        part = value[seat]
        if type(part) is not int or part < 0:
            raise RecordError(
                name,
                words(
                    "%(seat)s: %(value)s is not a whole number 0 or more",
                    seat=seat,
                    value=repr(part),
                ),
            )
        per_seat[seat] = part
        total += part
    if total != top:
        raise RecordError(
            name, words("the seats add up to %(total)s, not %(top)s", total=total, top=top)
        )
    return per_seat


def _possible(points: int, tricks: int) -> bool:
    return FEWEST_POINTS[tricks] <= points <= MOST_POINTS[tricks]


def _impossible(who: str, points: int, tricks: int) -> RecordError:
    values = {
        "who": who,
        "points": points,
        "tricks": tricks,
        "fewest": FEWEST_POINTS[tricks],
        "most": MOST_POINTS[tricks],
    }
    return RecordError(
        "points",
        words(
            "%(who)s cannot have %(points)s points with 1 trick (%(fewest)s to %(most)s)",
            **values,
        )
        if tricks == 1
        else words(
            "%(who)s cannot have %(points)s points with %(tricks)s tricks (%(fewest)s to %(most)s)",
            **values,
        ),
    )


def _read_dealer_and_deal(raw_dealer: Any, raw_deal: Any) -> tuple[str, TwentyDeal | None]:
    """``dealer``, then ``deal`` and its agreement with the dealer (the deal may give him)."""
    missing_unless_dealt("dealer", raw_dealer, raw_deal, "the dealer's seat")
    dealer = None if raw_dealer is None else _seat("dealer", raw_dealer)
    deal, fault = read_deal(raw_deal, parse_deal)
    if fault is not None:
        raise RecordError("deal", fault)
    if deal is None:
        assert dealer is not None  # one of the two is given
        return dealer, None
    if dealer is not None:
        deal_fits(deal, dealer=dealer)
    return deal.dealer, deal


def _check_calls_are_text(auction: list[Any]) -> None:
    for position, call in enumerate(auction, 1):
        if type(call) is not str:
            raise RecordError(
                "auction",
                words(
                    "call %(position)s: %(value)s is not a string",
                    position=position,
                    value=repr(call),
                ),
            )


def _read_auction(auction: Any, dealer: str) -> AuctionState:
    """``auction``: a finished auction of calls written as text, each legal in its turn."""
    if auction is None:
        raise RecordError("auction", words('missing (the calls in order, like "E:PART")'))
    if type(auction) is not list or not auction:
        raise RecordError(
            "auction", words("%(value)s is not a non-empty list of calls", value=repr(auction))
        )
    _check_calls_are_text(auction)
    try:
        state = read_auction(auction, dealer)
    except CallError as exc:
        raise RecordError("auction", exc.args[0]) from None
    if state.turn is not None:
        raise RecordError(
            "auction", words("not finished: %(seat)s has still to call", seat=seat_mark(state.turn))
        )
    return state


def _read_called(raw: Any, eldest: str, derived: int | None) -> int | None:
    """``called``: a trump from T4 to T20, the one Eldest's hand calls when the deal is known
    (``derived``); the derived card when not given."""
    if raw is None:
        return derived
    card = parse_card(raw)
    if card is None:
        raise RecordError("called", words("%(value)s is not a card", value=repr(raw)))
    if not 2 <= card <= 18:
        raise RecordError(
            "called", words("%(card)s is not a trump from T4 to T20", card=CARD_TEXT[card])
        )
    if derived is not None and card != derived:
        raise RecordError(
            "called",
            words(
                "%(card)s disagrees with the deal: Eldest %(eldest)s's Partnership calls "
                "%(derived)s",
                card=CARD_TEXT[card],
                eldest=eldest,
                derived=CARD_TEXT[derived],
            ),
        )
    return card


def _read_partner(
    raw: Any, deal: TwentyDeal | None, eldest: str, called: int | None, announcer: str | None
) -> str | None:
    """``partner``: not Eldest, the holder of the called card when the deal is known, the
    announcer of a Sparrow without a bid; the one these give when not given."""
    derived = deal.holder(called) if deal is not None and called is not None else None
    if raw is None:
        partner = derived or announcer
    else:
        partner = _given_partner(raw, derived, eldest, called, announcer)
    if deal is not None:
        _check_announcer_holds(announcer, derived, called)
    return partner


def _check_announcer_holds(announcer: str | None, holder: str | None, called: int | None) -> None:
    """The announcer of a Sparrow without a bid holds the called card (the deal says who)."""
    if announcer is not None and announcer != holder:
        raise RecordError(
            "partner",
            words(
                "%(seat)s announced the Sparrow without a bid but does not hold the called "
                "card %(card)s (%(holder)s does)",
                seat=announcer,
                card=_card_words(called),
                holder=str(holder),
            ),
        )


def _given_partner(
    raw: Any, derived: str | None, eldest: str, called: int | None, announcer: str | None
) -> str:
    given = _seat("partner", raw)
    if given == eldest:
        raise RecordError(
            "partner",
            words("%(seat)s is Eldest, who cannot be his own partner", seat=seat_mark(given)),
        )
    if derived is not None and given != derived:
        raise RecordError(
            "partner",
            words(
                "%(seat)s disagrees with the deal: %(holder)s holds the called card %(card)s",
                seat=given,
                holder=derived,
                card=_card_words(called),
            ),
        )
    if announcer is not None and given != announcer:
        raise RecordError(
            "partner",
            words(
                "%(seat)s is not %(announcer)s, who announced the Sparrow without a bid",
                seat=given,
                announcer=announcer,
            ),
        )
    return given


def _card_words(card: int | None) -> str:
    return CARD_TEXT[card] if card is not None else "None"


def _read_contras(raw: Any, sparrow_by: str | None, slam_announced: bool) -> dict[str, str]:
    """``contras``: the level of each item that stands (bid, sparrow, slam)."""
    levels: dict[str, str] = {}
    if raw is None:
        return levels
    if type(raw) is not dict:
        raise RecordError("contras", words("%(value)s is not an object", value=repr(raw)))
    for key, value in raw.items():
        _check_item_stands(key, sparrow_by, slam_announced)
        levels[key] = _level(key, value)
    return levels


def _check_item_stands(key: Any, sparrow_by: str | None, slam_announced: bool) -> None:
    """A contra is on an item, one that stands in this auction."""
    if key not in ITEMS:
        raise RecordError(
            "contras", words("%(key)s is not an item (bid, sparrow, slam)", key=repr(key))
        )
    if (key == "sparrow" and sparrow_by is None) or (key == "slam" and not slam_announced):
        raise RecordError("contras", words("%(key)s: no %(key)s stands in this auction", key=key))


def _read_points_and_tricks(
    raw_points: Any, raw_tricks: Any, side: tuple[str, ...]
) -> tuple[int, int, dict[str, int] | None]:
    """``(side's points, side's tricks, tricks per seat or None)``: ``points`` and ``tricks``,
    each a side total or an object per seat, possible together seat by seat and side by side."""
    side_points, seat_points = _total("points", raw_points, POINTS_TOTAL)
    side_tricks, seat_tricks = _total("tricks", raw_tricks, TRICKS)
    if seat_points is not None and seat_tricks is not None:
        for seat in SEAT_LETTERS:
            if not _possible(seat_points[seat], seat_tricks[seat]):
                raise _impossible(seat, seat_points[seat], seat_tricks[seat])
    points = _side_total(side_points, seat_points, side)
    tricks = _side_total(side_tricks, seat_tricks, side)
    if not _possible(points, tricks):
        raise _impossible(words("the declarer's side"), points, tricks)
    return points, tricks, seat_tricks


def _side_total(total: int | None, per_seat: dict[str, int] | None, side: tuple[str, ...]) -> int:
    """The declarer's side's total, given, or added up from the seats'."""
    if per_seat is not None:
        return sum(per_seat[seat] for seat in side)
    assert total is not None  # a total or per seat
    return total


def _read_last(
    raw: Any,
    sparrow_by: str | None,
    deal: TwentyDeal | None,
    side: tuple[str, ...],
    side_tricks: int,
    seat_tricks: dict[str, int] | None,
) -> tuple[str, int] | None:
    """``last``: who won the last trick and with which card, needed when a Sparrow stands; his
    side took a trick, and the deal gave him the card."""
    if raw is None:
        if sparrow_by is not None:
            raise RecordError(
                "last", words("missing: a Sparrow stands (who won the last trick, with)")
            )
        return None
    if type(raw) is not dict or set(raw) != {"seat", "card"}:
        raise RecordError(
            "last", words("%(value)s is not an object of exactly seat and card", value=repr(raw))
        )
    seat = _seat("last", raw["seat"])
    card = parse_card(raw["card"])
    if card is None:
        raise RecordError("last", words("%(value)s is not a card", value=repr(raw["card"])))
    _check_took_a_trick(seat, side, side_tricks, seat_tricks)
    if deal is not None:
        _check_dealt(deal, seat, card)
    return seat, card


def _check_dealt(deal: TwentyDeal, seat: str, card: int) -> None:
    """The winner of the last trick was dealt its card."""
    if not deal.hand(seat) >> card & 1:
        raise RecordError(
            "last",
            words(
                "%(seat)s was not dealt %(card)s (%(holder)s was)",
                seat=seat,
                card=CARD_TEXT[card],
                holder=deal.holder(card),
            ),
        )


def _check_took_a_trick(
    seat: str, side: tuple[str, ...], side_tricks: int, seat_tricks: dict[str, int] | None
) -> None:
    """The winner of the last trick took a trick: he did, by the tricks per seat; his side
    did, by the side's total."""
    if seat_tricks is not None:
        if seat_tricks[seat] == 0:
            raise RecordError(
                "last", words("%(seat)s took no trick (tricks)", seat=seat_mark(seat))
            )
    elif (side_tricks == 0) if seat in side else (side_tricks == TRICKS):
        raise RecordError(
            "last", words("%(seat)s's side took no trick (tricks)", seat=seat_mark(seat))
        )


def _read_held(raw: Any, deal: TwentyDeal | None, contract: str) -> tuple[str, str | None]:
    """``(item, seat)``: who held the Kings (No Trumps) or the Honours, as the deal gives or
    ``held`` says (agreeing with the deal when both are there)."""
    held_item = "kings" if contract == NT else "honours"
    held = deal.set_holder(KINGS if contract == NT else HONOURS) if deal is not None else None
    if raw is None:
        return held_item, held
    given = _seat("held", raw)
    if deal is not None and given != held:
        raise RecordError("held", _held_elsewhere(given, held, held_item))
    return held_item, given


def _held_elsewhere(given: str, held: str | None, held_item: str) -> str:
    """Why ``held`` disagrees with the deal: who it gives the Kings or the Honours to."""
    values = {"seat": seat_mark(given), "holder": seat_mark(held) if held else words("nobody")}
    if held_item == "kings":
        return words("%(seat)s disagrees with the deal: it gives the Kings to %(holder)s", **values)
    return words("%(seat)s disagrees with the deal: it gives the Honours to %(holder)s", **values)


def _side(contract: str, declarer: str, partner: str | None) -> tuple[str, ...]:
    """The declarer's side: with the partner in a Partnership, who must then be known."""
    if contract != PART:
        return (declarer,)
    if partner is None:
        raise RecordError(
            "partner",
            words("missing: a Partnership needs the partner (give partner, or the deal)"),
        )
    return (declarer, partner)


def _items(
    state: AuctionState,
    levels: dict[str, str],
    made: bool,
    last: tuple[str, int] | None,
    side_tricks: int,
) -> list[dict[str, Any]]:
    """The bid, and the Sparrow and the Slam when they stand, each won or lost."""
    declarer, contract, _sparrow, slam_announced = cast(Call, state.highest)
    sparrow_by = state.sparrow_by
    items = [item("bid", declarer, BID_VALUE[contract], levels.get("bid", "none"), made)]
    if sparrow_by is not None:
        won = last is not None and last[0] == sparrow_by and last[1] == MAGICIAN
        items.append(item("sparrow", sparrow_by, SPARROW_BASE, levels.get("sparrow", "none"), won))
    if slam_announced:
        items.append(
            item("slam", declarer, SLAM_BASE, levels.get("slam", "none"), side_tricks == TRICKS)
        )
    return items


def _seat_results(
    items: list[dict[str, Any]], side: tuple[str, ...], held_item: str, held: str | None
) -> dict[str, int]:
    """Every seat's result: the items paid between the sides, then the held bonus."""
    seats = dict.fromkeys(SEAT_LETTERS, 0)
    for entry in items:
        pay(seats, side, entry["value"] if entry["won"] else -entry["value"])
    if held is not None:
        items.append(item(held_item, held, 1, "none", True))
        for seat in SEAT_LETTERS:
            seats[seat] += 3 if seat == held else -1
    return seats


def score_record(record: Any) -> dict[str, Any]:
    """The board score of a record (section 5.2), or ``RecordError`` naming the field."""
    record = record_object(record, GAME_ID, RECORD_FIELDS)
    get = record.get
    dealer, deal = _read_dealer_and_deal(get("dealer"), get("deal"))
    eldest = NEXT_SEAT[dealer]
    state = _read_auction(get("auction"), dealer)
    # A finished auction always has a highest bid: Eldest opens with Partnership.
    declarer, contract, _sparrow, slam_announced = cast(Call, state.highest)
    sparrow_by = state.sparrow_by
    derived_called = called_card(deal.hand(eldest)) if deal is not None else None
    called = _read_called(get("called"), eldest, derived_called)
    partner = _read_partner(get("partner"), deal, eldest, derived_called, state.partner_sparrow)
    side = _side(contract, declarer, partner)
    if contract != PART:
        partner = called = None
    levels = _read_contras(get("contras"), sparrow_by, slam_announced)
    side_points, side_tricks, seat_tricks = _read_points_and_tricks(
        get("points"), get("tricks"), side
    )
    last = _read_last(get("last"), sparrow_by, deal, side, side_tricks, seat_tricks)
    held_item, held = _read_held(get("held"), deal, contract)
    made = side_points >= TARGET
    items = _items(state, levels, made, last, side_tricks)
    seats = _seat_results(items, side, held_item, held)
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
