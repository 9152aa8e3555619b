"""An independent double-dummy reference: plain minimax over every legal card, memoised on the
position, with absolute cards (no equivalent cards, no partition search, no ordering).

Only for small deals. Cards are ``(suit, rank)`` pairs, rank higher = better.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

Card = tuple[int, int]


def legal_cards(
    hand: frozenset[Card],
    trick: Sequence[Card],
    trump: int | None,
    must_trump: bool,
    undertrump: bool,
) -> list[Card]:
    if not trick:
        return sorted(hand)
    led = trick[0][0]
    follow = [card for card in hand if card[0] == led]
    if follow:
        return sorted(follow)
    trumps = [card for card in hand if card[0] == trump]
    if trump is None or not trumps:
        return sorted(hand)
    if must_trump:
        return sorted(trumps)
    if not undertrump:
        top = max((card[1] for card in trick if card[0] == trump), default=None)
        if top is not None:
            allowed = [card for card in hand if card[0] != trump or card[1] > top]
            if allowed:
                return sorted(allowed)
    return sorted(hand)


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
    def value(state: tuple[frozenset[Card], ...], leader: int, trick: tuple[Card, ...]) -> int:
        if not any(state):
            return 0
        player = (leader + len(trick)) % n
        results = []
        for card in legal_cards(state[player], trick, trump, must_trump, undertrump):
            rest = list(state)
            rest[player] = state[player] - {card}
            played = (*trick, card)
            if len(played) == n:
                winner = (leader + _winner(played, trump)) % n
                results.append(weights[winner] + value(tuple(rest), winner, ()))
            else:
                results.append(value(tuple(rest), leader, played))
        return max(results) if player in maximisers else min(results)

    return value(tuple(frozenset(hand) for hand in hands), leader, tuple(played))
