"""Duo, a small game of pairs for the tests.

Twenty cards, numbered 1 to 20, are dealt five to each of North, East, South and West; North and
South play against East and West. North-South undertake a number of tricks from 1 to 5 and
score 10 a trick undertaken when they take at least that many, else lose 10 a trick short.
Whoever holds the 20 wins 5 more for his side: a fact of the deal that North enters after play,
so that the server has something to check against the deal on file.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core.errors import DealError, RecordError
from engine.games.base import PAIRS, Game

SEATS = ("N", "E", "S", "W")
SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
CARDS = tuple(range(1, 21))
HIGH_CARD = 20
SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}


@dataclass(frozen=True)
class DuoDeal:
    hands: tuple[tuple[int, ...], ...]  # N, E, S, W, each in ascending order

    def holder(self, card: int) -> str:
        return next(seat for seat, hand in zip(SEATS, self.hands, strict=True) if card in hand)


def _whole(value: Any, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RecordError(name, f"{value!r} is not a whole number from {low} to {high}")
    return value


class DuoGame(Game):
    id = "duo"
    title = "Duo"
    deal_help = "N: then four hands of five numbers from 1 to 20, North first: N:1,2,3,4,5 6,7 ..."
    table_sizes = (4,)
    entrants = PAIRS
    entry_fields = frozenset({"contract", "tricks", "high"})

    # -- cards --

    def dealer(self, board: int, players: int) -> str:
        return "N"

    def parse_deal(self, text: Any) -> DuoDeal:
        if not isinstance(text, str) or not text.startswith("N:"):
            raise DealError("a deal is text: N: then four hands separated by spaces")
        parts = text[2:].split()
        if len(parts) != 4:
            raise DealError(f"a deal has 4 hands; this one has {len(parts)}")
        hands = []
        for seat, part in zip(SEATS, parts, strict=True):
            try:
                hand = tuple(sorted(int(card) for card in part.split(",")))
            except ValueError:
                raise DealError(f"{SEAT_WORDS[seat]}: {part!r} is not a list of numbers") from None
            if len(hand) != 5:
                raise DealError(f"{SEAT_WORDS[seat]} holds {len(hand)} cards, not 5")
            hands.append(hand)
        if sorted(card for hand in hands for card in hand) != list(CARDS):
            raise DealError("the hands do not hold the numbers 1 to 20 once each")
        return DuoDeal(tuple(hands))

    def format_deal(self, deal: DuoDeal) -> str:
        return "N:" + " ".join(",".join(map(str, hand)) for hand in deal.hands)

    def hands_in_words(self, deal: DuoDeal) -> list[tuple[str, str]]:
        return [
            (SEAT_WORDS[seat], ", ".join(map(str, hand)))
            for seat, hand in zip(SEATS, deal.hands, strict=True)
        ]

    def deal_cards(self, rng: random.Random, *, players: int, dealer: str) -> DuoDeal:
        cards = list(CARDS)
        rng.shuffle(cards)
        return DuoDeal(tuple(tuple(sorted(cards[i * 5 : i * 5 + 5])) for i in range(4)))

    # -- records and scores --

    def score(self, record: Any, settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
        if not isinstance(record, Mapping):
            raise RecordError("record", "a board record is a JSON object")
        if record.get("game", self.id) != self.id:
            raise RecordError("game", f"{record.get('game')!r} is not {self.id!r}")
        contract = _whole(record.get("contract"), "contract", 1, 5)
        tricks = _whole(record.get("tricks"), "tricks", 0, 5)
        high = record.get("high")
        if high not in SEATS:
            raise RecordError("high", f"{high!r} is not one of N, E, S, W")
        if record.get("deal") not in (None, ""):
            try:
                deal = self.parse_deal(record["deal"])
            except DealError as exc:
                raise RecordError("deal", str(exc)) from None
            if deal.holder(HIGH_CARD) != high:
                raise RecordError("high", f"the deal gives the 20 to {deal.holder(HIGH_CARD)}")
        made = tricks >= contract
        ns = 10 * contract if made else -10 * (contract - tricks)
        ns += 5 if SIDE[high] == "NS" else -5
        seats = {seat: ns if SIDE[seat] == "NS" else -ns for seat in SEATS}
        return {
            "game": self.id,
            "contract": contract,
            "tricks": tricks,
            "made": made,
            "high": high,
            "ns": ns,
            "ew": -ns,
            "seats": seats,
        }

    def describe(self, score: Mapping[str, Any]) -> str:
        outcome = "made" if score["made"] else "down"
        return (
            f"North-South undertook {score['contract']}, took {score['tricks']}: {outcome}; "
            f"{SEAT_WORDS[score['high']]} held the 20"
        )

    # -- entry --

    def entry_record(
        self,
        facts: Mapping[str, Any],
        *,
        settings: Mapping[str, Any],
        table: int,
        players: int,
        dealer: str,
        deal: str,
    ) -> dict[str, Any]:
        record = {"game": self.id, **{k: facts[k] for k in self.entry_fields if k in facts}}
        if deal:
            record["deal"] = deal
        return record

    def entry_options(self, **context: Any) -> dict[str, Any]:
        return {
            "contract": list(range(1, 6)),
            "tricks": list(range(6)),
            "high": list(SEATS),
        }

    def entry_form(self, **context: Any) -> dict[str, Any] | None:
        return {
            "fields": [
                {"name": "contract", "label": "Tricks undertaken", "choices": _numbers(1, 5)},
                {
                    "name": "tricks",
                    "label": "Tricks taken by North-South",
                    "choices": _numbers(0, 5),
                },
                {
                    "name": "high",
                    "label": "Who held the 20",
                    "choices": [[seat, SEAT_WORDS[seat]] for seat in SEATS],
                },
            ],
            "note": "",
        }

    def simulate_record(
        self, deal: DuoDeal, rng: random.Random, settings: Mapping[str, Any], **context: Any
    ) -> dict[str, Any]:
        return {
            "game": self.id,
            "contract": rng.randint(1, 5),
            "tricks": rng.randint(0, 5),
            "high": deal.holder(HIGH_CARD),
            "deal": self.format_deal(deal),
        }


def _numbers(low: int, high: int) -> list[list[Any]]:
    return [[n, str(n)] for n in range(low, high + 1)]


GAME = DuoGame()
