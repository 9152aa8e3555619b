"""Bridge deals (52 cards, 13 tricks), read in PBN and solved as DDS does, so that the solver
can be held against DDS: the solver's rules of play for a partnership game of four suits,
with 13 ranks a suit.

A deal is ``N:AKQ2.T98.J765.43 ...``: the first hand's seat, then the four hands clockwise,
each ``spades.hearts.diamonds.clubs`` with ranks ``AKQJT98765432``.
"""

from __future__ import annotations

from engine.core.errors import DealError
from engine.solver import PlayRules, Solver

SEATS = "NESW"
SUITS = "SHDC"
#: Rank characters, lowest first: rank index 0 is the two.
RANKS = "23456789TJQKA"
#: DDS's order: strains spades, hearts, diamonds, clubs, no-trump; declarers N, E, S, W.
STRAINS = ("S", "H", "D", "C", "NT")


def parse_pbn(text: str) -> tuple[int, int, int, int]:
    """The four hands N, E, S, W as solver masks (suit 0 spades .. 3 clubs)."""
    if not isinstance(text, str):
        raise DealError("a bridge deal is a string like 'N:AKQ2.T98.J765.43 ...'")
    head, colon, body = text.strip().partition(":")
    if not colon or head.strip().upper() not in tuple(SEATS):
        raise DealError("a bridge deal starts with a seat letter (N, E, S or W) and a colon")
    first = SEATS.index(head.strip().upper())
    parts = body.split()
    if len(parts) != 4:
        raise DealError(f"a bridge deal has 4 hands, this one has {len(parts)}")
    hands = [0, 0, 0, 0]
    seen = 0
    for offset, part in enumerate(parts):
        seat = (first + offset) % 4
        groups = part.split(".")
        if len(groups) != 4:
            raise DealError(f"hand {SEATS[seat]} has {len(groups)} suit groups, not 4")
        for suit, group in enumerate(groups):
            for char in group.upper():
                if char not in RANKS:
                    raise DealError(f"hand {SEATS[seat]}, {SUITS[suit]}: {char!r} is not a card")
                bit = 1 << (16 * suit + RANKS.index(char))
                if seen & bit:
                    raise DealError(f"{SUITS[suit]}{char} is dealt twice")
                seen |= bit
                hands[seat] |= bit
    for seat, hand in enumerate(hands):
        if hand.bit_count() != 13:
            raise DealError(f"hand {SEATS[seat]} holds {hand.bit_count()} cards, not 13")
    return hands[0], hands[1], hands[2], hands[3]


def dd_table(hands: tuple[int, int, int, int], solver: Solver | None = None) -> list[int]:
    """DDS's 20 numbers: for strains S, H, D, C, NT and declarers N, E, S, W in that order, the
    tricks of the declarer's side when the player on his left leads."""
    solver = solver or Solver()
    table: list[int] = []
    for strain in range(5):
        rules = PlayRules(trump=None if strain == 4 else strain)
        ns = solver.leaders_table(hands, {0, 2}, rules)
        for declarer in range(4):
            tricks = ns[(declarer + 1) % 4]
            table.append(tricks if declarer % 2 == 0 else 13 - tricks)
    return table
