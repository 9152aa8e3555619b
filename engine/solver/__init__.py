"""Double-dummy analysis: how many tricks each side takes when every player sees every card
and plays his best (docs/double-dummy.md).

The search itself is C (``engine/solver/_dds.c``, built by pip when the project installs); it
releases the GIL while it solves. This module is its typed, game-free interface:

- a **hand** is an ``int`` bit mask: suit ``s`` (0..3) uses bits ``16*s`` to ``16*s+15`` and a
  card of rank index ``r`` (0 = the lowest rank of the pack) is bit ``16*s + r``;
- **players** are numbered in play order, 0 to n-1 (2 to 4 players), each holding as many
  cards; cards nobody holds simply do not exist for the search;
- the **trump** is a suit 0..3 or None (no-trump); the highest trump wins a trick, else the
  highest card of the suit led;
- the **objective** is a weight per player and the players who maximise: the value of a deal
  is the sum of the weights of the players who win the tricks. "Tricks of a partnership" is
  weight 1 for both partners, maximised by them; "tricks one player can be sure of" is weight
  1 for him alone, maximised by him against all the others.

Each game that has a double-dummy table says in its own package which deals and tables it
computes (its ``solver`` module); ``engine.solver.bridge`` computes DDS's bridge table, to
hold the solver against DDS.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from engine.solver._dds import MUST_TRUMP, NO_UNDERTRUMP
from engine.solver._dds import Solver as _CSolver

__all__ = ["PlayRules", "Solver", "card_index", "hand_cards", "hand_mask"]

#: The table a solver keeps unless told otherwise (MiB); 128-256 MiB change little.
DEFAULT_MEMORY_MIB = 160


@dataclass(frozen=True, slots=True)
class PlayRules:
    """How a trick is played.

    ``trump``: the trump suit 0..3, or None for no-trump. ``must_trump``: a player who cannot
    follow suit must play a trump if he has one (any trump). ``undertrump``: False when a player
    who cannot follow may not play a trump lower than the highest trump already in the trick
    while he holds any other card he may play.
    """

    trump: int | None = None
    must_trump: bool = False
    undertrump: bool = True

    def __post_init__(self) -> None:
        if self.trump is not None and self.trump not in range(4):
            raise ValueError(f"trump must be a suit 0..3 or None, not {self.trump!r}")

    @property
    def flags(self) -> int:
        return (MUST_TRUMP if self.must_trump else 0) | (0 if self.undertrump else NO_UNDERTRUMP)


#: A first guess of a partnership's tricks (``Solver.estimate``) for deals of at least
#: ESTIMATE_FROM cards a hand, from the deal cut down to ESTIMATE_DROP fewer cards a hand.
ESTIMATE_FROM, ESTIMATE_DROP = 13, 3


def _top_cards(hand: int, keep: int, trump: int | None) -> int:
    """The ``keep`` highest cards of a hand mask by rank, its trumps before its other cards."""
    cards = sorted(
        (bit for bit in range(64) if hand >> bit & 1),
        key=lambda bit: (bit >> 4 == trump, bit & 15),
        reverse=True,
    )
    mask = 0
    for bit in cards[:keep]:
        mask |= 1 << bit
    return mask


def hand_mask(cards: Iterable[tuple[int, int]]) -> int:
    """The bit mask of ``(suit, rank index)`` cards, rank index 0 the pack's lowest rank."""
    mask = 0
    for suit, rank in cards:
        if suit not in range(4) or rank not in range(16):
            raise ValueError(f"no card ({suit}, {rank}): suits are 0..3, rank indexes 0..15")
        mask |= 1 << (16 * suit + rank)
    return mask


def card_index(suit: int, rank: int) -> int:
    """The C search's number of a card: its bit in a hand mask (``16 * suit + rank``)."""
    if suit not in range(4) or rank not in range(15):
        raise ValueError(f"no card ({suit}, {rank}): suits are 0..3, rank indexes 0..14")
    return 16 * suit + rank


def hand_cards(mask: int) -> list[tuple[int, int]]:
    """The ``(suit, rank index)`` cards of a mask, suit by suit, highest first."""
    return [
        (suit, rank)
        for suit in range(4)
        for rank in range(15, -1, -1)
        if mask >> (16 * suit + rank) & 1
    ]


class Solver:
    """One double-dummy solver and its transposition table (one per thread or process).

    The table is kept between calls made under the same rules and objective, so the four
    opening leaders of one strain share it; it is emptied when they change.
    """

    def __init__(self, memory_mib: int = DEFAULT_MEMORY_MIB) -> None:
        self._c = _CSolver(memory_mib)

    @property
    def nodes(self) -> int:
        """Positions searched since the solver was made (deterministic for given calls)."""
        return self._c.nodes

    @property
    def memory(self) -> int:
        """Bytes held by the transposition table."""
        return self._c.memory

    def clear(self) -> None:
        """Empty the transposition table."""
        self._c.clear()

    def value(
        self,
        hands: Sequence[int],
        *,
        leader: int,
        weights: Sequence[int],
        maximisers: Collection[int],
        rules: PlayRules,
        lo: int = 0,
        hi: int | None = None,
        guess: int | None = None,
        max_nodes: int | None = None,
        played: Sequence[tuple[int, int]] = (),
        max_seconds: float | None = None,
    ) -> int:
        """The value of the remaining tricks with best play by everyone, clamped to
        ``[lo, hi]``.

        ``hands`` in play order from player 0, ``leader`` leads the trick being played,
        ``weights`` what each player's trick is worth (0..16), ``maximisers`` the players who
        try to make the value high. A narrow ``[lo, hi]`` answers a yes/no question in one
        search.

        ``played``: the ``(suit, rank index)`` cards already in the trick, in play order from
        ``leader`` (at most n-1); they are no longer in ``hands``, so the players who played
        them hold one card fewer. The value then counts the current trick with the rest. A
        card that was not legal where it was played is refused (``ValueError``).

        ``max_nodes`` bounds the positions searched and ``max_seconds`` the time (wall clock,
        read every few thousand positions): past either ``TimeoutError`` is raised and no wrong
        number is ever returned (the solver stays usable; what it learnt stays true).
        """
        n = len(hands)
        flags = [1 if p in maximisers else 0 for p in range(n)]
        return self._c.solve(
            tuple(hands),
            -1 if rules.trump is None else rules.trump,
            leader,
            tuple(weights),
            tuple(flags),
            rules.flags,
            lo,
            -1 if hi is None else hi,
            -1 if guess is None else guess,
            max_nodes or 0,
            tuple(card_index(suit, rank) for suit, rank in played),
            max_seconds or 0.0,
        )

    def side_tricks(
        self,
        hands: Sequence[int],
        side: Collection[int],
        *,
        leader: int,
        rules: PlayRules,
        guess: int | None = None,
        max_nodes: int | None = None,
        played: Sequence[tuple[int, int]] = (),
        max_seconds: float | None = None,
    ) -> int:
        """Tricks the players of ``side`` take together from here on, all four (or n) playing
        their best; ``played``: the cards already in the current trick (see ``value``), which
        is then counted with the rest."""
        weights = [1 if p in side else 0 for p in range(len(hands))]
        if guess is None and not played:
            guess = self.estimate(hands, side, leader=leader, rules=rules)
        return self.value(
            hands,
            leader=leader,
            weights=weights,
            maximisers=side,
            rules=rules,
            guess=guess,
            max_nodes=max_nodes,
            played=played,
            max_seconds=max_seconds,
        )

    def estimate(
        self, hands: Sequence[int], side: Collection[int], *, leader: int, rules: PlayRules
    ) -> int | None:
        """A first guess of ``side``'s tricks from a trick start: the same deal cut down to
        each hand's ``ESTIMATE_DROP`` fewer cards (its lowest, trumps kept longest) solved
        exactly, its tricks scaled up to the whole deal. None for a deal of fewer than
        ``ESTIMATE_FROM`` cards a hand, where the midpoint does as well. Only where the
        search starts changes: the value found is the same whatever the guess."""
        cards = hands[0].bit_count()
        if cards < ESTIMATE_FROM:
            return None
        keep = cards - ESTIMATE_DROP
        reduced = [_top_cards(hand, keep, rules.trump) for hand in hands]
        tricks = self.side_tricks(reduced, side, leader=leader, rules=rules, guess=keep // 2)
        return (tricks * cards + keep // 2) // keep

    def alone_tricks(
        self,
        hands: Sequence[int],
        player: int,
        *,
        leader: int,
        rules: PlayRules,
        guess: int | None = None,
        played: Sequence[tuple[int, int]] = (),
        max_nodes: int | None = None,
        max_seconds: float | None = None,
    ) -> int:
        """Tricks ``player`` can be sure of when every other player plays against him."""
        weights = [1 if p == player else 0 for p in range(len(hands))]
        return self.value(
            hands,
            leader=leader,
            weights=weights,
            maximisers={player},
            rules=rules,
            guess=guess,
            played=played,
            max_nodes=max_nodes,
            max_seconds=max_seconds,
        )

    def leaders_table(
        self, hands: Sequence[int], side: Collection[int], rules: PlayRules
    ) -> list[int]:
        """``side``'s tricks for each possible opening leader 0..n-1, sharing the table."""
        results: list[int] = []
        guess = None
        for leader in range(len(hands)):
            tricks = self.side_tricks(hands, side, leader=leader, rules=rules, guess=guess)
            results.append(tricks)
            guess = tricks
        return results
