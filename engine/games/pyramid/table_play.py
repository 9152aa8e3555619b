"""A Pyramid board played at a table, action by action, for a recorder (``TablePlay``).

The declarer (the player after the dealer in play direction) declares a number his sheet still
has room for (``declare:3``) and a trump (``trump:hearts``, ``trump:nt``), leads the first
trick, and the six tricks follow card by card (``card:SA``) under the rules of
``play.legal_mask`` and ``play.trick_winner``: follow suit, else trump when possible.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core.messages import Words, words
from engine.core.seats import SEAT_NAMES, turn_order
from engine.games.base import PlayRefused, TablePlay
from engine.games.pyramid.cards import (
    CARD_CODES,
    CARD_TEXT,
    RANK_OF,
    RANK_WORDS,
    SUIT_OF,
    SUITS,
    TRICKS,
    PyramidDeal,
    cards_of,
)
from engine.games.pyramid.play import legal_mask, trick_winner
from engine.games.pyramid.records import TRUMP_SUIT, declarer_of
from engine.games.pyramid.sheet import DECLARATIONS, legal_declarations

TRUMP_LABELS = {
    "spades": words("♠ Spades"),
    "hearts": words("♥ Hearts"),
    "diamonds": words("♦ Diamonds"),
    "clubs": words("♣ Clubs"),
    "nt": words("No trumps"),
}


def _card(card: int) -> dict[str, Any]:
    return {
        "code": CARD_TEXT[card],
        "label": f"{'♠♥♦♣'[SUIT_OF[card]]}{RANK_WORDS[RANK_OF[card]]}",
        "suit": SUITS[SUIT_OF[card]],
        "strength": 5 - RANK_OF[card],
    }


def _prompt(phase: str, seat: str) -> Words:
    """What the table waits for in a phase of play, and from whom."""
    if phase == "over":
        return words("Play is over")
    if phase == "declare":
        return words("%(seat)s declares", seat=seat)
    if phase == "trump":
        return words("%(seat)s names the trump", seat=seat)
    return words("%(seat)s to play", seat=seat)


#: The kind of action each phase of the board takes.
ACTION_OF_PHASE = {"declare": "declare", "trump": "trump", "play": "card"}


class PyramidTablePlay(TablePlay):
    """The declaration and the trump, then six tricks led by the declarer."""

    def __init__(
        self, deal: PyramidDeal, *, direction: str, calls: Iterable[int] | None = None
    ) -> None:
        self.deal = deal
        self.direction = direction
        self.declarer = declarer_of(deal.dealer, deal.players, direction)
        self.allowed = list(DECLARATIONS) if calls is None else legal_declarations(calls)
        self.declared: int | None = None
        self.trump: str | None = None
        self.hands = dict(zip(deal.seats, deal.hands, strict=True))
        self.leader = self.declarer
        self.trick: list[int] = []
        self.tricks: list[dict[str, Any]] = []
        self.won = dict.fromkeys(deal.seats, 0)

    @property
    def _trump_suit(self) -> int | None:
        return TRUMP_SUIT[self.trump] if self.trump is not None else None

    @property
    def phase(self) -> str:
        if self.declared is None:
            return "declare"
        if self.trump is None:
            return "trump"
        return "over" if len(self.tricks) == TRICKS else "play"

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def _order(self) -> tuple[str, ...]:
        return turn_order(self.leader, self.deal.players, self.direction)

    def _to_play(self) -> str | None:
        if self.phase != "play":
            return None
        return self._order()[len(self.trick)]

    def _legal(self) -> int:
        seat = self._to_play()
        if seat is None:
            return 0
        led = SUIT_OF[self.trick[0]] if self.trick else None
        return legal_mask(self.hands[seat], led, self._trump_suit)

    def options(self) -> list[dict[str, str]]:
        phase = self.phase
        if phase == "declare":
            return [
                {"action": f"declare:{value}", "label": str(value), "group": "declare"}
                for value in self.allowed
            ]
        if phase == "trump":
            return [
                {"action": f"trump:{name}", "label": label, "group": "trump"}
                for name, label in TRUMP_LABELS.items()
            ]
        return [
            {"action": f"card:{CARD_TEXT[card]}", "label": _card(card)["label"], "group": "card"}
            for card in cards_of(self._legal())
        ]

    def apply(self, action: str) -> None:
        kind, _, value = action.partition(":")
        phase = self.phase
        if phase == "over":
            raise PlayRefused("the board is over")
        wanted = ACTION_OF_PHASE[phase]
        if kind != wanted:
            raise PlayRefused(f"now is the time for a {wanted}, not {action!r}")
        act = {"declare": self._declare, "trump": self._name_trump, "card": self._play}[kind]
        act(value)

    def _declare(self, value: str) -> None:
        if not value.isdigit() or int(value) not in self.allowed:
            allowed = ", ".join(map(str, self.allowed)) or "none"
            raise PlayRefused(f"{value!r} is not a number the sheet has room for ({allowed})")
        self.declared = int(value)

    def _name_trump(self, value: str) -> None:
        if value not in TRUMP_SUIT:
            raise PlayRefused(f"{value!r} is not a trump (spades, hearts, diamonds, clubs, nt)")
        self.trump = value

    def _play(self, value: str) -> None:
        card = CARD_CODES.get(value.upper())
        seat = self._to_play()
        assert seat is not None
        if card is None:
            raise PlayRefused(f"{value!r} is not a card")
        if not self.hands[seat] >> card & 1:
            raise PlayRefused(f"{SEAT_NAMES[seat]} does not hold {CARD_TEXT[card]}")
        if not self._legal() >> card & 1:
            raise PlayRefused(
                f"{SEAT_NAMES[seat]} may not play {CARD_TEXT[card]}: follow suit, else trump"
            )
        self.hands[seat] &= ~(1 << card)
        self.trick.append(card)
        if len(self.trick) == self.deal.players:
            self._end_trick()

    def _end_trick(self) -> None:
        """The trick to its winner, who leads the next."""
        order = self._order()
        winner = order[trick_winner(self.trick, self._trump_suit)]
        self.tricks.append(
            {
                "number": len(self.tricks) + 1,
                "leader": self.leader,
                "cards": [
                    {"seat": who, **_card(played)}
                    for who, played in zip(order, self.trick, strict=True)
                ],
                "winner": winner,
            }
        )
        self.won[winner] += 1
        self.leader = winner
        self.trick = []

    def facts(self) -> dict[str, Any] | None:
        if not self.over:
            return None
        return {"declared": self.declared, "trump": self.trump, "won": self.won[self.declarer]}

    def view(self) -> dict[str, Any]:
        phase = self.phase
        to_act = self._to_act()
        prompt = _prompt(phase, SEAT_NAMES.get(to_act or "", ""))
        contract = self._contract_words()
        mine = self.won[self.declarer]
        return {
            "phase": phase,
            "to_act": to_act,
            "prompt": prompt,
            "seats": list(turn_order(self.declarer, self.deal.players, self.direction)),
            "seat_names": SEAT_NAMES,
            "hands": {
                seat: [_card(card) for card in cards_of(hand)] for seat, hand in self.hands.items()
            },
            "bidding": [self._bidding()],
            "contract": contract,
            "declarer": self.declarer,
            "declarer_side": [self.declarer],
            "tricks": [dict(trick) for trick in self.tricks],
            "current": self._current_trick(),
            "won": dict(self.won),
            "side_won": mine,
            "result": (
                words("%(contract)s: %(won)s tricks won", contract=contract, won=mine)
                if phase == "over"
                else None
            ),
            "rules": {
                "trump": self.trump if self.trump not in (None, "nt") else None,
                "must_trump": True,
                "undertrump": True,
                "tricks": TRICKS,
                "order": list(turn_order(self.deal.seats[0], self.deal.players, self.direction)),
            },
        }

    def _contract_words(self) -> Words | None:
        """The declaration and its trump, once both are made."""
        if self.declared is None or self.trump is None:
            return None
        return words(
            "%(seat)s declares %(declared)s, %(trump)s",
            seat=SEAT_NAMES[self.declarer],
            declared=self.declared,
            trump=TRUMP_LABELS[self.trump],
        )

    def _to_act(self) -> str | None:
        """The declarer while he declares and names the trump, then whoever plays next."""
        if self.phase in ("declare", "trump"):
            return self.declarer
        return self._to_play() if self.phase == "play" else None

    def _current_trick(self) -> dict[str, Any] | None:
        if not self.trick:
            return None
        return {
            "number": len(self.tricks) + 1,
            "leader": self.leader,
            "cards": [
                {"seat": who, **_card(played)}
                for who, played in zip(self._order(), self.trick, strict=False)
            ],
        }

    def _bidding(self) -> list[dict[str, Any]]:
        """The declarer's declaration and trump, as far as he has made them."""
        bidding = []
        if self.declared is not None:
            bidding.append(
                {
                    "seat": self.declarer,
                    "text": words("declares %(declared)s", declared=self.declared),
                }
            )
        if self.trump is not None:
            bidding.append({"seat": self.declarer, "text": TRUMP_LABELS[self.trump]})
        return bidding

    def solver_position(self) -> dict[str, Any] | None:
        if self.phase != "play":
            return None
        order = self._order()
        return {
            "hands": [
                sum(
                    1 << (16 * SUIT_OF[card] + 5 - RANK_OF[card])
                    for card in cards_of(self.hands[seat])
                )
                for seat in order
            ],
            "played": [(SUIT_OF[card], 5 - RANK_OF[card]) for card in self.trick],
            "side": [order.index(self.declarer)],
            "alone": True,
            "trump": self._trump_suit,
            "must_trump": True,
            "undertrump": True,
            "taken": self.won[self.declarer],
        }
