"""Twenty's auction (docs/games/twenty.md): reading calls, checking their legality, the
contract it ends in, and the legal next calls for a bidding box.

A call is read into ``(seat, bid, sparrow, slam)``: ``bid`` is ``P``, ``PART``, ``NT`` or
``SOLO``, the two flags its announced bonuses.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.messages import words
from engine.core.seats import SEAT_LETTERS, seat_mark
from engine.games.twenty.cards import NEXT_SEAT

PASS, PART, NT, SOLO = "P", "PART", "NT", "SOLO"
#: The bids, lowest first: each bid must be the lowest not yet made.
BIDS = (PART, NT, SOLO)
BID_VALUE = {PART: 1, NT: 2, SOLO: 4}
BID_WORDS = {PART: "Partnership", NT: "No Trumps", SOLO: "Solo", PASS: "Pass"}
_CALL_NAMES = {
    "P": PASS,
    "PASS": PASS,
    "PART": PART,
    "PARTNERSHIP": PART,
    "NT": NT,
    "NOTRUMPS": NT,
    "SOLO": SOLO,
}
SPARROW, SLAM = "SPARROW", "SLAM"
#: The bonus suffixes in canonical order, for every (sparrow, slam).
_SUFFIX = {
    (False, False): "",
    (True, False): "+SPARROW",
    (False, True): "+SLAM",
    (True, True): "+SPARROW+SLAM",
}

Call = tuple[str, str, bool, bool]


class CallError(ValueError):
    """A call that breaks a rule; the reader adds the call's position."""


def call_text(call: Call) -> str:
    """The canonical ``SEAT:CALL``: ``E:PART+SPARROW``, ``W:P+SPARROW``."""
    seat, bid, sparrow, slam = call
    return f"{seat}:{bid}{_SUFFIX[sparrow, slam]}"


@functools.lru_cache(maxsize=2048)
def parse_call(text: str) -> Call:
    """``SEAT:CALL`` in any case, spaces ignored; ``CallError`` says what cannot be read."""
    squeezed = "".join(text.split()).upper()
    seat, colon, rest = squeezed.partition(":")
    if not colon:
        raise CallError(words("not SEAT:CALL"))
    if seat not in SEAT_LETTERS:
        raise CallError(words("%(value)s is not a seat (N, E, S or W)", value=repr(seat)))
    name, *bonuses = rest.split("+")
    bid = _CALL_NAMES.get(name)
    if bid is None:
        raise CallError(words("%(value)s is not a call (P, PART, NT or SOLO)", value=repr(name)))
    sparrow, slam = _read_bonuses(bonuses)
    return seat, bid, sparrow, slam


#: Why a bonus cannot be named again.
NAMED_TWICE = {SPARROW: words("names the Sparrow twice"), SLAM: words("names the Slam twice")}


def _read_bonuses(bonuses: list[str]) -> tuple[bool, bool]:
    """``(the Sparrow, the Slam)``: the bonuses a call names, each at most once."""
    named: set[str] = set()
    for bonus in bonuses:
        if bonus not in NAMED_TWICE:
            raise CallError(words("%(value)s is not a bonus (SPARROW or SLAM)", value=repr(bonus)))
        if bonus in named:
            raise CallError(NAMED_TWICE[bonus])
        named.add(bonus)
    return SPARROW in named, SLAM in named


@dataclass(slots=True)
class AuctionState:
    """Where an auction stands after some calls."""

    dealer: str
    turn: str | None  # whose call is next; None once the auction has ended
    passed: set[str]
    highest: Call | None  # the highest bid so far, with its bonuses
    bids_made: int  # how many of PART, NT, SOLO have been bid
    partner_sparrow: str | None  # who announced the Sparrow with a pass (void or not)
    calls: list[Call]

    @property
    def ended(self) -> bool:
        return self.turn is None

    @property
    def contract(self) -> str | None:
        return self.highest[1] if self.highest else None

    @property
    def declarer(self) -> str | None:
        return self.highest[0] if self.highest else None

    @property
    def sparrow_stands_on_part(self) -> bool:
        """A Sparrow already stands on a Partnership that is still the highest bid."""
        assert self.highest is not None
        return self.highest[2] or self.partner_sparrow is not None

    @property
    def sparrow_by(self) -> str | None:
        """The announcer of the standing Sparrow, if any (once the auction has ended)."""
        if self.highest is None:
            return None
        if self.highest[2]:
            return self.highest[0]
        if self.highest[1] == PART:
            return self.partner_sparrow
        return None

    @property
    def slam(self) -> bool:
        return self.highest is not None and self.highest[3]


def new_state(dealer: str) -> AuctionState:
    return AuctionState(dealer, NEXT_SEAT[dealer], set(), None, 0, None, [])


def _apply_pass(state: AuctionState, seat: str, sparrow: bool, slam: bool) -> None:
    """A pass, with the partner's Sparrow while Partnership is the highest bid."""
    if slam:
        raise CallError(words("a pass carries no bonus but the partner's Sparrow (P+SPARROW)"))
    if sparrow:
        if state.contract != PART:
            raise CallError(
                words(
                    "the Sparrow without a bid is only for the partner while Partnership is "
                    "the highest bid"
                )
            )
        if state.sparrow_stands_on_part:
            raise CallError(words("a Sparrow already stands on the Partnership"))
        state.partner_sparrow = seat
    state.passed.add(seat)


def _apply_bid(state: AuctionState, call: Call) -> None:
    """A bid: the lowest not yet made."""
    bid = call[1]
    wanted = BIDS[state.bids_made] if state.bids_made < len(BIDS) else None
    if bid != wanted:
        if wanted is None:
            raise CallError(words("no bid is left after Solo: pass"))
        raise CallError(
            words("%(bid)s is not the lowest bid not yet made (%(wanted)s)", bid=bid, wanted=wanted)
        )
    state.highest = call
    state.bids_made += 1


def apply_call(state: AuctionState, call: Call) -> None:
    """``state`` after ``call``; ``CallError`` when the call is not legal there."""
    seat, bid, sparrow, slam = call
    if state.turn is None:
        raise CallError(words("comes after the auction has ended"))
    if seat != state.turn:
        raise CallError(words("out of turn: it is %(seat)s's call", seat=seat_mark(state.turn)))
    if state.highest is None and bid != PART:
        raise CallError(
            words("Eldest %(seat)s must open with Partnership (PART)", seat=seat_mark(seat))
        )
    if bid == PASS:
        _apply_pass(state, seat, sparrow, slam)
    else:
        _apply_bid(state, call)
    state.calls.append(call)
    state.turn = _next_turn(state.passed, seat)


def _next_turn(passed: set[str], seat: str) -> str | None:
    """The next seat after ``seat`` that has not passed; None once everyone but the highest
    bidder has."""
    if len(passed) == 3:
        return None
    following = NEXT_SEAT[seat]
    while following in passed:
        following = NEXT_SEAT[following]
    return following


def read_auction(calls: Sequence[str], dealer: str) -> AuctionState:
    """Every call read and checked in turn; ``CallError`` names the call's position."""
    state = new_state(dealer)
    for position, text in enumerate(calls, 1):
        try:
            apply_call(state, parse_call(text))
        except CallError as exc:
            raise CallError(
                words(
                    "call %(position)s (%(call)s): %(reason)s",
                    position=position,
                    call=repr(text),
                    reason=exc.args[0],
                )
            ) from None
    return state


def legal_calls(state: AuctionState, partner: str | None = None) -> list[str]:
    """The calls (canonical, without the seat) the player to call may make next. With
    ``partner`` known (from the deal), only he is offered the Sparrow without a bid."""
    seat = state.turn
    if seat is None:
        return []
    calls = []
    if state.highest is not None:
        calls.append(PASS)
        if _may_announce_sparrow(state, seat, partner):
            calls.append(PASS + "+" + SPARROW)
    if state.bids_made < len(BIDS):
        bid = BIDS[state.bids_made]
        calls.extend(bid + suffix for suffix in _SUFFIX.values())
    return calls


def _may_announce_sparrow(state: AuctionState, seat: str, partner: str | None) -> bool:
    """Whether ``seat`` may pass with the partner's Sparrow: Partnership is the highest bid, no
    Sparrow stands on it, and he is the partner (when known)."""
    assert state.highest is not None
    return (
        state.highest[1] == PART
        and not state.sparrow_stands_on_part
        and (partner is None or partner == seat)
    )


def next_calls(calls: Sequence[str], dealer: str, partner: str | None = None) -> dict:
    """JSON-ready for a bidding box: whose call it is (``seat``, None at the end), the legal
    ``calls``, and whether the auction is ``complete``; then the contract so far."""
    state = read_auction(calls, dealer)
    return {
        "seat": state.turn,
        "calls": legal_calls(state, partner),
        "complete": state.ended,
        "contract": state.contract,
        "declarer": state.declarer,
        "sparrow": state.sparrow_by,
        "partner_sparrow": state.partner_sparrow,
        "slam": state.slam,
        "auction": [call_text(call) for call in state.calls],
    }
