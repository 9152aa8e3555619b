"""A Pymtheg board played at a table, action by action, for a recorder (``TablePlay``).

The actions follow the round: the calls of the auction (``call:G+1``, ``call:G/fire``,
``call:P``; a second auction after a passed-out one where the ruleset has it), the trump the
declarer names after the auction when his bid named none (``trump:water``), the double
(``double:none``, ``double:x``, ``double:xx``), then every card (``card:F9``). The auction's
rules are ``auction.AuctionState``'s and the cards' ``play.PlayState``'s, so the recorder is
offered exactly what the engine accepts, and the facts North enters come from the same play.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.messages import words
from engine.games.base import PlayRefused, TablePlay
from engine.games.pymtheg.auction import (
    BID_WORDS,
    TRUMPS,
    AuctionError,
    AuctionState,
    CallError,
    parse_call,
)
from engine.games.pymtheg.cards import SEATS, Card, Deal, Seat, seat_order
from engine.games.pymtheg.play import PlayState, tricks_field
from engine.games.pymtheg.rulesets import get_ruleset
from engine.games.pymtheg.words import DOUBLE_WORDS, SEAT_NAMES, TRUMP_WORDS

DOUBLE_LABELS = {"none": words("No double"), "x": words("Doubled"), "xx": words("Redoubled")}


def _card(card: Card) -> dict[str, Any]:
    return {
        "code": card.code,
        # The notation's suit letter (F fire, E earth, W water, I wind) and the rank.
        "label": f"{card.code[0]}{card.rank}",
        "suit": card.suit.label,
        "strength": card.rank,
    }


def _call_label(call: str) -> str:
    code, _, trump = call.partition("/")
    if code == "P":
        return words("Pass")
    bid = BID_WORDS[code]
    return words("%(bid)s %(trump)s", bid=bid, trump=TRUMP_WORDS[trump]) if trump else bid


def _trump_options() -> list[dict[str, str]]:
    return [
        {"action": f"trump:{name}", "label": TRUMP_WORDS[name].capitalize(), "group": "trump"}
        for name in TRUMPS
    ]


def _double_options() -> list[dict[str, str]]:
    return [
        {"action": f"double:{name}", "label": label, "group": "double"}
        for name, label in DOUBLE_LABELS.items()
    ]


#: The kind of action each phase of the board takes.
ACTION_OF_PHASE = {"auction": "call", "trump": "trump", "double": "double", "play": "card"}


def _hand_bits(cards: Any) -> int:
    """A hand as the solver takes it: one bit a card, 16 a suit."""
    return sum(1 << (16 * card.suit + card.rank - 1) for card in cards)


def _current_trick(play: PlayState) -> dict[str, Any] | None:
    """The trick under way; None between tricks."""
    if not play.current_trick:
        return None
    return {
        "number": len(play.tricks) + 1,
        "leader": play.leader.name,
        "cards": [{"seat": seat.name, **_card(card)} for seat, card in play.current_trick],
    }


class PymthegTablePlay(TablePlay):
    """The auction(s), the trump named after it, the double, then the cards."""

    def __init__(self, deal: Deal, *, opening: Seat, direction: str, ruleset: str) -> None:
        self.deal = deal
        self.opening = opening
        self.direction = direction
        self.ruleset = get_ruleset(ruleset)
        self.auctions: list[list[str]] = [[]]
        self._auction = AuctionState.start(opening, direction)
        self.contract: str | None = None
        self.declarer: Seat | None = None
        self.trump: str | None = None  # the contract's trump; None for Ry
        self.trump_named_after = False
        self.double: str | None = None
        self.play: PlayState | None = None
        self.passed_out = False

    # -- where play stands -------------------------------------------------------------------

    @property
    def phase(self) -> str:
        if self.play is not None:
            return "over" if self.play.finished else "play"
        if self.passed_out:
            return "over"
        if self.contract is None:
            return "auction"
        if self.trump is None and self.contract[0] != "R":
            return "trump"
        return "double"

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def _to_act(self) -> Seat | None:
        phase = self.phase
        if phase == "auction":
            return self._auction.next_seat
        if phase == "trump":
            return self.declarer
        if phase == "play":
            assert self.play is not None
            return self.play.to_play
        return None

    def options(self) -> list[dict[str, str]]:
        offered = {
            "auction": self._call_options,
            "trump": _trump_options,
            "double": _double_options,
            "play": self._card_options,
        }.get(self.phase)
        return offered() if offered is not None else []

    def _call_options(self) -> list[dict[str, str]]:
        return [
            {"action": f"call:{call}", "label": _call_label(call), "group": "call"}
            for call in self._auction.legal_calls()
        ]

    def _card_options(self) -> list[dict[str, str]]:
        assert self.play is not None
        return [
            {"action": f"card:{card.code}", "label": _card(card)["label"], "group": "card"}
            for card in self.play.legal_cards()
        ]

    # -- actions -----------------------------------------------------------------------------

    def apply(self, action: str) -> None:
        kind, _, value = action.partition(":")
        phase = self.phase
        if phase == "over":
            raise PlayRefused("the board is over")
        wanted = ACTION_OF_PHASE[phase]
        if kind != wanted:
            raise PlayRefused(f"now is the time for a {wanted}, not {action!r}")
        act = {
            "call": self._call,
            "trump": self._name_trump,
            "double": self._start_play,
            "card": self._card,
        }[kind]
        act(value)

    def _name_trump(self, value: str) -> None:
        if value not in TRUMPS:
            raise PlayRefused(f"{value!r} is not a trump (fire, earth, water, wind or nt)")
        self.trump = value
        self.trump_named_after = True

    def _call(self, value: str) -> None:
        seat = self._auction.next_seat
        assert seat is not None
        try:
            call = parse_call(f"{seat.name}:{value}")
            self._auction.apply(call)
        except (CallError, AuctionError) as exc:
            raise PlayRefused(str(exc)) from None
        self.auctions[-1].append(str(call))
        if self._auction.ended:
            self._end_auction()

    def _end_auction(self) -> None:
        """The contract; or, passed out, a second auction where the ruleset has one."""
        top = self._auction.highest
        if top is None:
            if self.ruleset.second_auction and len(self.auctions) == 1:
                self.auctions.append([])
                self._auction = AuctionState.start(self.opening, self.direction)
            else:
                self.passed_out = True
            return
        assert top.bid is not None
        self.contract = top.bid.code
        self.declarer = top.seat
        self.trump = top.trump

    def _start_play(self, double: str) -> None:
        """The double, then the play."""
        if double not in DOUBLE_LABELS:
            raise PlayRefused(f"{double!r} is not a double (none, x or xx)")
        assert self.contract is not None and self.declarer is not None
        self.double = double
        self.play = PlayState(
            self.deal,
            self.trump,
            self.opening,
            self.direction,
            self.ruleset,
            contract=self.contract,
            declarer=self.declarer,
        )

    def _card(self, value: str) -> None:
        assert self.play is not None
        try:
            card = Card.parse(value)
        except (ValueError, AttributeError):
            raise PlayRefused(f"{value!r} is not a card") from None
        error = self.play.check(card)
        if error is not None:
            raise PlayRefused(str(error))
        self.play.play(card)

    # -- what it gives -----------------------------------------------------------------------

    def facts(self) -> dict[str, Any] | None:
        if not self.over:
            return None
        facts: dict[str, Any] = {"auctions": [list(calls) for calls in self.auctions]}
        if self.passed_out:
            return facts
        assert self.play is not None
        if self.trump_named_after:
            facts["trump"] = self.trump
        facts["double"] = self.double
        facts["tricks"] = tricks_field(self.play.tricks_per_seat)
        return facts

    def _contract_words(self) -> str | None:
        if self.contract is None or self.declarer is None:
            return None
        seat = SEAT_NAMES[self.declarer.name]
        double = DOUBLE_WORDS.get(self.double or "none", "")
        if self.trump:
            return words(
                "%(bid)s %(trump)s by %(seat)s%(double)s",
                bid=BID_WORDS[self.contract],
                trump=TRUMP_WORDS[self.trump],
                seat=seat,
                double=double,
            )
        return words(
            "%(bid)s by %(seat)s%(double)s", bid=BID_WORDS[self.contract], seat=seat, double=double
        )

    def _side(self) -> list[str]:
        if self.declarer is None:
            return []
        if self.contract in ("R", "R2"):
            return [self.declarer.name]
        return [self.declarer.name, self.declarer.partner.name]

    def view(self) -> dict[str, Any]:
        phase = self.phase
        tricks, current, won = self._tricks_view()
        side = self._side()
        to_act = self._to_act()
        return {
            "phase": phase,
            "to_act": to_act.name if to_act is not None else None,
            "prompt": self._prompt(phase, to_act),
            "seats": [seat.name for seat in seat_order(self.opening, self.direction)],
            "seat_names": SEAT_NAMES,
            "hands": self._hands_view(),
            "bidding": self._bidding_view(),
            "contract": self._contract_words(),
            "declarer": self.declarer.name if self.declarer is not None else None,
            "declarer_side": side,
            "tricks": tricks,
            "current": current,
            "won": won,
            "side_won": sum(won[seat] for seat in side),
            "result": self._result_words(won) if phase == "over" else None,
            "rules": {
                "trump": self._trump_suit(),
                "must_trump": False,
                "undertrump": self.ruleset.undertrump_allowed,
                "tricks": 15,
                "order": [seat.name for seat in seat_order(Seat.N, self.direction)],
            },
        }

    def _trump_suit(self) -> str | None:
        """The trump suit; None for no trump, and for a Ry."""
        return None if self.trump in (None, "nt") else self.trump

    def _bidding_view(self) -> list[list[dict[str, str]]]:
        """Each auction's calls, seat and words."""
        return [
            [
                {"seat": call.split(":")[0], "text": _call_label(call.split(":")[1])}
                for call in calls
            ]
            for calls in self.auctions
        ]

    def _hands_view(self) -> dict[str, list[dict[str, Any]]]:
        """Each seat's cards still held (the whole hand before play), by suit, high first."""
        return {
            seat.name: [
                _card(card)
                for card in sorted(
                    self.play.hand(seat) if self.play is not None else self.deal.hand(seat),
                    key=lambda card: (card.suit, -card.rank),
                )
            ]
            for seat in SEATS
        }

    def _tricks_view(
        self,
    ) -> tuple[list[dict[str, Any]], dict[str, Any] | None, dict[str, int]]:
        """The tricks played, the trick under way (None between tricks) and tricks per seat."""
        if self.play is None:
            return [], None, dict.fromkeys((seat.name for seat in SEATS), 0)
        play = self.play
        tricks = [
            {
                "number": trick.number,
                "leader": trick.leader.name,
                "cards": [
                    {"seat": seat.name, **_card(card)}
                    for seat, card in zip(trick.seats, trick.cards, strict=True)
                ],
                "winner": trick.winner.name,
            }
            for trick in play.tricks
        ]
        return tricks, _current_trick(play), tricks_field(play.tricks_per_seat)

    def _prompt(self, phase: str, to_act: Seat | None) -> str:
        if phase == "over":
            return words("Passed out") if self.passed_out else words("Play is over")
        if phase == "double":
            return words("Doubled or redoubled?")
        assert to_act is not None
        seat = SEAT_NAMES[to_act.name]
        prompts = {
            "auction": words("%(seat)s to call", seat=seat),
            "trump": words("%(seat)s names the trump", seat=seat),
            "play": words("%(seat)s to play", seat=seat),
        }
        return prompts[phase]

    def _result_words(self, won: Mapping[str, int]) -> str:
        if self.passed_out:
            return words("Passed out")
        side = self._side()
        taken = sum(won[seat] for seat in side)
        return words(
            "%(contract)s: %(taken)s tricks to the declarer's side",
            contract=self._contract_words(),
            taken=taken,
        )

    def _solvable(self) -> bool:
        """A contract being played whose declarer wants tricks (a Ry's bidder wants none:
        "tricks available" does not fit it)."""
        play = self.play
        if play is None or play.finished or self.declarer is None:
            return False
        return self.contract is None or self.contract[0] != "R"

    def solver_position(self) -> dict[str, Any] | None:
        play = self.play
        if play is None or not self._solvable():
            return None
        order = seat_order(play.leader, self.direction)
        side = set(self._side())
        trump = self._trump_suit()
        return {
            "hands": [_hand_bits(play.hand(seat)) for seat in order],
            "played": [(int(card.suit), card.rank - 1) for _seat, card in play.current_trick],
            "side": [index for index, seat in enumerate(order) if seat.name in side],
            "alone": False,
            "trump": None if trump is None else TRUMPS.index(trump),
            "must_trump": False,
            "undertrump": self.ruleset.undertrump_allowed,
            "taken": sum(play.tricks_per_seat[Seat[seat]] for seat in side),
        }
