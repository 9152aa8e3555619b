"""The auction: calls, the bid ladder, auction checking, Gâm-over-Ry liability, legal next calls.

A call is written ``SEAT:CALL``: ``P`` (pass), ``G``, ``G+1`` … ``G+6``, ``R``, ``R2``, ``R3``
or ``L``; a Gâm-family bid or ``L`` may carry the trump announced during bidding, ``S:G+4/nt``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from engine.core.messages import words
from engine.games.pymtheg.cards import Seat, seat_order

TRUMPS = ("fire", "earth", "water", "wind", "nt")
TRUMP_ALIASES = {"stone": "earth"}


class Bid(NamedTuple):
    code: str  # canonical: G, G+1 … G+6, R, R2, R3, L
    rank: int  # place on the ladder, 1 (Gâm) to 11 (Lon)
    family: str  # "gam", "ry" or "lon"
    level: int  # Gâm: 0..6 (required tricks 9 + level); Ry: 1..3; Lon: 0

    @property
    def required_tricks(self) -> int:
        return 9 + self.level

    @property
    def words(self) -> str:
        return BID_WORDS[self.code]


_LADDER = ("G", "G+1", "G+2", "G+3", "R", "G+4", "R2", "G+5", "R3", "G+6", "L")


def _make_bid(code: str, rank: int) -> Bid:
    if code.startswith("G"):
        return Bid(code, rank, "gam", int(code[2:]) if "+" in code else 0)
    if code.startswith("R"):
        return Bid(code, rank, "ry", int(code[1:]) if len(code) > 1 else 1)
    return Bid(code, rank, "lon", 0)


BIDS: dict[str, Bid] = {code: _make_bid(code, rank) for rank, code in enumerate(_LADDER, 1)}
BID_WORDS = {
    **{f"G+{k}": f"Gâm +{k}" for k in range(1, 7)},
    "G": "Gâm",
    "R": "Ry",
    "R2": "Ry 2",
    "R3": "Ry 3",
    "L": "Lon",
}
GAM_BIDS = tuple(bid for bid in BIDS.values() if bid.family == "gam")


def lowest_gam_above(rank: int) -> Bid | None:
    """The only Gâm-family bid allowed over a highest bid of this rank (0: no bid yet)."""
    return next((bid for bid in GAM_BIDS if bid.rank > rank), None)


class Call(NamedTuple):
    seat: Seat
    bid: Bid | None  # None is a pass
    trump: str | None  # trump announced in the bid

    def __str__(self) -> str:
        if self.bid is None:
            return f"{self.seat.name}:P"
        suffix = f"/{self.trump}" if self.trump else ""
        return f"{self.seat.name}:{self.bid.code}{suffix}"

    @property
    def call_text(self) -> str:
        return str(self).split(":", 1)[1]


def _spellings() -> dict[str, tuple[Bid | None, str | None]]:
    """Every accepted spelling of a call (without the seat), lower case, no spaces."""
    table: dict[str, tuple[Bid | None, str | None]] = {"p": (None, None), "pass": (None, None)}
    suffixes = {"": None, **{f"/{t}": t for t in TRUMPS}}
    suffixes.update({f"/{alias}": real for alias, real in TRUMP_ALIASES.items()})
    for bid in BIDS.values():
        for name in _bid_names(bid):
            if bid.family == "ry":
                table[name] = (bid, None)
                continue
            for suffix, trump in suffixes.items():
                table[name + suffix] = (bid, trump)
    return table


def _bid_names(bid: Bid) -> list[str]:
    """A bid's names without a trump: "g+2", "gam+2", "gâm+2"; "r3", "ry3"; "l", "lon"."""
    if bid.family == "gam":
        plus = f"+{bid.level}" if bid.level else ""
        return [f"{stem}{plus}" for stem in ("g", "gam", "gâm")]
    if bid.family == "ry":
        digit = str(bid.level) if bid.level > 1 else ""
        return [f"r{digit}", f"ry{digit}"]
    return ["l", "lon"]


_CALL_SPELLINGS = _spellings()
_CALL_CACHE: dict[str, Call] = {}


class CallError(ValueError):
    """A call that is not written right."""


def _spelled(text: str, call_text: str) -> tuple[Bid | None, str | None]:
    """The bid and the trump of a call's text (the seat's part taken off), in any accepted
    spelling."""
    key = "".join(call_text.split()).lower()
    spelled = _CALL_SPELLINGS.get(key)
    if spelled is not None:
        return spelled
    if key.startswith("r") and "/" in key:
        raise CallError(words("%(value)s: a Ry bid never names a trump", value=repr(text)))
    raise CallError(
        words(
            "%(value)s: unknown call %(call)s (expected P, G, G+1 … G+6, R, R2, R3 or L, a "
            "Gâm or Lon bid optionally /trump)",
            value=repr(text),
            call=repr(call_text.strip()),
        )
    )


def parse_call(text: str) -> Call:
    """Read ``SEAT:CALL`` in any accepted spelling."""
    if not isinstance(text, str):
        raise CallError(
            words("a call must be a string like 'N:G+1', not %(value)s", value=repr(text))
        )
    cached = _CALL_CACHE.get(text)
    if cached is not None:
        return cached
    seat_text, colon, call_text = text.partition(":")
    if not colon:
        raise CallError(
            words("%(value)s is not a call: write SEAT:CALL, e.g. 'N:G+1'", value=repr(text))
        )
    try:
        seat = Seat.parse(seat_text)
    except ValueError:
        raise CallError(
            words(
                "%(value)s: unknown seat %(seat)s (expected N, E, S or W)",
                value=repr(text),
                seat=repr(seat_text),
            )
        ) from None
    bid, trump = _spelled(text, call_text)
    call = Call(seat, bid, trump)
    if len(_CALL_CACHE) < 4096:
        _CALL_CACHE[text] = call
    return call


@dataclass(frozen=True)
class Liability:
    """A Gâm-family overbid of an opponent's Ry: the Ry's value is added if the Gâm fails."""

    liable_team: str
    ry_team: str
    amount: int


RY_LIABILITY = {"R": 150, "R2": 200, "R3": 1000}


class AuctionError(ValueError):
    """An auction that breaks a rule; ``position`` is the 1-based call number (0: none)."""

    def __init__(self, message: str, position: int = 0):
        super().__init__(message)
        self.position = position


@dataclass
class AuctionState:
    """An auction being checked call by call."""

    order: tuple[Seat, ...]
    passed: list[bool]
    turn: int  # index into order of the seat to call next
    highest: Call | None = None
    liability: Liability | None = None
    calls_made: int = 0
    ended: bool = False

    @classmethod
    def start(cls, opening: Seat = Seat.N, direction: str = "clockwise") -> AuctionState:
        return cls(order=seat_order(opening, direction), passed=[False] * 4, turn=0)

    @property
    def next_seat(self) -> Seat | None:
        return None if self.ended else self.order[self.turn]

    @property
    def passed_out(self) -> bool:
        return self.ended and self.highest is None

    @property
    def top_rank(self) -> int:
        """The rank of the highest bid so far; 0 before the first bid."""
        return self.highest.bid.rank if self.highest and self.highest.bid else 0

    @property
    def top_code(self) -> str:
        """The code of the highest bid so far; empty before the first bid."""
        return self.highest.bid.code if self.highest and self.highest.bid else ""

    def illegal_reason(self, call: Call) -> str | None:
        """Why ``call`` may not be made now, or None if it may."""
        if self.ended:
            return words("the auction already ended at call %(position)s", position=self.calls_made)
        seat = self.order[self.turn]
        if call.seat != seat:
            return words("it is %(seat)s's turn", seat=words(seat.full_name))
        bid = call.bid
        if bid is None:
            return None
        if bid.family == "gam":
            return self._gam_reason(bid)
        if bid.rank <= self.top_rank:
            return words("%(bid)s does not rank above %(top)s", bid=bid.code, top=self.top_code)
        return None

    def _gam_reason(self, bid: Bid) -> str | None:
        """Why a Gâm bid may not be made now: only the lowest Gâm above the highest bid may."""
        allowed = lowest_gam_above(self.top_rank)
        if allowed is None:
            return words("no Gâm bid ranks above %(top)s", top=self.top_code)
        if bid == allowed:
            return None
        if self.highest:
            return words(
                "a Gâm bid over %(top)s must be %(bid)s", top=self.top_code, bid=allowed.code
            )
        return words("a Gâm bid as the first bid must be %(bid)s", bid=allowed.code)

    def apply(self, call: Call) -> None:
        reason = self.illegal_reason(call)
        if reason:
            raise AuctionError(
                words(
                    "%(call)s at call %(position)s: %(reason)s",
                    call=str(call),
                    position=self.calls_made + 1,
                    reason=reason,
                ),
                self.calls_made + 1,
            )
        self.calls_made += 1
        seat = call.seat
        if call.bid is None:
            self.passed[seat] = True
        else:
            self._track_liability(call)
            self.highest = call
        self._advance()

    def _track_liability(self, call: Call) -> None:
        team = call.seat.team
        if self.liability and team == self.liability.ry_team:
            self.liability = None  # the Ry team made a further bid: cleared
        top = self.highest
        if top is not None and _gam_over_opponents_ry(call, top):
            assert top.bid is not None
            self.liability = Liability(team, top.seat.team, RY_LIABILITY[top.bid.code])

    def _advance(self) -> None:
        passes = sum(self.passed)
        if (self.highest is None and passes == 4) or (self.highest is not None and passes == 3):
            self.ended = True
            return
        for step in range(1, 5):
            candidate = (self.turn + step) % 4
            if not self.passed[self.order[candidate]]:
                self.turn = candidate
                return

    def legal_calls(self) -> list[str]:
        """Every call the next seat may make, as call text (``P``, ``G+1``, ``G+1/nt`` …)."""
        if self.ended:
            return []
        top = self.top_rank
        calls = ["P"]
        for bid in BIDS.values():
            if bid.family == "gam" and bid != lowest_gam_above(top):
                continue
            if bid.rank <= top:
                continue
            calls.append(bid.code)
            if bid.family != "ry":
                calls.extend(f"{bid.code}/{trump}" for trump in TRUMPS)
        return calls


def _gam_over_opponents_ry(call: Call, top: Call) -> bool:
    """Whether ``call`` is a Gâm-family bid over the opponents' Ry, ``top``."""
    return (
        top.bid is not None
        and top.bid.family == "ry"
        and top.seat.team != call.seat.team
        and call.bid is not None
        and call.bid.family == "gam"
    )


@dataclass(frozen=True)
class AuctionResult:
    """A complete, legal auction."""

    calls: tuple[Call, ...]
    contract: Bid | None  # None when passed out
    declarer: Seat | None
    trump_in_bid: str | None
    liability: Liability | None

    @property
    def passed_out(self) -> bool:
        return self.contract is None

    @property
    def liability_amount(self) -> int:
        """The liability the contract carries (counted only if it is a Gâm and fails)."""
        if (
            self.contract is None
            or self.contract.family != "gam"
            or self.liability is None
            or self.declarer is None
            or self.liability.liable_team != self.declarer.team
        ):
            return 0
        return self.liability.amount


def _called(
    calls: Sequence[str | Call], opening: Seat, direction: str
) -> tuple[AuctionState, list[Call]]:
    """The auction's state after ``calls``, and the calls read; AuctionError (or CallError)
    names the first bad call."""
    state = AuctionState.start(opening, direction)
    parsed: list[Call] = []
    for position, raw in enumerate(calls, 1):
        try:
            call = raw if isinstance(raw, Call) else parse_call(raw)
        except CallError as exc:
            raise AuctionError(
                words("call %(position)s: %(reason)s", position=position, reason=exc.args[0]),
                position,
            ) from None
        state.apply(call)
        parsed.append(call)
    return state, parsed


def run_auction(
    calls: Sequence[str | Call], opening: Seat = Seat.N, direction: str = "clockwise"
) -> AuctionResult:
    """Check a whole auction; raises AuctionError (or CallError) naming the bad call."""
    state, parsed = _called(calls, opening, direction)
    if not state.ended:
        seat = state.next_seat
        raise AuctionError(
            words(
                "the auction is incomplete after %(count)s calls: %(seat)s is to call",
                count=len(parsed),
                seat=words(seat.full_name),  # type: ignore[union-attr]
            ),
            len(parsed),
        )
    top = state.highest
    return AuctionResult(
        calls=tuple(parsed),
        contract=top.bid if top else None,
        declarer=top.seat if top else None,
        trump_in_bid=top.trump if top else None,
        liability=state.liability,
    )


@dataclass(frozen=True)
class NextCalls:
    seat: Seat | None  # None once the auction has ended
    calls: list[str]
    ended: bool
    passed_out: bool


def legal_next_calls(
    prefix: Sequence[str | Call], opening: Seat = Seat.N, direction: str = "clockwise"
) -> NextCalls:
    """What the bidding box offers after ``prefix`` (itself checked; AuctionError if illegal)."""
    state, _ = _called(prefix, opening, direction)
    return NextCalls(state.next_seat, state.legal_calls(), state.ended, state.passed_out)
