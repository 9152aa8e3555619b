"""A simple legal player of Pymtheg deals, for simulation: a plausible auction, then card play.

Every board is an actual play of the deal: a random but plausible legal auction
(``auction``), then the contract played card by card (``play``). Randomness comes from the
``random.Random`` the caller passes, so the same seed gives the same board.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, cast

from engine.games.pymtheg.auction import BIDS, AuctionState, Bid, lowest_gam_above, parse_call
from engine.games.pymtheg.cards import Card, Deal, Seat, Suit
from engine.games.pymtheg.play import PlayResult, simulate_play
from engine.games.pymtheg.rulesets import get_ruleset

# A hand's strength is the sum of its ranks: 120 on average, spread about 15.
AVERAGE_STRENGTH = 120
STRENGTH_PER_TRICK = 6
AVERAGE_TEAM_TRICKS = 7.5
# Small chances that keep the auctions varied: a weak hand bids Ry, a good one names its
# trump in the bid, a defender doubles, the playing party redoubles.
RY_CHANCE = 0.25
RY_STRENGTH_BELOW = 108
ANNOUNCE_CHANCE = 0.3
DOUBLE_CHANCE = 0.08
REDOUBLE_CHANCE = 0.25
# A hand whose longest suit is this short plays no-trump.
NO_TRUMP_LONGEST = 4


@dataclass(frozen=True)
class PlayedBoard:
    """One simulated play of a deal: what North enters, and the play it came from."""

    facts: dict[str, Any]  # auctions, trump, double, tricks (the scorer's fields)
    contract: str | None  # None when passed out
    declarer: Seat | None
    trump: str | None  # the contract's trump: fire, earth, water, wind, nt; None for Ry
    play: PlayResult | None  # None when passed out

    @property
    def passed_out(self) -> bool:
        return self.contract is None


def _suit_lengths(hand: frozenset[Card]) -> dict[Suit, int]:
    lengths = dict.fromkeys(Suit, 0)
    for card in hand:
        lengths[card.suit] += 1
    return lengths


def preferred_trump(hand: frozenset[Card]) -> str:
    """The declarer's choice: its longest suit (the stronger on a tie), or no-trump when the
    hand is flat."""
    lengths = _suit_lengths(hand)
    longest = max(lengths.values())
    if longest <= NO_TRUMP_LONGEST:
        return "nt"
    strength = {suit: sum(c.rank for c in hand if c.suit == suit) for suit in Suit}
    best = max(Suit, key=lambda suit: (lengths[suit], strength[suit]))
    return best.label


def estimated_team_tricks(hand: frozenset[Card]) -> float:
    """A bidder's guess of its team's tricks from its own hand: 7.5 for an average hand, more
    for high cards and a long suit."""
    strength = sum(card.rank for card in hand)
    longest = max(_suit_lengths(hand).values())
    return (
        AVERAGE_TEAM_TRICKS
        + (strength - AVERAGE_STRENGTH) / STRENGTH_PER_TRICK
        + max(0, longest - 5) * 0.5
    )


def _choose_call(
    state: AuctionState, hand: frozenset[Card], rng: random.Random, second_auction: bool
) -> str:
    """A plausible legal call: the next Gâm when the hand looks good enough, sometimes a Ry
    from a weak hand, else pass."""
    legal = set(state.legal_calls())
    top = state.top_rank
    if _tries_ry(legal, top, hand, rng):
        return "R"
    gam = lowest_gam_above(top)
    if gam is None or gam.code not in legal:
        return "P"
    return _gam_call(gam, hand, rng, second_auction, over_ry=top == BIDS["R"].rank)


def _tries_ry(legal: set[str], top: int, hand: frozenset[Card], rng: random.Random) -> bool:
    """Now and then a Ry from a weak hand, when nothing higher has been bid."""
    strength = sum(card.rank for card in hand)
    return (
        "R" in legal
        and top < BIDS["R"].rank
        and strength < RY_STRENGTH_BELOW
        and rng.random() < RY_CHANCE
    )


def _gam_call(
    gam: Bid, hand: frozenset[Card], rng: random.Random, second_auction: bool, *, over_ry: bool
) -> str:
    """The next Gâm when the hand looks good enough (with a trump, on a strong one), else pass.
    Players count on their partner for about a trick, a little more in a second auction (a
    second pass-out is costly), and overbid a Ry (with its liability) only on a sure thing."""
    margin = 1.0 + (1.0 if second_auction else 0.0) - (1.5 if over_ry else 0.0)
    estimate = estimated_team_tricks(hand) + rng.gauss(0, 1.2)
    if estimate + margin < gam.required_tricks:
        return "P"
    if estimate - 1.0 >= gam.required_tricks and rng.random() < ANNOUNCE_CHANCE:
        return f"{gam.code}/{preferred_trump(hand)}"
    return gam.code


@dataclass(frozen=True)
class SimulatedAuction:
    calls: list[str]  # as the board record writes them, "N:G+1/fire"
    state: AuctionState  # the ended auction: its highest call is the contract

    @property
    def passed_out(self) -> bool:
        return self.state.passed_out


def simulate_auction(
    deal: Deal, opening: Seat, direction: str, rng: random.Random, second_auction: bool = False
) -> SimulatedAuction:
    """One complete legal auction, call by call through ``AuctionState``."""
    state = AuctionState.start(opening, direction)
    calls: list[str] = []
    while not state.ended:
        seat = state.order[state.turn]
        call = f"{seat.name}:{_choose_call(state, deal.hand(seat), rng, second_auction)}"
        state.apply(parse_call(call))
        calls.append(call)
    return SimulatedAuction(calls, state)


def _double(contract_rank: int, rng: random.Random) -> str:
    if rng.random() >= DOUBLE_CHANCE * (1 + contract_rank / 4):
        return "none"
    return "xx" if rng.random() < REDOUBLE_CHANCE else "x"


def _auctions(
    deal: Deal, opening: Seat, direction: str, ruleset: str, rng: random.Random
) -> list[SimulatedAuction]:
    """The auction, and a second one after a passed-out first where the ruleset holds one."""
    auctions = [simulate_auction(deal, opening, direction, rng)]
    if auctions[0].passed_out and get_ruleset(ruleset).second_auction:
        auctions.append(simulate_auction(deal, opening, direction, rng, second_auction=True))
    return auctions


def play_board(
    deal: Deal,
    *,
    opening: Seat,
    direction: str,
    ruleset: str,
    rng: random.Random,
) -> PlayedBoard:
    """Bid and play one deal. The facts are the board record fields North enters."""
    auctions = _auctions(deal, opening, direction, ruleset, rng)
    facts: dict[str, Any] = {"auctions": [auction.calls for auction in auctions]}
    final = auctions[-1].state.highest
    if final is None:
        return PlayedBoard(facts, None, None, None, None)
    # The highest call is always a bid.
    contract, declarer = cast(Bid, final.bid), final.seat
    trump = None
    if contract.family != "ry":
        trump = final.trump or preferred_trump(deal.hand(declarer))
        if final.trump is None:
            facts["trump"] = trump
    facts["double"] = _double(contract.rank, rng)
    play = simulate_play(
        deal, contract, declarer, trump, opening, direction, ruleset, rng, strategy="greedy"
    )
    facts["tricks"] = play.tricks_field()
    return PlayedBoard(facts, contract.code, declarer, trump, play)


def mistaken_entries(facts: dict[str, Any], contract: str | None) -> list[dict[str, Any]]:
    """Two wrong versions of North's entry of a board played in a Gâm-family ``contract`` (for
    a made-up dispute), each still a valid board record: the double misremembered, then one
    trick counted on the wrong side. None for any other board."""
    if contract is None or not contract.startswith("G"):
        return []
    wrong_double = {**facts, "double": "x" if facts["double"] == "none" else "none"}
    tricks = dict(facts["tricks"])
    giver = next(seat for seat in "ENWS" if tricks[seat] > 0)
    taker = {"E": "N", "W": "S", "N": "E", "S": "W"}[giver]
    wrong_tricks = {**tricks, giver: tricks[giver] - 1, taker: tricks[taker] + 1}
    return [wrong_double, {**wrong_double, "tricks": wrong_tricks}]
