"""The play of a Pyramid board: following, trumping, trick winners; checking a record's
``play`` against its deal; and a simple legal player for simulations.

Cards are numbers and hands bit masks (``engine.games.pyramid.cards``). ``trump`` is a suit
number 0..3, or None for no-trump.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.core.errors import RecordError
from engine.core.seats import turn_order
from engine.core.tricks import read_tricks
from engine.games.pyramid.cards import (
    CARD_CODES,
    CARD_TEXT,
    CARD_WORDS,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    SUITS,
    TRICKS,
    PyramidDeal,
    cards_of,
)


def legal_mask(hand: int, led: int | None, trump: int | None) -> int:
    """The cards of ``hand`` that may be played to a trick led in suit ``led`` (None: to lead).

    Follow suit if possible; otherwise trump if possible; otherwise anything. No duty to win,
    to play higher or to overtrump.
    """
    if led is None:
        return hand
    same = hand & SUIT_MASK[led]
    if same:
        return same
    if trump is not None:
        trumps = hand & SUIT_MASK[trump]
        if trumps:
            return trumps
    return hand


def beats(card: int, best: int, trump: int | None) -> bool:
    """Whether ``card`` beats ``best``, the card winning the trick so far."""
    suit, best_suit = SUIT_OF[card], SUIT_OF[best]
    if suit == best_suit:
        return card < best  # same suit: a lower number is a higher rank
    return suit == trump


def trick_winner(cards: Sequence[int], trump: int | None) -> int:
    """The index in ``cards`` (in play order) of the card that wins the trick."""
    best = 0
    for index in range(1, len(cards)):
        if beats(cards[index], cards[best], trump):
            best = index
    return best


def _not_held(deal: PyramidDeal, seat: str, card: int, played: int) -> str:
    if deal.undealt >> card & 1:
        return f"{seat} plays {CARD_WORDS[card]}, which is undealt"
    if played >> card & 1:
        return f"{seat} plays {CARD_WORDS[card]}, which was already played"
    return f"{seat} plays {CARD_WORDS[card]}, which is in {deal.holder(card)}'s hand"


def _check_not_following(
    hand: int, bit: int, led: int, trump_mask: int, who: str, card: int
) -> None:
    """A card not of the suit led: he has none of it, and trumps when he can."""
    if hand & SUIT_MASK[led]:
        raise RecordError("play", f"{who} must follow {SUITS[led]} ({CARD_WORDS[card]} played)")
    if hand & trump_mask and not bit & trump_mask:
        raise RecordError(
            "play",
            f"{who} cannot follow {SUITS[led]} and must trump ({CARD_WORDS[card]} played)",
        )


def check_play(
    deal: PyramidDeal, trump: int | None, declarer: str, direction: str, play: object
) -> dict[str, int]:
    """The tricks each seat took in a record's ``play``, checked card by card against the
    deal and the rules of following; ``RecordError`` names ``play``, the trick and the seat."""
    players = deal.players
    tricks = read_tricks(play, CARD_CODES, TRICKS, players, f"{players} cards each")
    hands = dict(zip(deal.seats, deal.hands, strict=True))
    taken = dict.fromkeys(deal.seats, 0)
    trump_mask = SUIT_MASK[trump] if trump is not None else 0
    played = 0
    leader = declarer
    for number, cards in enumerate(tricks, 1):
        order = turn_order(leader, players, direction)
        best = cards[0]
        led = SUIT_OF[best]
        led_mask = SUIT_MASK[led]
        winner = leader
        for seat, card in zip(order, cards, strict=True):
            hand = hands[seat]
            bit = 1 << card
            if not hand & bit:
                raise RecordError("play", f"trick {number}: {_not_held(deal, seat, card, played)}")
            if not bit & led_mask:
                _check_not_following(hand, bit, led, trump_mask, f"trick {number}: {seat}", card)
            if card != best and beats(card, best, trump):
                best, winner = card, seat
            hands[seat] = hand & ~bit
            played |= bit
        taken[winner] += 1
        leader = winner
    return taken


# -- the simple player -----------------------------------------------------------------------


#: What a trump of each rank is worth in tricks (ace, king; any other 0.45).
_TRUMP_VALUE = {0: 1.0, 1: 0.8}


def _add_side_suit(total: float, ranks: list[int], no_trump: bool, trumps: int) -> float:
    """``total`` and the tricks a suit other than trumps should take: its ace, a guarded
    king, a queen with two more at no-trump, or a void to ruff in with two trumps."""
    worth = (
        (0 in ranks, 1.0),
        (1 in ranks and len(ranks) >= 2, 0.5),
        (no_trump and 2 in ranks and len(ranks) >= 3, 0.3),
        (not ranks and trumps >= 2, 0.4),
    )
    for holds, tricks in worth:
        if holds:
            total += tricks
    return total


def estimate_tricks(hand: int, trump: int | None, players: int) -> float:
    """A rough count of the tricks ``hand`` should take with ``trump`` (None: no-trump)."""
    total = 0.0
    trumps = (hand & SUIT_MASK[trump]).bit_count() if trump is not None else 0
    for suit in range(4):
        ranks = [RANK_OF[card] for card in cards_of(hand & SUIT_MASK[suit])]
        if suit == trump:
            total += sum(_TRUMP_VALUE.get(rank, 0.45) for rank in ranks)
        else:
            total = _add_side_suit(total, ranks, trump is None, trumps)
    # Fewer opponents, fewer of the high cards out against him.
    return total * (1.0 + 0.15 * (4 - players))


def choose_call(
    hand: int, players: int, rng: random.Random, declarations: Sequence[int]
) -> tuple[int, int | None]:
    """``(declared, trump)``: the trump whose estimate is highest and the legal number nearest
    to the estimate (a little noise, so that equal hands do not always call alike)."""
    if not declarations:
        raise ValueError("no declaration is left on the declarer's sheet")
    options: list[int | None] = [0, 1, 2, 3, None]
    estimates = {trump: estimate_tricks(hand, trump, players) for trump in options}
    best = max(estimates.values())
    trump = rng.choice([t for t in options if estimates[t] >= best - 0.25])
    wanted = min(6.0, max(0.0, estimates[trump] + rng.uniform(-0.6, 0.6)))
    declared = _pick(rng, list(declarations), lambda value: abs(value - wanted))
    return declared, trump


def _pick(rng: random.Random, cards: list[int], key) -> int:
    """The card with the least ``key``, ties broken at random."""
    low = min(key(card) for card in cards)
    return rng.choice([card for card in cards if key(card) == low])


def choose_card(
    rng: random.Random,
    legal: int,
    trick: list[int],
    winner_is_declarer: bool | None,
    seat_is_declarer: bool,
    declarer_wants: bool,
    trump: int | None,
) -> int:
    """A simple choice: the declarer wants tricks while short of his call, none once at it;
    the defenders want the opposite outcome (to take the trick when he wants it, to leave it to
    him when he does not).

    ``trick``: the cards played so far; ``winner_is_declarer``: who is winning it (None when
    leading); ``declarer_wants``: whether the declarer wants this trick.
    """
    cards = cards_of(legal)
    # The declarer wants the trick while short of his call; the defenders want it exactly
    # when he does (to keep it from him), and want him to take it once he has his number.
    want_win = declarer_wants
    if not trick:
        return _lead(rng, cards, want_win, trump)
    winners, losers = _winners_and_losers(cards, trick[trick_winner(trick, trump)], trump)
    if not seat_is_declarer and winner_is_declarer is False:
        # A fellow defender holds the trick: never take it from him.
        pool, key = losers, lambda c: (-RANK_OF[c], SUIT_OF[c] == trump)
    elif want_win:
        # The cheapest winner: the lowest card that beats the trick, a plain card first.
        pool, key = winners, lambda c: (SUIT_OF[c] == trump, -RANK_OF[c])
    else:
        # Shed the highest card that still loses.
        pool, key = losers, lambda c: (RANK_OF[c], SUIT_OF[c] == trump)
    if pool:
        return _pick(rng, pool, key)
    # The choice is forced: the lowest card.
    return _pick(rng, cards, lambda c: (-RANK_OF[c], SUIT_OF[c] == trump))


def _winners_and_losers(
    cards: list[int], best: int, trump: int | None
) -> tuple[list[int], list[int]]:
    """The cards that would beat ``best``, the card winning the trick, and those that would
    not."""
    winners: list[int] = []
    losers: list[int] = []
    for card in cards:
        (winners if beats(card, best, trump) else losers).append(card)
    return winners, losers


def _lead(rng: random.Random, cards: list[int], want_win: bool, trump: int | None) -> int:
    """The lead: the highest card (a plain one first) to win the trick, else the lowest."""
    if want_win:
        return _pick(rng, cards, lambda c: (RANK_OF[c], SUIT_OF[c] != trump))
    return _pick(rng, cards, lambda c: (-RANK_OF[c], SUIT_OF[c] == trump))


def play_board(
    deal: PyramidDeal,
    rng: random.Random,
    *,
    declarer: str,
    declared: int,
    trump: int | None,
    direction: str,
) -> tuple[list[list[int]], dict[str, int]]:
    """All six tricks played by the simple player: ``(tricks in play order, tricks per seat)``."""
    players = deal.players
    hands = dict(zip(deal.seats, deal.hands, strict=True))
    taken = dict.fromkeys(deal.seats, 0)
    leader = declarer
    tricks = []
    for _number in range(TRICKS):
        order = turn_order(leader, players, direction)
        cards: list[int] = []
        declarer_wants = taken[declarer] < declared
        for seat in order:
            led = SUIT_OF[cards[0]] if cards else None
            legal = legal_mask(hands[seat], led, trump)
            winning = order[trick_winner(cards, trump)] == declarer if cards else None
            card = choose_card(rng, legal, cards, winning, seat == declarer, declarer_wants, trump)
            cards.append(card)
            hands[seat] &= ~(1 << card)
        leader = order[trick_winner(cards, trump)]
        taken[leader] += 1
        tricks.append(cards)
    return tricks, taken


def play_text(tricks: list[list[int]]) -> list[list[str]]:
    """Tricks as a record's ``play``: ``[["SA", "SQ", "ST"], ...]``."""
    return [[CARD_TEXT[card] for card in trick] for trick in tricks]
