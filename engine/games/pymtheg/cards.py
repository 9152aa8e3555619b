"""Suits, ranks, seats and deals: the deal notation of the interchange formats.

A deal is written ``N:hand hand hand hand``: the first seat's letter, then the four hands in
clockwise order from that seat. A hand is four suit groups ``Fire.Earth.Water.Wind``, each
listing its ranks highest first as ``1``-``9``, ``A``=10 ... ``F``=15.
"""

from __future__ import annotations

import functools
import random
import secrets
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import NamedTuple

from engine.core.errors import DealError
from engine.core.messages import Words, joined, words
from engine.core.seats import SEAT_NAMES

RANKS = range(1, 16)
RANK_CHARS = "123456789ABCDEF"
CARDS_PER_HAND = 15


class Suit(IntEnum):
    FIRE = 0
    EARTH = 1
    WATER = 2
    WIND = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @property
    def title(self) -> str:
        return self.name.capitalize()


class Seat(IntEnum):
    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def team(self) -> str:
        return "NS" if self in (Seat.N, Seat.S) else "EW"

    @property
    def partner(self) -> Seat:
        return Seat((self + 2) % 4)

    @property
    def full_name(self) -> str:
        return {"N": "North", "E": "East", "S": "South", "W": "West"}[self.name]

    @classmethod
    def parse(cls, text: str) -> Seat:
        try:
            return cls[text.strip().upper()]
        except (KeyError, AttributeError):
            raise ValueError(f"unknown seat {text!r} (expected N, E, S or W)") from None


SEATS = tuple(Seat)
TEAMS = ("NS", "EW")
DIRECTIONS = ("clockwise", "counterclockwise")


@functools.cache
def seat_order(first: Seat, direction: str = "clockwise") -> tuple[Seat, Seat, Seat, Seat]:
    """The four seats in turn order, starting with ``first``."""
    if direction not in DIRECTIONS:
        raise ValueError(
            f"unknown direction {direction!r} (expected clockwise or counterclockwise)"
        )
    step = 1 if direction == "clockwise" else -1
    return tuple(Seat((first + step * i) % 4) for i in range(4))  # type: ignore[return-value]


# Wind's initial clashes with Water's, so a card code uses I for Wind.
_SUIT_CODE = {Suit.FIRE: "F", Suit.EARTH: "E", Suit.WATER: "W", Suit.WIND: "I"}


class Card(NamedTuple):
    suit: Suit
    rank: int

    def __str__(self) -> str:
        return f"{self.suit.title} {self.rank}"

    @property
    def code(self) -> str:
        """Short form used in play records: ``F``, ``E``, ``W`` or ``I`` (Wind) and the rank."""
        return _SUIT_CODE[self.suit] + RANK_CHARS[self.rank - 1]

    @classmethod
    def parse(cls, text: str) -> Card:
        text = text.strip().upper()
        suits = {code: suit for suit, code in _SUIT_CODE.items()}
        if len(text) != 2 or text[0] not in "FEWI" or text[1] not in RANK_CHARS:
            raise ValueError(
                f"bad card {text!r}: expected a suit letter (F fire, E earth, W water, I wind) "
                "and a rank 1-9, A-F"
            )
        return cls(suits[text[0]], RANK_CHARS.index(text[1]) + 1)


FULL_DECK: tuple[Card, ...] = tuple(Card(suit, rank) for suit in Suit for rank in RANKS)


@dataclass(frozen=True)
class Deal:
    """Fifteen cards for each seat. ``hands`` is indexed by ``Seat``."""

    hands: tuple[frozenset[Card], frozenset[Card], frozenset[Card], frozenset[Card]]

    def __post_init__(self) -> None:
        _check_complete(self.hands)

    def hand(self, seat: Seat) -> frozenset[Card]:
        return self.hands[seat]

    def holder(self, card: Card) -> Seat:
        for seat in SEATS:
            if card in self.hands[seat]:
                return seat
        raise KeyError(card)

    @classmethod
    def from_mapping(cls, hands: Mapping[Seat, Iterable[Card]]) -> Deal:
        return cls(tuple(frozenset(hands[seat]) for seat in SEATS))  # type: ignore[arg-type]

    def __str__(self) -> str:
        return format_deal(self)


def _card_words(card: Card) -> Words:
    """``Fire 7`` in the reader's language (the engine's words)."""
    return words("%(suit)s %(rank)s", suit=words(card.suit.title), rank=card.rank)


def _hand_words(seat: Seat) -> Words:
    """``North hand`` in the reader's language."""
    return words("%(seat)s hand", seat=SEAT_NAMES[seat.name])


def _check_complete(hands: tuple[frozenset[Card], ...]) -> None:
    """Duplicates first, then missing cards, then hand sizes: the first two name the card."""
    _check_missing_and_sizes(hands, _holders(hands))


def _holders(hands: tuple[frozenset[Card], ...]) -> dict[Card, Seat]:
    """Who holds each card; ``DealError`` at the first card in two hands."""
    seen: dict[Card, Seat] = {}
    for seat in SEATS:
        for card in sorted(hands[seat]):
            if card in seen:
                raise DealError(
                    words(
                        "%(card)s is in both the %(one)s and %(other)s hands",
                        card=_card_words(card),
                        one=SEAT_NAMES[seen[card].name],
                        other=SEAT_NAMES[seat.name],
                    )
                )
            seen[card] = seat
    return seen


def _check_missing_and_sizes(hands: tuple[frozenset[Card], ...], seen: dict[Card, Seat]) -> None:
    """Every card in a hand, and fifteen cards a hand: a missing card is named, with the
    hands of the wrong size."""
    wrong = [seat for seat in SEATS if len(hands[seat]) != CARDS_PER_HAND]
    short = joined(
        [
            words("%(hand)s holds %(count)s", hand=_hand_words(seat), count=len(hands[seat]))
            for seat in wrong
        ],
        ", ",
    )
    missing = [card for card in FULL_DECK if card not in seen]
    if missing:
        first = _card_words(missing[0])
        raise DealError(
            words("%(card)s is in no hand (%(short)s cards)", card=first, short=short)
            if wrong
            else words("%(card)s is in no hand", card=first)
        )
    if wrong:
        raise DealError(
            words("%(short)s cards, not %(needed)s", short=short, needed=CARDS_PER_HAND)
        )


def format_hand(cards: Iterable[Card]) -> str:
    by_suit: dict[Suit, list[int]] = {suit: [] for suit in Suit}
    for card in cards:
        by_suit[card.suit].append(card.rank)
    return ".".join(
        "".join(RANK_CHARS[rank - 1] for rank in sorted(by_suit[suit], reverse=True))
        for suit in Suit
    )


def format_deal(deal: Deal, first: Seat = Seat.N) -> str:
    hands = " ".join(format_hand(deal.hand(seat)) for seat in seat_order(first))
    return f"{first.name}:{hands}"


def parse_hand(text: str, seat: Seat) -> list[Card]:
    groups = text.split(".")
    if len(groups) != 4:
        raise DealError(
            words(
                "%(hand)s %(text)s has %(count)s suit groups, not 4 (Fire.Earth.Water.Wind)",
                hand=_hand_words(seat),
                text=repr(text),
                count=len(groups),
            )
        )
    cards: list[Card] = []
    for suit, group in zip(Suit, groups, strict=True):
        seen: set[int] = set()
        for char in group.upper():
            if char not in RANK_CHARS:
                raise DealError(
                    words(
                        "%(hand)s, %(suit)s: %(char)s is not a card (ranks are 1-9 and A-F)",
                        hand=_hand_words(seat),
                        suit=words(suit.title),
                        char=repr(char),
                    )
                )
            rank = RANK_CHARS.index(char) + 1
            if rank in seen:
                raise DealError(
                    words(
                        "%(hand)s, %(suit)s: %(card)s is written twice",
                        hand=_hand_words(seat),
                        suit=words(suit.title),
                        card=_card_words(Card(suit, rank)),
                    )
                )
            seen.add(rank)
            cards.append(Card(suit, rank))
    return cards


def parse_deal(text: str) -> Deal:
    """Read deal notation. Errors name the hand, the suit and the card."""
    if not isinstance(text, str):
        raise DealError(words("a deal must be a string in deal notation"))
    head, colon, body = text.strip().partition(":")
    if not colon:
        raise DealError(words("a deal starts with the first seat's letter and a colon, e.g. 'N:'"))
    try:
        first = Seat.parse(head)
    except ValueError:
        raise DealError(
            words("unknown seat %(text)s (expected N, E, S or W)", text=repr(head))
        ) from None
    parts = body.split()
    if len(parts) != 4:
        raise DealError(
            words(
                "a deal has 4 hands separated by spaces, this one has %(count)s", count=len(parts)
            )
        )
    hands = {
        seat: parse_hand(part, seat) for seat, part in zip(seat_order(first), parts, strict=True)
    }
    return Deal.from_mapping(hands)


def deal_cards(rng: random.Random) -> Deal:
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    return Deal.from_mapping({seat: deck[seat * 15 : seat * 15 + 15] for seat in SEATS})


def random_deal() -> Deal:
    """A deal from the system's secure random source."""
    return deal_cards(secrets.SystemRandom())


def seeded_deal(seed: str | int, table: int = 1, board: int = 1) -> Deal:
    """The same seed, table and board always give the same deal, on every machine."""
    return deal_cards(random.Random(f"pymtheg:{seed}:{table}:{board}"))


def generate_deals(
    tables: int, boards: int = 1, seed: str | int | None = None
) -> Iterator[tuple[int, int, Deal]]:
    """``(table, board, deal)`` for every table and board, seeded or from secure random."""
    if tables < 1 or boards < 1:
        raise ValueError("tables and boards must be at least 1")
    for table in range(1, tables + 1):
        for board in range(1, boards + 1):
            deal = random_deal() if seed is None else seeded_deal(seed, table, board)
            yield table, board, deal
