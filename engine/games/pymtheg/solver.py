"""Double-dummy analysis of a Pymtheg deal (docs/double-dummy.md): what each contract makes when
all four players see every card and play their best.

- ``tricks_table``: for each strain (four suits and no-trump) and declarer, the tricks the
  declarer's team takes. The opening seat leads the first trick whoever declares (the rules'
  opening seat, North unless the tournament says otherwise), so a table is five searches: the
  team's tricks per strain, and each declarer's number is his team's.
- ``tricks_by_opening``: the same table for each of the four possible opening seats.
- ``ry_lon_table``: for each seat, whether a Ry, Ry 2 or Ry 3 it bids is made (the bidder, or
  for Ry 3 the team, takes no trick; for Ry 2 also the partner's tricks), and in which strains
  a Lon is made (the declarer alone takes all fifteen tricks).

The play follows the ruleset: with ``undertrump_allowed`` false a player who cannot follow may
not under-trump (docs/play.md). The direction of play only changes who plays after whom.
"""

from __future__ import annotations

from typing import Any

from engine.games.pymtheg.cards import CARDS_PER_HAND, SEATS, Deal, Seat, Suit, seat_order
from engine.games.pymtheg.rulesets import DEFAULT_RULESET, Ruleset, get_ruleset
from engine.solver import PlayRules, Solver, hand_mask

#: The strains in table order, as records name them.
STRAINS = ("fire", "earth", "water", "wind", "nt")
#: Ry contracts are played without a trump.
RY_CONTRACTS = ("R", "R2", "R3")


def _ruleset(ruleset: Ruleset | str) -> Ruleset:
    return ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)


def _order(direction: str) -> tuple[Seat, ...]:
    """The seats in play order from North: N E S W clockwise, N W S E counter-clockwise."""
    return seat_order(Seat.N, direction)


def solver_hands(deal: Deal, direction: str = "clockwise") -> tuple[int, ...]:
    """The four hands as solver masks in play order from North (rank 1 is index 0)."""
    return tuple(
        hand_mask((int(card.suit), card.rank - 1) for card in deal.hand(seat))
        for seat in _order(direction)
    )


def _rules(strain: int | None, ruleset: Ruleset) -> PlayRules:
    return PlayRules(trump=strain, undertrump=ruleset.undertrump_allowed)


def _strain_rules(strain: str, ruleset: Ruleset) -> PlayRules:
    index = STRAINS.index(strain)
    return _rules(None if index == 4 else index, ruleset)


def team_tricks(
    deal: Deal,
    strain: str,
    *,
    opening: Seat = Seat.N,
    direction: str = "clockwise",
    ruleset: Ruleset | str = DEFAULT_RULESET,
    solver: Solver | None = None,
    guess: int | None = None,
) -> int:
    """North-South's tricks in ``strain`` with ``opening`` leading, best play by all four."""
    solver = solver or Solver()
    order = _order(direction)
    return solver.side_tricks(
        solver_hands(deal, direction),
        {0, 2},
        leader=order.index(opening),
        rules=_strain_rules(strain, _ruleset(ruleset)),
        guess=guess,
    )


def _by_declarer(ns: dict[str, int]) -> dict[str, dict[str, int]]:
    return {
        strain: {
            seat.name: ns[strain] if seat.team == "NS" else CARDS_PER_HAND - ns[strain]
            for seat in SEATS
        }
        for strain in STRAINS
    }


def tricks_table(
    deal: Deal,
    *,
    opening: Seat = Seat.N,
    direction: str = "clockwise",
    ruleset: Ruleset | str = DEFAULT_RULESET,
    solver: Solver | None = None,
) -> dict[str, dict[str, int]]:
    """``{strain: {declarer: tricks of his team}}`` with ``opening`` leading the first trick."""
    solver = solver or Solver()
    ns = {
        strain: team_tricks(
            deal, strain, opening=opening, direction=direction, ruleset=ruleset, solver=solver
        )
        for strain in STRAINS
    }
    return _by_declarer(ns)


def tricks_by_opening(
    deal: Deal,
    *,
    direction: str = "clockwise",
    ruleset: Ruleset | str = DEFAULT_RULESET,
    solver: Solver | None = None,
) -> dict[str, dict[str, dict[str, int]]]:
    """``{opening seat: tricks_table}`` for the four possible opening seats (20 searches); the
    four openings of a strain share the solver's table."""
    solver = solver or Solver()
    rules_set = _ruleset(ruleset)
    hands = solver_hands(deal, direction)
    order = _order(direction)
    ns: dict[Seat, dict[str, int]] = {seat: {} for seat in SEATS}
    for strain in STRAINS:
        by_leader = solver.leaders_table(hands, {0, 2}, _strain_rules(strain, rules_set))
        for index, seat in enumerate(order):
            ns[seat][strain] = by_leader[index]
    return {seat.name: _by_declarer(ns[seat]) for seat in SEATS}


def ry_lon_table(
    deal: Deal,
    *,
    opening: Seat = Seat.N,
    direction: str = "clockwise",
    ruleset: Ruleset | str = DEFAULT_RULESET,
    solver: Solver | None = None,
    tricks: dict[str, dict[str, int]] | None = None,
) -> dict[str, dict[str, Any]]:
    """For each seat as bidder: ``R`` and ``R3`` made or not, ``R2`` the partner's tricks when
    made (None when lost), ``L`` the strains in which a Lon is made.

    ``tricks`` (this deal's ``tricks_table`` for the same opening) saves the searches it
    answers: a team one short of fifteen in a strain cannot make Lon there. Ry 3 is a search
    of its own: a team that cannot take a trick when it tries may still be made to take one
    when it tries not to (the defenders give it the lead), and the other way round.
    """
    solver = solver or Solver()
    rules_set = _ruleset(ruleset)
    if tricks is None:
        tricks = tricks_table(
            deal, opening=opening, direction=direction, ruleset=rules_set, solver=solver
        )
    hands = solver_hands(deal, direction)
    order = _order(direction)
    leader = order.index(opening)
    nt = _rules(None, rules_set)
    ry3 = {
        team: ry3_made(solver, hands, order.index(first), leader=leader, rules=nt)
        for team, first in (("NS", Seat.N), ("EW", Seat.E))
    }
    result: dict[str, dict[str, Any]] = {}
    for seat in SEATS:
        bidder = order.index(seat)
        ry2 = ry_partner_tricks(
            solver, hands, bidder, leader=leader, rules=nt, guess=tricks["nt"][seat.name]
        )
        ry = ry2 is not None
        lon: list[str] = []
        for strain in STRAINS:
            if tricks[strain][seat.name] < CARDS_PER_HAND:
                continue
            if takes_all_alone(solver, hands, bidder, leader, _strain_rules(strain, rules_set)):
                lon.append(strain)
        result[seat.name] = {
            "R": ry,
            "R2": ry2,
            "R3": ry3[seat.team],
            "L": lon,
        }
    return result


def takes_all_alone(
    solver: Solver, hands: tuple[int, ...], bidder: int, leader: int, rules: Any
) -> bool:
    """Whether the bidder takes every trick himself, his partner helping (Lon)."""
    weights = [0, 0, 0, 0]
    weights[bidder] = 1
    alone = solver.value(
        hands,
        leader=leader,
        weights=weights,
        maximisers={bidder, (bidder + 2) % 4},
        rules=rules,
        lo=CARDS_PER_HAND - 1,
    )
    return alone == CARDS_PER_HAND


def ry3_made(
    solver: Solver, hands: tuple[int, ...], player: int, *, leader: int, rules: Any
) -> bool:
    """Whether the team of ``player`` (an index of ``hands``) takes no trick when it tries
    to take none and the opponents try to make it take one (a Ry 3 made)."""
    team = {player, (player + 2) % 4}
    weights = [1 if index in team else 0 for index in range(4)]
    opponents = {index for index in range(4) if index not in team}
    taken = solver.value(
        hands, leader=leader, weights=weights, maximisers=opponents, rules=rules, hi=1
    )
    return taken == 0


def ry_partner_tricks(
    solver: Solver,
    hands: tuple[int, ...],
    bidder: int,
    *,
    leader: int,
    rules: Any,
    guess: int | None = None,
) -> int | None:
    """A Ry by ``bidder`` (an index of ``hands``): None when the defenders can make him take a
    trick, else the fewest tricks his partner can be held to (what Ry 2 pays)."""
    partner = (bidder + 2) % 4
    opponents = {(bidder + 1) % 4, (bidder + 3) % 4}
    weights = [0, 0, 0, 0]
    weights[bidder] = 1
    taken = solver.value(
        hands, leader=leader, weights=weights, maximisers=opponents, rules=rules, hi=1
    )
    if taken != 0:
        return None
    # Made, so the bidder takes no trick and the value is the partner's tricks.
    weights[bidder], weights[partner] = 16, 1
    return solver.value(
        hands,
        leader=leader,
        weights=weights,
        maximisers=opponents,
        rules=rules,
        hi=CARDS_PER_HAND,
        guess=guess,
    )


def analyse(
    deal: Deal,
    *,
    opening: Seat = Seat.N,
    direction: str = "clockwise",
    ruleset: Ruleset | str = DEFAULT_RULESET,
    solver: Solver | None = None,
) -> dict[str, Any]:
    """A deal's double-dummy table as JSON: the trick table and the Ry and Lon contracts."""
    from engine.games.pymtheg.cards import format_deal

    solver = solver or Solver()
    rules_set = _ruleset(ruleset)
    tricks = tricks_table(
        deal, opening=opening, direction=direction, ruleset=rules_set, solver=solver
    )
    contracts = ry_lon_table(
        deal,
        opening=opening,
        direction=direction,
        ruleset=rules_set,
        solver=solver,
        tricks=tricks,
    )
    return {
        "deal": format_deal(deal),
        "opening": opening.name,
        "direction": direction,
        "ruleset": rules_set.name,
        "tricks": tricks,
        "contracts": contracts,
    }


__all__ = [
    "RY_CONTRACTS",
    "STRAINS",
    "analyse",
    "ry3_made",
    "ry_lon_table",
    "solver_hands",
    "team_tricks",
    "tricks_by_opening",
    "tricks_table",
]

# Suit order of the table is the engine's: fire, earth, water, wind.
assert tuple(suit.label for suit in Suit) == STRAINS[:4]


def solve_options(
    *, opening: str | None = None, direction: str | None = None, ruleset: str | None = None
) -> dict[str, Any]:
    """The command line's options checked: ``ValueError`` names a bad one."""
    direction = direction or "clockwise"
    seat_order(Seat.N, direction)
    try:
        rules = get_ruleset(ruleset or DEFAULT_RULESET)
    except KeyError as exc:
        raise ValueError(exc.args[0]) from None
    return {
        "opening": Seat.parse(opening) if opening else Seat.N,
        "direction": direction,
        "ruleset": rules,
    }


def analyse_text(text: str, *, solver: Solver | None = None, **options: Any) -> dict[str, Any]:
    """``analyse`` of a deal in notation; ``DealError`` for a deal that is not one."""
    from engine.games.pymtheg.cards import parse_deal

    return analyse(parse_deal(text), solver=solver, **options)
