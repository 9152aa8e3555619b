"""Twenty's 40-card pack, its card points and its deal notation (docs/games/twenty.md).

A card is an ``int`` 0..39. Cards 0..19 are the trumps, highest first: 0 the Fool (``F``),
1 ``T21``, 2 ``T20`` ... 18 ``T4``, 19 ``T1`` (the Magician). Cards 20..39 are the plain suits,
``20 + 5 * suit + rank``, suits spades, hearts, diamonds, clubs and ranks K Q C J T (0..4). In
each group a lower number is a higher card, so a trick's winner is a ``min``. A set of cards
is a bit mask, which makes following suit one ``&``.

A deal is ``D:HAND HAND HAND HAND``: the dealer's letter, then the hands clockwise from the
dealer's, each ``trumps.spades.hearts.diamonds.clubs``; the trump group is comma-separated
(``F,21,20,1``), a suit group is rank letters (``KQT``).
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from engine.core.errors import DealError, in_deal
from engine.core.messages import Words, joined, words
from engine.core.notation import dealer_and_groups
from engine.core.seats import SEAT_LETTERS, SEAT_NAMES

PACK_SIZE = 40
CARDS_PER_HAND = 10
TRICKS = 10
FULL_PACK = (1 << PACK_SIZE) - 1

FOOL, WORLD, MAGICIAN = 0, 1, 19
#: ``F``, 21, 20 ... 4, 1: the trump group's tokens by card number.
TRUMP_TOKENS = ("F", *(str(n) for n in range(21, 3, -1)), "1")
SUITS = ("spades", "hearts", "diamonds", "clubs")
SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
RANK_CHARS = "KQCJT"
RANK_WORDS = ("K", "Q", "C", "J", "10")
#: The ranks as a hand in words shows them, in the reader's language.
RANK_NAMES = (words("K"), words("Q"), "C", words("J"), "10")
#: The Fool as a hand in words shows it, in the reader's language: "Exc." in French, where
#: "E" would read as East (the notation keeps F).
FOOL_MARK = words("F")

TRUMP_MASK = (1 << 20) - 1
#: For following: group 0 is the trumps, 1..4 the suits spades..clubs.
GROUP_MASK = (TRUMP_MASK, *(0b11111 << (20 + 5 * suit) for suit in range(4)))
GROUP_OF = tuple(0 if card < 20 else 1 + (card - 20) // 5 for card in range(PACK_SIZE))
HONOURS = (1 << FOOL) | (1 << WORLD) | (1 << MAGICIAN)
KINGS = sum(1 << (20 + 5 * suit) for suit in range(4))

CARD_TEXT = tuple(
    ("F" if card == FOOL else "T" + TRUMP_TOKENS[card])
    if card < 20
    else SUIT_LETTERS[(card - 20) // 5] + RANK_CHARS[(card - 20) % 5]
    for card in range(PACK_SIZE)
)
_RANK_POINTS = (5, 4, 3, 2, 1)
CARD_POINTS = tuple(
    (5 if card in (FOOL, WORLD, MAGICIAN) else 1) if card < 20 else _RANK_POINTS[(card - 20) % 5]
    for card in range(PACK_SIZE)
)
CARD_POINTS_TOTAL = sum(CARD_POINTS)  # 92
POINTS_TOTAL = CARD_POINTS_TOTAL + TRICKS  # 102


def _bounds() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Section 3.5's table: with t tricks a side holds 4t cards, so its points lie between
    t + its 4t lowest cards and t + its 4t highest."""
    values = sorted(CARD_POINTS)
    low = tuple(t + sum(values[: 4 * t]) for t in range(TRICKS + 1))
    high = tuple(t + sum(values[PACK_SIZE - 4 * t :]) for t in range(TRICKS + 1))
    return low, high


FEWEST_POINTS, MOST_POINTS = _bounds()

#: Every way a card may be written (any case) to its number: ``F``, ``t21``, ``Sk``, ``cc``...
CARD_CODES: dict[str, int] = {}
for _card, _text in enumerate(CARD_TEXT):
    for _variant in {
        _text,
        _text.lower(),
        _text[0].lower() + _text[1:],
        _text[0] + _text[1:].lower(),
    }:
        CARD_CODES[_variant] = _card
#: The trump group's tokens (``F``, ``f``, ``1``, ``4`` ... ``21``) to card numbers.
_TRUMP_CODES = {token: card for card, token in enumerate(TRUMP_TOKENS)}
_TRUMP_CODES["f"] = FOOL
_RANK_INDEX = {char: rank for rank, char in enumerate(RANK_CHARS)}
_RANK_INDEX.update({char.lower(): rank for rank, char in enumerate(RANK_CHARS)})


def parse_card(text: object) -> int | None:
    """The card of ``F``, ``T21``, ``t1``, ``SK``, ``hc``...; None when ``text`` is not one."""
    if type(text) is not str:
        return None
    return CARD_CODES.get(text)


def card_text(text: object) -> str:
    """The canonical text of a card written any accepted way; ``DealError`` when it is none."""
    card = parse_card(text)
    if card is None:
        raise DealError(words("%(text)s is not a card", text=repr(text)))
    return CARD_TEXT[card]


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, highest first: trumps, then spades, hearts, diamonds, clubs."""
    return [card for card in range(PACK_SIZE) if mask >> card & 1]


def mask_of(cards) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def points_of(mask: int) -> int:
    """The card points of a set of cards."""
    return sum(CARD_POINTS[card] for card in range(PACK_SIZE) if mask >> card & 1)


def hand_text(mask: int) -> str:
    """One hand in the notation: ``F,21,1.KT.K.Q.C``."""
    trumps = ",".join(TRUMP_TOKENS[card] for card in range(20) if mask >> card & 1)
    suits = [
        "".join(RANK_CHARS[rank] for rank in range(5) if mask >> (20 + 5 * suit + rank) & 1)
        for suit in range(4)
    ]
    return ".".join((trumps, *suits))


def hand_words(mask: int) -> str:
    """A hand for people: ``Trumps F 21 1  ♠ K 10  ♥ K  ♦ Q  ♣ —``."""
    trumps = [
        FOOL_MARK if card == FOOL else TRUMP_TOKENS[card] for card in range(20) if mask >> card & 1
    ]
    suits = [_suit_words(mask, suit) for suit in range(4)]
    # "Trumps", the Fool and the King, Queen and Jack in the reader's language (Exc., R, D, V in
    # French).
    return Words(
        "%(trumps)s  %(suits)s",
        {"trumps": words("Trumps %(cards)s", cards=_spaced(trumps)), "suits": joined(suits, "  ")},
    )


def _suit_words(mask: int, suit: int) -> Words:
    """``♠ K 10``: a suit's symbol and the ranks the hand holds of it."""
    ranks = [RANK_NAMES[rank] for rank in range(5) if mask >> (20 + 5 * suit + rank) & 1]
    return Words("%(suit)s %(ranks)s", {"suit": SUIT_SYMBOLS[suit], "ranks": _spaced(ranks)})


def _spaced(names: list[Any]) -> str:
    """Names separated by spaces; a dash when there is none."""
    return joined(names, " ") if names else "—"


def clockwise_from(seat: str) -> tuple[str, ...]:
    start = SEAT_LETTERS.index(seat)
    return tuple(SEAT_LETTERS[(start + k) % 4] for k in range(4))


NEXT_SEAT = {seat: clockwise_from(seat)[1] for seat in SEAT_LETTERS}
CLOCKWISE_FROM = {seat: clockwise_from(seat) for seat in SEAT_LETTERS}


@dataclass(frozen=True, slots=True)
class TwentyDeal:
    """One board's cards: the dealer and the four hands as bit masks in seat order N E S W."""

    dealer: str
    hands: tuple[int, ...]  # N, E, S, W

    players = 4

    @property
    def seats(self) -> tuple[str, ...]:
        return SEAT_LETTERS

    @property
    def eldest(self) -> str:
        return NEXT_SEAT[self.dealer]

    def hand(self, seat: str) -> int:
        return self.hands[SEAT_LETTERS.index(seat)]

    def holder(self, card: int) -> str:
        bit = 1 << card
        for seat, hand in zip(SEAT_LETTERS, self.hands, strict=True):
            if hand & bit:
                return seat
        raise ValueError(f"no hand holds {CARD_TEXT[card]}")  # a parsed deal holds every card

    def set_holder(self, cards: int) -> str | None:
        """The seat dealt every card of ``cards`` (all four Kings, all three Honours)."""
        for seat, hand in zip(SEAT_LETTERS, self.hands, strict=True):
            if hand & cards == cards:
                return seat
        return None


def called_card(eldest_hand: int) -> int:
    """The card a Partnership calls: the highest trump below The World Eldest does not hold
    (T20 down to T4; with 10 cards he cannot hold all 17 of them)."""
    for card in range(2, 19):
        if not eldest_hand >> card & 1:
            return card
    raise ValueError("Eldest holds every trump from T20 to T4")  # impossible with 10 cards


def format_deal(deal: TwentyDeal) -> str:
    """The canonical notation: upper case, highest first, single spaces."""
    hands = " ".join(hand_text(deal.hand(seat)) for seat in CLOCKWISE_FROM[deal.dealer])
    return f"{deal.dealer}:{hands}"


def _no_card(seat: str, written: str) -> DealError:
    return DealError(
        in_deal(words("hand %(seat)s: no such card %(card)s", seat=seat, card=written))
    )


def _read_hand(text: str, seat: str, owners: dict[int, str]) -> int:
    """One hand's mask; ``owners`` (card to the seat that holds it) is filled as it goes, so a
    card written twice is named with both hands."""
    groups = text.split(".")
    if len(groups) != 5:
        raise DealError(
            in_deal(
                words(
                    "hand %(seat)s has 1 group, 5 needed (trumps.spades.hearts.diamonds.clubs)",
                    seat=seat,
                )
                if len(groups) == 1
                else words(
                    "hand %(seat)s has %(count)s groups, 5 needed "
                    "(trumps.spades.hearts.diamonds.clubs)",
                    seat=seat,
                    count=len(groups),
                )
            )
        )
    cards = _trumps_of(groups[0], seat) + _suit_cards_of(groups[1:], seat)
    mask = 0
    for card in cards:
        other = owners.get(card)
        if other is not None:
            where = (
                words("hand %(seat)s", seat=seat)
                if other == seat
                else words("hands %(one)s and %(other)s", one=other, other=seat)
            )
            raise DealError(
                in_deal(words("card %(card)s twice (%(where)s)", card=CARD_TEXT[card], where=where))
            )
        owners[card] = seat
        mask |= 1 << card
    return mask


def _trumps_of(group: str, seat: str) -> list[int]:
    """The trumps of a hand's first group (``F,21,4,1``; empty: none)."""
    cards: list[int] = []
    if group:
        for token in group.split(","):
            card = _TRUMP_CODES.get(token)
            if card is None:
                raise _no_card(seat, token or words("(empty)"))
            cards.append(card)
    return cards


def _suit_cards_of(groups: list[str], seat: str) -> list[int]:
    """The cards of a hand's four suit groups, spades to clubs, each as rank letters."""
    cards: list[int] = []
    for suit in range(4):
        base = 20 + 5 * suit
        for char in groups[suit]:
            rank = _RANK_INDEX.get(char)
            if rank is None:
                raise _no_card(seat, SUIT_LETTERS[suit] + char)
            cards.append(base + rank)
    return cards


@functools.lru_cache(maxsize=4096)
def _parse_text(text: str) -> TwentyDeal:
    dealer, tokens = dealer_and_groups(text)
    if len(tokens) != 4:
        raise DealError(
            in_deal(words("%(count)s hands, 4 needed (separated by spaces)", count=len(tokens)))
        )
    owners: dict[int, str] = {}
    order = CLOCKWISE_FROM[dealer]
    masks = {
        seat: _read_hand(token, seat, owners) for seat, token in zip(order, tokens, strict=True)
    }
    for seat in order:
        held = masks[seat].bit_count()
        if held != CARDS_PER_HAND:
            raise DealError(
                in_deal(
                    words(
                        "hand %(seat)s has %(held)s cards, not %(needed)s",
                        seat=seat,
                        held=held,
                        needed=CARDS_PER_HAND,
                    )
                )
            )
    return TwentyDeal(dealer, tuple(masks[seat] for seat in SEAT_LETTERS))


def parse_deal(text: object) -> TwentyDeal:
    """A deal in the notation; ``DealError`` (``deal: ...``) names the hand and the card."""
    if type(text) is not str:
        raise DealError(
            in_deal(
                words("%(text)s is not a deal in notation (D:HAND HAND HAND HAND)", text=repr(text))
            )
        )
    return _parse_text(text)


def deal_cards(rng: random.Random, *, dealer: str) -> TwentyDeal:
    """A uniformly shuffled deal: ten cards to each seat."""
    if dealer not in SEAT_LETTERS:
        raise ValueError(f"the dealer {dealer!r} is not a seat (N, E, S or W)")
    pack = list(range(PACK_SIZE))
    rng.shuffle(pack)
    hands = tuple(mask_of(pack[10 * i : 10 * i + 10]) for i in range(4))
    return TwentyDeal(dealer, hands)


def hands_in_words(deal: TwentyDeal) -> list[tuple[str, str]]:
    """``(whose, cards)`` for each seat in seat order; the dealer and Eldest are marked."""
    rows: list[tuple[str, str]] = []
    for seat in SEAT_LETTERS:
        whose: str = SEAT_NAMES[seat]
        if seat == deal.dealer:
            whose = words("%(seat)s (dealer)", seat=whose)
        elif seat == deal.eldest:
            whose = words("%(seat)s (Eldest)", seat=whose)
        rows.append((whose, hand_words(deal.hand(seat))))
    return rows
