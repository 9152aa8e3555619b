"""Pys'ngtaut's 93-card pack and its deal notation (docs/games/pysngtaut.md).

A card is an ``int``: ``rank * 4 + suit`` for the 52 faces of a pack, ranks A 2 .. 9 T J Q K
(0..12) and suits spades, hearts, diamonds, clubs (0..3); the joker, the god card, is 52. The
pack holds every number card (A to T) twice and every face card (J Q K) and the joker once:
``COPIES`` gives how often, by card.

A deal is written ``D:UP HAND .. HAND PILE1 PILE2``: the dealer's letter, the turned-up card,
the hands clockwise from the dealer's, then the two draw piles, each top card first; a group is
its cards written one after another, two characters each.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.core.errors import DealError, in_deal
from engine.core.messages import Words, joined, words
from engine.core.notation import check_dealer_seated, dealer_and_groups
from engine.core.seats import SEAT_LETTERS, SEAT_NAMES

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
#: A rank as a card shows it; the faces are words of the reader's language (V, D, R in French).
RANK_WORDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", words("J"), words("Q"), words("K"))
JOKER = 52
CARDS = 53  # distinct cards
PACK_SIZE = 93
HAND_SIZE = 7
FACE_RANKS = frozenset({10, 11, 12})  # J Q K
#: Each draw pile's size by the number of players (2.2).
PILE_SIZE = {2: 39, 3: 36, 4: 32}

#: The rank of each of the 52 cards of a suit, for a card known not to be the joker.
NATURAL_RANK = tuple(card // 4 for card in range(52))
RANK_OF = (*NATURAL_RANK, None)
SUIT_OF = (*tuple(card % 4 for card in range(52)), None)
RED = (*tuple(card % 4 in (1, 2) for card in range(52)), False)
COPIES = (*tuple(1 if card // 4 in FACE_RANKS else 2 for card in range(52)), 1)
#: The value of a card left in the hand (4.2) when it is not of the wild rank; the joker 0.
RANK_VALUE = (5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 50, 50, 50)
CARD_TEXT = (*tuple(RANK_CHARS[card // 4] + SUIT_CHARS[card % 4] for card in range(52)), "JK")
CARD_WORDS = (
    *tuple(
        Words("%(rank)s%(suit)s", {"rank": RANK_WORDS[card // 4], "suit": SUIT_SYMBOLS[card % 4]})
        for card in range(52)
    ),
    words("joker"),
)
#: ``KH``, ``kh``, ``Kh``, ``kH`` ... to the card: reading a card is one look-up.
CARD_CODES: dict[str, int] = {}
for _card, _text in enumerate(CARD_TEXT):
    for _variant in {
        _text,
        _text.lower(),
        _text[0].lower() + _text[1],
        _text[0] + _text[1].lower(),
    }:
        CARD_CODES[_variant] = _card
RANK_CODES = {char: rank for rank, char in enumerate(RANK_CHARS)}
RANK_CODES.update({char.lower(): rank for char, rank in list(RANK_CODES.items())})

#: The table's seats clockwise from each dealer: the order of the hands in the notation.
CLOCKWISE_FROM: dict[tuple[int, str], tuple[str, ...]] = {}
for _n in (2, 3, 4):
    _seats = SEAT_LETTERS[:_n]
    for _i, _dealer in enumerate(_seats):
        CLOCKWISE_FROM[_n, _dealer] = tuple(_seats[(_i + k) % _n] for k in range(_n))


def parse_card(text: object) -> int | None:
    """The card of ``KH``, ``td``, ``JK``...; None when ``text`` is not one (``10H`` is not)."""
    if type(text) is not str:
        return None
    return CARD_CODES.get(text)


def full_pack() -> list[int]:
    """Every card as often as the pack holds it (93 cards)."""
    return [card for card in range(CARDS) for _ in range(COPIES[card])]


@dataclass(frozen=True, slots=True)
class PysngtautDeal:
    """One board: the dealer, the number of players, the turned-up card, each seat's seven
    cards (in seat order N, E, S, W, the first ``players`` of them, each in the order written)
    and the two draw piles, top card first. With 3 players pile 2 ends with the turned-up
    card; with 2 or 4 it is out of play."""

    dealer: str
    players: int
    up: int
    hands: tuple[tuple[int, ...], ...]
    pile1: tuple[int, ...]
    pile2: tuple[int, ...]

    @property
    def seats(self) -> tuple[str, ...]:
        return SEAT_LETTERS[: self.players]

    def hand(self, seat: str) -> tuple[int, ...]:
        return self.hands[SEAT_LETTERS.index(seat)]

    @property
    def wild(self) -> int | None:
        """The wild rank (0..12), None when the joker is turned up."""
        return RANK_OF[self.up]


def group_text(cards: tuple[int, ...] | list[int]) -> str:
    return "".join(CARD_TEXT[card] for card in cards)


def format_deal(deal: PysngtautDeal) -> str:
    """The canonical notation: upper case, single spaces."""
    groups = [CARD_TEXT[deal.up]]
    groups += [group_text(deal.hand(seat)) for seat in CLOCKWISE_FROM[deal.players, deal.dealer]]
    groups += [group_text(deal.pile1), group_text(deal.pile2)]
    return f"{deal.dealer}:{' '.join(groups)}"


def _read_group(text: str, label: str) -> list[int]:
    """The cards of one group written two characters a card; ``DealError`` names the card."""
    if len(text) % 2:
        raise DealError(
            in_deal(
                words(
                    "%(label)s: %(count)s characters, not whole cards of two (%(left)s is left)",
                    label=label,
                    count=len(text),
                    left=repr(text[-1]),
                )
            )
        )
    cards = []
    for i in range(0, len(text), 2):
        card = CARD_CODES.get(text[i : i + 2])
        if card is None:
            raise DealError(
                in_deal(
                    words(
                        "%(label)s: %(card)s is not a card", label=label, card=repr(text[i : i + 2])
                    )
                )
            )
        cards.append(card)
    return cards


def _dealer_and_groups(text: object) -> tuple[str, list[str], int]:
    """``(dealer, groups, players)`` of a deal's text: the dealer's letter and colon, then 5 to
    7 groups, the dealer at the table."""
    if not isinstance(text, str):
        raise DealError(
            in_deal(
                words(
                    "%(text)s is not a deal in notation (D:UP HAND .. PILE1 PILE2)", text=repr(text)
                )
            )
        )
    dealer, groups = dealer_and_groups(text)
    players = len(groups) - 3
    if not 2 <= players <= 4:
        raise DealError(
            in_deal(
                words(
                    "%(count)s groups; a deal has the turned-up card, 2 to 4 hands and 2 piles "
                    "(5 to 7 groups)",
                    count=len(groups),
                )
            )
        )
    check_dealer_seated(dealer, players)
    return dealer, groups, players


def _check_sizes(labels: list[str], read: list[list[int]], players: int) -> None:
    """One turned-up card, seven cards a hand, each pile of the table's size; with 3 players
    pile 2 ends with the turned-up card."""
    up_group, hand_groups, pile1, pile2 = read[0], read[1:-2], read[-2], read[-1]
    if len(up_group) != 1:
        raise DealError(
            in_deal(words("the turned-up card: %(count)s cards, 1 needed", count=len(up_group)))
        )
    _check_hand_sizes(labels[1:-2], hand_groups)
    _check_pile_sizes(labels[-2:], (pile1, pile2), players)
    up = up_group[0]
    if players == 3 and pile2[-1] != up:
        raise DealError(
            in_deal(
                words(
                    "pile 2: its last card is %(last)s; with 3 players it is the turned-up card "
                    "%(up)s",
                    last=CARD_TEXT[pile2[-1]],
                    up=CARD_TEXT[up],
                )
            )
        )


def _check_hand_sizes(labels: list[str], hand_groups: list[list[int]]) -> None:
    for label, hand in zip(labels, hand_groups, strict=True):
        if len(hand) != HAND_SIZE:
            raise DealError(
                in_deal(
                    words(
                        "%(label)s: %(count)s cards, %(needed)s needed",
                        label=label,
                        count=len(hand),
                        needed=HAND_SIZE,
                    )
                )
            )


def _check_pile_sizes(labels: list[str], piles: tuple[list[int], list[int]], players: int) -> None:
    size = PILE_SIZE[players]
    for label, pile in zip(labels, piles, strict=True):
        if len(pile) != size:
            raise DealError(
                in_deal(
                    words(
                        "%(label)s: %(count)s cards, %(needed)s needed for %(players)s players",
                        label=label,
                        count=len(pile),
                        needed=size,
                        players=players,
                    )
                )
            )


def _check_copies(labels: list[str], read: list[list[int]], players: int) -> None:
    """No card more often than the pack holds it; with 3 players the turned-up card is
    counted once, as the last card of pile 2."""
    counts = [0] * CARDS
    groups_counted = list(zip(labels, read, strict=True))
    if players == 3:
        groups_counted = groups_counted[1:]
    for label, cards in groups_counted:
        for card in cards:
            counts[card] += 1
            if counts[card] > COPIES[card]:
                values = {"label": label, "card": CARD_TEXT[card], "count": counts[card]}
                raise DealError(
                    in_deal(
                        words(
                            "%(label)s: %(card)s appears %(count)s times; the pack holds it once",
                            **values,
                        )
                        if COPIES[card] == 1
                        else words(
                            "%(label)s: %(card)s appears %(count)s times; the pack holds it twice",
                            **values,
                        )
                    )
                )


def parse_deal(text: object) -> PysngtautDeal:
    """A deal in the notation of 2.3; ``DealError`` (``deal: ...``) names the group (turned-up
    card, hand k, pile k) and the card or the count."""
    dealer, groups, players = _dealer_and_groups(text)
    order = CLOCKWISE_FROM[players, dealer]
    # The groups in words (the seats as the notation writes them).
    labels: list[str] = [words("the turned-up card")]
    labels += [
        words("hand %(number)s (%(seat)s)", number=k, seat=seat) for k, seat in enumerate(order, 1)
    ]
    labels += [words("pile %(number)s", number=1), words("pile %(number)s", number=2)]
    read = [_read_group(group, label) for group, label in zip(groups, labels, strict=True)]
    _check_sizes(labels, read, players)
    _check_copies(labels, read, players)
    hands_by_seat = dict(zip(order, read[1:-2], strict=True))
    hands = tuple(tuple(hands_by_seat[seat]) for seat in SEAT_LETTERS[:players])
    return PysngtautDeal(dealer, players, read[0][0], hands, tuple(read[-2]), tuple(read[-1]))


def deal_cards(rng: random.Random, *, players: int, dealer: str) -> PysngtautDeal:
    """A uniformly shuffled pack dealt as in 2.2: the top card turned up (to the bottom with 3
    players), seven cards to each player from the dealer's round, the rest cut in two piles."""
    if players not in PILE_SIZE:
        raise ValueError(f"Pys'ngtaut is played by 2, 3 or 4 players, not {players}")
    if dealer not in SEAT_LETTERS[:players]:
        raise ValueError(f"the dealer {dealer!r} is not at a table of {players} players")
    pack = full_pack()
    rng.shuffle(pack)
    up = pack.pop(0)
    if players == 3:
        pack.append(up)
    order = CLOCKWISE_FROM[players, dealer]
    hands_by_seat = {
        seat: tuple(pack[HAND_SIZE * k : HAND_SIZE * (k + 1)]) for k, seat in enumerate(order)
    }
    rest = pack[HAND_SIZE * players :]
    half = len(rest) // 2
    hands = tuple(hands_by_seat[seat] for seat in SEAT_LETTERS[:players])
    return PysngtautDeal(dealer, players, up, hands, tuple(rest[:half]), tuple(rest[half:]))


def cards_in_words(cards: tuple[int, ...] | list[int]) -> str:
    return joined([CARD_WORDS[card] for card in cards], " ") if cards else "—"


def hands_in_words(deal: PysngtautDeal) -> list[tuple[str, str]]:
    """``(whose, cards)``: the turned-up card, each seat's hand in seat order, the piles."""
    rows: list[tuple[str, str]] = [(words("Turned up"), CARD_WORDS[deal.up])]
    for seat in deal.seats:
        whose = SEAT_NAMES[seat]
        if seat == deal.dealer:
            whose = words("%(seat)s (dealer)", seat=whose)
        rows.append((whose, cards_in_words(deal.hand(seat))))
    rows.append((words("Pile 1 (top first)"), cards_in_words(deal.pile1)))
    rows.append((words("Pile 2 (top first)"), cards_in_words(deal.pile2)))
    return rows
