"""Pyramid's 24-card pack and its deal notation (docs/games/pyramid.md).

A card is an ``int`` 0..23: ``suit * 6 + rank``, suits spades, hearts, diamonds, clubs (0..3)
and ranks A, K, Q, J, T, 9 (0..5, so a lower rank number is a higher card). A set of cards is
a bit mask: bit ``card`` set when the card is in it, which makes following suit one ``&``.

A deal is written ``D:HAND HAND [HAND [HAND]] [-UNDEALT]``: the dealer's letter, the hands
clockwise from the dealer's, each ``spades.hearts.diamonds.clubs`` with its ranks highest
first, then with 2 or 3 players the cards left undealt as one more group prefixed by ``-``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.core.errors import DealError, in_deal
from engine.core.messages import words
from engine.core.notation import check_dealer_seated, dealer_and_groups
from engine.core.seats import SEAT_LETTERS, SEAT_NAMES

SUITS = ("spades", "hearts", "diamonds", "clubs")
SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
RANK_CHARS = "AKQJT9"
RANK_WORDS = ("A", "K", "Q", "J", "10", "9")
CARDS_PER_HAND = 6
PACK_SIZE = 24
TRICKS = 6
FULL_PACK = (1 << PACK_SIZE) - 1

#: Every card's suit (0..3) and rank (0 = ace .. 5 = nine), by card number.
SUIT_OF = tuple(card // 6 for card in range(PACK_SIZE))
RANK_OF = tuple(card % 6 for card in range(PACK_SIZE))
#: The bit mask of each suit's six cards.
SUIT_MASK = tuple(0b111111 << (6 * suit) for suit in range(4))

#: ``SA`` ... ``C9`` (and ``S10`` for ``ST``), in any case, to the card's number.
CARD_CODES: dict[str, int] = {}
for _suit in range(4):
    for _rank in range(6):
        _card = _suit * 6 + _rank
        CARD_CODES[SUIT_LETTERS[_suit] + RANK_CHARS[_rank]] = _card
        if RANK_CHARS[_rank] == "T":
            CARD_CODES[SUIT_LETTERS[_suit] + "10"] = _card
# Lower and mixed case too, so that reading a card is one look-up.
for _code, _card in list(CARD_CODES.items()):
    for _variant in {_code.lower(), _code[0].lower() + _code[1:], _code[0] + _code[1:].lower()}:
        CARD_CODES[_variant] = _card
CARD_TEXT = tuple(SUIT_LETTERS[card // 6] + RANK_CHARS[card % 6] for card in range(PACK_SIZE))
CARD_WORDS = tuple(f"{SUITS[card // 6]} {RANK_WORDS[card % 6]}" for card in range(PACK_SIZE))
_RANK_INDEX = {char: rank for rank, char in enumerate(RANK_CHARS)}

#: The seats of a table of n players, clockwise from each dealer (the order of the notation).
_CLOCKWISE_FROM: dict[tuple[int, str], tuple[str, ...]] = {}
for _n in (2, 3, 4):
    _seats = SEAT_LETTERS[:_n]
    for _i, _dealer in enumerate(_seats):
        _CLOCKWISE_FROM[_n, _dealer] = tuple(_seats[(_i + k) % _n] for k in range(_n))


def clockwise_from(dealer: str, players: int) -> tuple[str, ...]:
    """The order of the hands in the notation: the table's seats clockwise from ``dealer``."""
    return _CLOCKWISE_FROM[players, dealer]


def parse_card(text: object) -> int | None:
    """The card of ``SA``, ``ht``, ``H10``...; None when ``text`` is not one."""
    if type(text) is not str:
        return None
    return CARD_CODES.get(text)


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, highest first within spades, hearts, diamonds, clubs."""
    return [card for card in range(PACK_SIZE) if mask >> card & 1]


def mask_of(cards: list[int] | tuple[int, ...]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def group_text(mask: int) -> str:
    """Four suit groups ``spades.hearts.diamonds.clubs``, ranks highest first."""
    return ".".join(
        "".join(RANK_CHARS[rank] for rank in range(6) if mask >> (suit * 6 + rank) & 1)
        for suit in range(4)
    )


def group_words(mask: int) -> str:
    """The cards for people: ``♠ A K  ♥ 9  ♦ A Q  ♣ 9``; a void is ``—``."""
    parts = []
    for suit in range(4):
        ranks = [RANK_WORDS[rank] for rank in range(6) if mask >> (suit * 6 + rank) & 1]
        parts.append(f"{SUIT_SYMBOLS[suit]} {' '.join(ranks) if ranks else '—'}")
    return "  ".join(parts)


@dataclass(frozen=True, slots=True)
class PyramidDeal:
    """One board's cards: the dealer, the number of players, each seat's hand, the rest.

    ``hands`` holds one bit mask per seat of the table in seat order N, E, S, W (the first
    ``players`` of them); ``undealt`` is the mask of the cards nobody holds (0 at 4 players).
    """

    dealer: str
    players: int
    hands: tuple[int, ...]
    undealt: int

    @property
    def seats(self) -> tuple[str, ...]:
        return SEAT_LETTERS[: self.players]

    def hand(self, seat: str) -> int:
        """The bit mask of ``seat``'s six cards."""
        return self.hands[SEAT_LETTERS.index(seat)]

    def cards(self, seat: str) -> list[int]:
        return cards_of(self.hand(seat))

    def holder(self, card: int) -> str | None:
        """The seat dealt ``card``; None when it is undealt."""
        bit = 1 << card
        for seat, hand in zip(SEAT_LETTERS, self.hands, strict=False):
            if hand & bit:
                return seat
        return None


def format_deal(deal: PyramidDeal) -> str:
    """The canonical notation: upper case, ``T``, highest first, single spaces."""
    groups = [group_text(deal.hand(seat)) for seat in clockwise_from(deal.dealer, deal.players)]
    if deal.players < 4:
        groups.append("-" + group_text(deal.undealt))
    return f"{deal.dealer}:{' '.join(groups)}"


def _where(label: str) -> str:
    """A group of the deal in words: ``hand W`` (the notation's letter), ``the undealt cards``."""
    if label == "undealt":
        return words("the undealt cards")
    return words("hand %(seat)s", seat=label)


#: Every suit group written canonically (upper case, highest first) to its six-bit rank mask:
#: the fast path of the parser; anything else is read character by character.
_CANONICAL_GROUPS = {
    "".join(RANK_CHARS[rank] for rank in range(6) if bits >> rank & 1): bits for bits in range(64)
}


def _suit_ranks(group: str, suit: int, label: str, parsed: list[tuple[str, int]]) -> int:
    """The six-bit rank mask of one suit group written any way (lower case, ``10``, any order),
    or ``DealError`` naming the character or the card written twice."""
    bits = 0
    i = 0
    while i < len(group):
        char = group[i]
        rank: int | None
        if char == "1" and group[i + 1 : i + 2] == "0":
            rank, i = 4, i + 2
        else:
            rank = _RANK_INDEX.get(char.upper())
            if rank is None:
                raise DealError(
                    in_deal(
                        words(
                            "%(where)s, %(suit)s: %(char)s is not a card",
                            where=_where(label),
                            suit=words(SUITS[suit]),
                            char=repr(char),
                        )
                    )
                )
            i += 1
        if bits >> rank & 1:
            _twice(suit * 6 + rank, label, [(label, bits << (6 * suit))])
        _twice(suit * 6 + rank, label, parsed)
        bits |= 1 << rank
    return bits


def _twice(card: int, label: str, parsed: list[tuple[str, int]]) -> None:
    """``DealError`` if one of the hands (or groups) ``parsed`` already holds ``card``."""
    for owner, mask in parsed:
        if mask >> card & 1:
            raise DealError(
                in_deal(
                    words(
                        "%(where)s, %(suit)s: %(rank)s appears twice (also in %(owner)s)",
                        where=_where(label),
                        suit=words(SUITS[card // 6]),
                        rank=RANK_CHARS[card % 6],
                        owner=_where(owner),
                    )
                )
            )


def _parse_group(text: str, label: str, parsed: list[tuple[str, int]]) -> int:
    """One hand (or the undealt group) of four suit groups, checked against the hands
    ``parsed`` before it (``(label, mask)``); appended to them."""
    groups = text.split(".")
    if len(groups) != 4:
        count = len(groups)
        raise DealError(
            in_deal(
                words(
                    "%(where)s has 1 suit group, 4 needed (spades.hearts.diamonds.clubs)",
                    where=_where(label),
                )
                if count == 1
                else words(
                    "%(where)s has %(count)s suit groups, 4 needed (spades.hearts.diamonds.clubs)",
                    where=_where(label),
                    count=count,
                )
            )
        )
    seen = 0
    for _label, held in parsed:
        seen |= held
    mask = 0
    for suit, group in enumerate(groups):
        bits = _CANONICAL_GROUPS.get(group)
        if bits is None:
            bits = _suit_ranks(group, suit, label, parsed)
        part = bits << (6 * suit)
        if part & seen:
            # Report the first card of the group, as written, that an earlier hand holds.
            _suit_ranks(group, suit, label, parsed)
        mask |= part
    parsed.append((label, mask))
    return mask


def _dealer_and_groups(text: object) -> tuple[str, list[str], str | None]:
    """``(dealer, hands as written, undealt cards as written or None)`` of a deal's text."""
    if not isinstance(text, str):
        raise DealError(
            in_deal(words("%(text)s is not a deal in notation (D:HAND HAND ...)", text=repr(text)))
        )
    dealer, tokens = dealer_and_groups(text)
    undealt_text = None
    if tokens and tokens[-1].startswith("-"):
        undealt_text = tokens.pop()[1:]
    for token in tokens:
        if token.startswith("-"):
            raise DealError(in_deal(words("the undealt cards ('-' group) must come last")))
    return dealer, tokens, undealt_text


def parse_deal(text: object) -> PyramidDeal:
    """A deal in the notation; ``DealError`` (``deal: ...``) names the hand and the card."""
    dealer, tokens, undealt_text = _dealer_and_groups(text)
    players = len(tokens)
    if not 2 <= players <= 4:
        raise DealError(
            in_deal(words("%(players)s hands; a table has 2, 3 or 4 players", players=players))
        )
    check_dealer_seated(dealer, players)
    _check_undealt_given(players, undealt_text is not None)
    order = clockwise_from(dealer, players)
    parsed: list[tuple[str, int]] = []
    by_seat = {
        seat: _parse_group(token, seat, parsed) for seat, token in zip(order, tokens, strict=True)
    }
    undealt = 0 if undealt_text is None else _parse_group(undealt_text, "undealt", parsed)
    _check_hand_sizes(order, by_seat)
    _check_undealt_size(undealt, players)
    hands = tuple(by_seat[seat] for seat in SEAT_LETTERS[:players])
    return PyramidDeal(dealer, players, hands, undealt)


def _check_undealt_given(players: int, given: bool) -> None:
    """The undealt cards (the '-' group) are written with fewer than 4 players, never with 4."""
    if players < 4 and not given:
        raise DealError(
            in_deal(
                words(
                    "the undealt cards ('-' group) are missing for %(players)s players",
                    players=players,
                )
            )
        )
    if players == 4 and given:
        raise DealError(in_deal(words("4 players leave no card undealt (no '-' group)")))


def _check_hand_sizes(order: tuple[str, ...], by_seat: dict[str, int]) -> None:
    for seat in order:
        held = by_seat[seat].bit_count()
        if held != CARDS_PER_HAND:
            raise DealError(
                in_deal(
                    words(
                        "hand %(seat)s holds %(held)s cards, %(needed)s needed",
                        seat=seat,
                        held=held,
                        needed=CARDS_PER_HAND,
                    )
                )
            )


def _check_undealt_size(undealt: int, players: int) -> None:
    wanted = PACK_SIZE - CARDS_PER_HAND * players
    if undealt.bit_count() != wanted:
        raise DealError(
            in_deal(
                words(
                    "the undealt cards ('-' group) hold %(held)s cards, %(needed)s needed for "
                    "%(players)s players",
                    held=undealt.bit_count(),
                    needed=wanted,
                    players=players,
                )
            )
        )


def deal_cards(rng: random.Random, *, players: int, dealer: str) -> PyramidDeal:
    """A uniformly shuffled deal: six cards to each seat, the rest undealt."""
    if players not in (2, 3, 4):
        raise ValueError(f"Pyramid is played by 2, 3 or 4 players, not {players}")
    if dealer not in SEAT_LETTERS[:players]:
        raise ValueError(f"the dealer {dealer!r} is not at a table of {players} players")
    pack = list(range(PACK_SIZE))
    rng.shuffle(pack)
    hands = tuple(mask_of(pack[6 * i : 6 * i + 6]) for i in range(players))
    return PyramidDeal(dealer, players, hands, mask_of(pack[6 * players :]))


def hands_in_words(deal: PyramidDeal) -> list[tuple[str, str]]:
    """``(whose, cards)`` for each seat in seat order, then the undealt cards if any."""
    rows: list[tuple[str, str]] = []
    for seat in deal.seats:
        whose: str = SEAT_NAMES[seat]
        if seat == deal.dealer:
            whose = words("%(seat)s (dealer)", seat=whose)
        rows.append((whose, group_words(deal.hand(seat))))
    if deal.players < 4:
        rows.append((words("Undealt"), group_words(deal.undealt)))
    return rows
