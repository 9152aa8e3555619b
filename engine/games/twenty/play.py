"""The play of a Twenty board (docs/games/twenty.md, "Play"): legal cards, trick winners,
checking a played board card by card, and a simple legal player for simulations.

Cards are numbers and hands bit masks (``engine.games.twenty.cards``). ``no_trumps`` is True in
a No Trumps game, where trumps cannot win a trick led in a plain suit.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.core.errors import RecordError
from engine.core.seats import SEAT_LETTERS
from engine.core.tricks import read_tricks
from engine.games.twenty.cards import (
    CARD_CODES,
    CARD_POINTS,
    CARD_TEXT,
    FOOL,
    GROUP_MASK,
    GROUP_OF,
    MAGICIAN,
    NEXT_SEAT,
    SUITS,
    TRICKS,
    TRUMP_MASK,
    WORLD,
    TwentyDeal,
    cards_of,
)

GROUP_NAMES = ("trumps", *SUITS)
#: The Fool, the World and the Magician in one trick: the Emperor trick, the Magician's.
EMPEROR_TRICK = frozenset({FOOL, WORLD, MAGICIAN})


def legal_mask(hand: int, led: int | None) -> int:
    """The cards of ``hand`` that may be played to a trick led in group ``led`` (0 trumps,
    1..4 a suit; None: to lead). Follow; else trump; else anything. No duty to head."""
    if led is None:
        return hand
    same = hand & GROUP_MASK[led]
    if same:
        return same
    trumps = hand & TRUMP_MASK
    return trumps or hand


def trick_winner(cards: Sequence[int], no_trumps: bool = False) -> int:
    """The index in ``cards`` (play order) of the card that wins the trick."""
    led = GROUP_OF[cards[0]]
    if led == 0 or not no_trumps:
        by_trump = _trump_winner(cards)
        if by_trump is not None:
            return by_trump
    # The highest card of the suit led (a lower number is a higher card).
    return cards.index(min(card for card in cards if GROUP_OF[card] == led))


def _trump_winner(cards: Sequence[int]) -> int | None:
    """The index of the card that wins by trumps: the Magician in the Emperor trick, else the
    highest trump; None when no trump was played."""
    if EMPEROR_TRICK.issubset(cards):
        return cards.index(MAGICIAN)
    trumps = [card for card in cards if card < 20]
    return cards.index(min(trumps)) if trumps else None


def check_play(
    deal: TwentyDeal, leader: str, no_trumps: bool, play: object
) -> tuple[dict[str, int], dict[str, int], tuple[str, int]]:
    """A played board checked card by card against the deal and the rules of following:
    ``(tricks per seat, points per seat, (last trick's winner, its winning card))``.
    ``RecordError`` names ``play``, the trick and the seat.

    The board record has no ``play`` (rulebook 5.1); this serves simulations and tests.
    """
    tricks = read_tricks(play, CARD_CODES, TRICKS, 4, "4 cards")
    hands = dict(zip(SEAT_LETTERS, deal.hands, strict=True))
    taken = dict.fromkeys(SEAT_LETTERS, 0)
    points = dict.fromkeys(SEAT_LETTERS, 0)
    last = (leader, 0)
    for number, cards in enumerate(tricks, 1):
        seat = leader
        order = []
        led = GROUP_OF[cards[0]]
        for position, card in enumerate(cards):
            hand = hands[seat]
            bit = 1 << card
            _check_card(deal, hand, seat, card, f"trick {number}", led if position else None)
            hands[seat] = hand & ~bit
            order.append(seat)
            seat = NEXT_SEAT[seat]
        index = trick_winner(cards, no_trumps)
        leader = order[index]
        taken[leader] += 1
        points[leader] += 1 + sum(CARD_POINTS[card] for card in cards)
        last = (leader, cards[index])
    return taken, points, last


def _check_card(
    deal: TwentyDeal, hand: int, seat: str, card: int, trick: str, led: int | None
) -> None:
    """A card played from ``hand``: held, and following the group led (None: the lead)."""
    bit = 1 << card
    if not hand & bit:
        holder = deal.holder(card)
        where = "was already played" if holder == seat else f"is in {holder}'s hand"
        raise RecordError("play", f"{trick}: {seat} plays {CARD_TEXT[card]}, which {where}")
    if led is not None and not bit & legal_mask(hand, led):
        need = "follow" if hand & GROUP_MASK[led] else "play a trump to"
        raise RecordError(
            "play", f"{trick}: {seat} must {need} {GROUP_NAMES[led]} ({CARD_TEXT[card]} played)"
        )


# -- the simple player -----------------------------------------------------------------------


def _pick(rng: random.Random, cards: list[int], key) -> int:
    """The card with the least ``key``, ties broken at random."""
    low = min(key(card) for card in cards)
    return rng.choice([card for card in cards if key(card) == low])


def _highest(card: int) -> tuple[int, int]:
    """A card by height within its group (a lower number is higher), the costliest first."""
    return (card % 20 if card >= 20 else card, -CARD_POINTS[card])


def _cheapest(card: int) -> tuple[int, int]:
    """A card by its points, then from the lowest."""
    return (CARD_POINTS[card], -card)


def _smear(card: int) -> tuple[int, bool]:
    """A card by its points, the costliest first, a plain card before a trump."""
    return (-CARD_POINTS[card], card < 20)


def choose_card(
    rng: random.Random,
    legal: int,
    trick: list[int],
    friend_winning: bool | None,
    no_trumps: bool,
    keep: int,
    last_trick: bool,
) -> int:
    """A simple choice: lead high when strong, else low; take a trick a friend is not already
    winning with the cheapest winning card; give points to a friend's trick; otherwise shed the
    card worth least. ``keep``: cards to hold back for the last trick (an announced Sparrow's
    Magician) unless nothing else is legal."""
    cards = cards_of(legal)
    if not last_trick and keep:
        cards = _holding_back(cards, keep)
    if not trick:
        return _pick(rng, cards, _highest if rng.random() < 0.5 else _cheapest)
    if friend_winning:
        # Smear: the card worth most that does not take the trick from the friend.
        return _pick(rng, cards, _smear)
    return _take_or_shed(rng, cards, trick, no_trumps)


def _holding_back(cards: list[int], keep: int) -> list[int]:
    """The cards but those of ``keep``; all of them when nothing else is left."""
    kept = [card for card in cards if not keep >> card & 1]
    return kept or cards


def _take_or_shed(rng: random.Random, cards: list[int], trick: list[int], no_trumps: bool) -> int:
    """Mostly the cheapest card that takes the trick (fewest points, then the lowest), else the
    cheapest card."""
    winners = [card for card in cards if trick_winner([*trick, card], no_trumps) == len(trick)]
    if winners and rng.random() < 0.85:
        return _pick(rng, winners, _cheapest)
    return _pick(rng, cards, _cheapest)


def play_board(
    deal: TwentyDeal,
    rng: random.Random,
    *,
    leader: str,
    side: frozenset[str],
    no_trumps: bool,
    sparrow: str | None = None,
) -> list[list[int]]:
    """All ten tricks played by the simple player (``side``: the declarer's side; the
    ``sparrow`` announcer keeps his Magician for the last trick when he can)."""
    hands = dict(zip(SEAT_LETTERS, deal.hands, strict=True))
    tricks = []
    for number in range(1, TRICKS + 1):
        cards: list[int] = []
        seats: list[str] = []
        seat = leader
        for _ in range(4):
            led = GROUP_OF[cards[0]] if cards else None
            legal = legal_mask(hands[seat], led)
            friend = None
            if cards:
                winner = seats[trick_winner(cards, no_trumps)]
                friend = (winner in side) == (seat in side)
            keep = 1 << MAGICIAN if seat == sparrow else 0
            card = choose_card(rng, legal, cards, friend, no_trumps, keep, number == TRICKS)
            cards.append(card)
            seats.append(seat)
            hands[seat] &= ~(1 << card)
            seat = NEXT_SEAT[seat]
        leader = seats[trick_winner(cards, no_trumps)]
        tricks.append(cards)
    return tricks


def play_text(tricks: list[list[int]]) -> list[list[str]]:
    """Tricks as text: ``[["SK", "T4", "SQ", "F"], ...]``."""
    return [[CARD_TEXT[card] for card in trick] for trick in tricks]
