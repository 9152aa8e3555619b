"""Double-dummy analysis of a Pyramid board (docs/double-dummy.md): for each player and each
trump (or no-trump), the tricks he can be sure of when he sees every card and all the other
players, seeing them too, play against him.

The board's declarer (the player after the dealer in play direction) leads the first trick,
whoever is counted; a player who cannot follow suit must trump if he can (docs/games/pyramid.md
section 3). The cards left undealt take no part.
"""

from __future__ import annotations

from typing import Any

from engine.core.seats import next_seat, turn_order
from engine.games.pyramid.cards import SUITS, PyramidDeal, format_deal
from engine.solver import PlayRules, Solver

#: The trumps in table order, as records name them.
TRUMPS = (*SUITS, "nt")


def solver_hands(deal: PyramidDeal, direction: str = "clockwise") -> tuple[int, ...]:
    """The hands as solver masks in play order from North; the nine is rank index 0."""
    hands = []
    for seat in turn_order("N", deal.players, direction):
        mask = deal.hand(seat)
        out = 0
        for card in range(24):
            if mask >> card & 1:
                suit, rank = divmod(card, 6)
                out |= 1 << (16 * suit + 5 - rank)
        hands.append(out)
    return tuple(hands)


def declarer_of(deal: PyramidDeal, direction: str = "clockwise") -> str:
    """The board's declarer: the player after the dealer in play direction."""
    return next_seat(deal.dealer, deal.players, direction)


def sure_tricks(
    deal: PyramidDeal, *, direction: str = "clockwise", solver: Solver | None = None
) -> dict[str, dict[str, int]]:
    """``{seat: {trump: tricks}}``: what each player can be sure of, the declarer leading."""
    solver = solver or Solver(memory_mib=8)
    order = turn_order("N", deal.players, direction)
    hands = solver_hands(deal, direction)
    leader = order.index(declarer_of(deal, direction))
    table: dict[str, dict[str, int]] = {seat: {} for seat in deal.seats}
    for index, trump in enumerate(TRUMPS):
        rules = PlayRules(trump=None if trump == "nt" else index, must_trump=True)
        for player, seat in enumerate(order):
            table[seat][trump] = solver.alone_tricks(hands, player, leader=leader, rules=rules)
    return {seat: table[seat] for seat in deal.seats}


def analyse(
    deal: PyramidDeal, *, direction: str = "clockwise", solver: Solver | None = None
) -> dict[str, Any]:
    """A board's double-dummy table as JSON."""
    return {
        "deal": format_deal(deal),
        "declarer": declarer_of(deal, direction),
        "direction": direction,
        "tricks": sure_tricks(deal, direction=direction, solver=solver),
    }


def solve_options(
    *, opening: str | None = None, direction: str | None = None, ruleset: str | None = None
) -> dict[str, Any]:
    """The command line's options checked: ``ValueError`` names a bad one."""
    if opening or ruleset:
        raise ValueError("--opening and --ruleset are Pymtheg's; Pyramid's declarer leads")
    direction = direction or "clockwise"
    turn_order("N", 2, direction)
    return {"direction": direction}


def analyse_text(text: str, *, solver: Solver | None = None, **options: Any) -> dict[str, Any]:
    """``analyse`` of a deal in notation; ``DealError`` for a deal that is not one."""
    from engine.games.pyramid.cards import parse_deal

    return analyse(parse_deal(text), solver=solver, **options)
