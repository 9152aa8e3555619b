"""An independent double-dummy reference: plain minimax over every legal card, memoised on the
position, with absolute cards (no equivalent cards, no partition search, no ordering).

Only for small deals. Cards are ``(suit, rank)`` pairs, rank higher = better (ranks 0 to 15).
Inside the search a hand is a bit mask (bit ``16 * suit + rank``), so that positions hash
fast; what is legal and who wins a trick are the plain rules, written once below.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

Card = tuple[int, int]

SUIT_BITS = 16
SUITS = [((1 << SUIT_BITS) - 1) << (SUIT_BITS * suit) for suit in range(4)]


def _bit(card: Card) -> int:
    return 1 << (SUIT_BITS * card[0] + card[1])


def _mask(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= _bit(card)
    return mask


def _cards(mask: int) -> list[Card]:
    """The cards of a mask, lowest suit and rank first."""
    found = []
    while mask:
        low = mask & -mask
        index = low.bit_length() - 1
        found.append(divmod(index, SUIT_BITS))
        mask ^= low
    return found


def _legal_mask(
    hand: int, trick: Sequence[Card], trump: int | None, must_trump: bool, undertrump: bool
) -> int:
    """The cards of ``hand`` that may be played to ``trick``: follow suit; else, under
    ``must_trump``, trump if possible; else, without ``undertrump``, no trump below the best
    trump in the trick unless the hand has nothing else; else anything."""
    if not trick:
        return hand
    follow = hand & SUITS[trick[0][0]]
    if follow:
        return follow
    trumps = hand & SUITS[trump] if trump is not None else 0
    if not trumps:
        return hand
    if must_trump:
        return trumps
    if not undertrump:
        top = max((rank for suit, rank in trick if suit == trump), default=None)
        if top is not None:
            above = trumps & ~((1 << (SUIT_BITS * trump + top + 1)) - 1)
            allowed = (hand & ~SUITS[trump]) | above
            if allowed:
                return allowed
    return hand


def legal_cards(
    hand: frozenset[Card],
    trick: Sequence[Card],
    trump: int | None,
    must_trump: bool,
    undertrump: bool,
) -> list[Card]:
    return _cards(_legal_mask(_mask(hand), trick, trump, must_trump, undertrump))


def _winner(trick: Sequence[Card], trump: int | None) -> int:
    best = 0
    for index in range(1, len(trick)):
        card, top = trick[index], trick[best]
        if card[0] == top[0]:
            if card[1] > top[1]:
                best = index
        elif card[0] == trump:
            best = index
    return best


def minimax(
    hands: Sequence[Sequence[Card]],
    *,
    leader: int,
    weights: Sequence[int],
    maximisers: set[int] | frozenset[int],
    trump: int | None,
    must_trump: bool = False,
    undertrump: bool = True,
    played: Sequence[Card] = (),
) -> int:
    """The value (sum of the trick winners' weights) with best play by everyone; ``played``:
    the cards already in the trick ``leader`` led (no longer in ``hands``)."""
    n = len(hands)

    @functools.cache
    def value(state: tuple[int, ...], leader: int, trick: tuple[Card, ...]) -> int:
        if not any(state):
            return 0
        player = (leader + len(trick)) % n
        results = []
        legal = _legal_mask(state[player], trick, trump, must_trump, undertrump)
        while legal:
            low = legal & -legal
            legal ^= low
            rest = list(state)
            rest[player] ^= low
            played = (*trick, divmod(low.bit_length() - 1, SUIT_BITS))
            if len(played) == n:
                winner = (leader + _winner(played, trump)) % n
                results.append(weights[winner] + value(tuple(rest), winner, ()))
            else:
                results.append(value(tuple(rest), leader, played))
        return max(results) if player in maximisers else min(results)

    return value(tuple(_mask(hand) for hand in hands), leader, tuple(played))
