"""The par of a Pymtheg deal: the contract(s) and score that neither team can improve on by
bidding on, when all four players see every card (docs/double-dummy.md, "Par").

Par is read from the deal's double-dummy table (``solver.analyse`` or the job's
``combine``): the 20 trick numbers and which Ry, Ry 2, Ry 3 and Lon contracts each seat makes.
It is the value of the auction played perfectly under the tournament's rules (RULES.md §2-3):

- the opening seat calls first and the calls go round in the direction of play; a player who
  passes is out for good, so a team that wants the last word has to keep bidding;
- a bid outranks the highest so far, a Gâm-family bid is the lowest Gâm above it; the Gâm
  over an opponent's Ry carries the Ry's value as liability until the Ry team bids again;
- each bidder picks, among the bids of one rank, the one best for his team (the trump named in
  the bid or after the auction, whichever scores more), and after the auction the defenders
  double exactly the contracts that lose points (a made contract doubled would be redoubled);
- every player calls what is best for his own team's table result. A passed-out auction is
  the worst for both teams: under ``manual-2016`` it costs each team 100 and the same auction
  is held again (a second pass-out: -5000 each), under ``rules-1709`` it ranks last.

The table does not hold how many tricks a lost Ry 2's partner would take before the bidder
is forced to win one, so a lost Ry 2 is counted at its least loss (the partner none). A call
that is not chosen at that least loss is not chosen at a greater one either, so par is exact
unless a lost Ry 2 is itself part of it; ``Par.exact`` says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.messages import Words, joined, words
from engine.games.pymtheg.auction import BID_WORDS, BIDS, RY_LIABILITY, Bid, lowest_gam_above
from engine.games.pymtheg.cards import SEATS, Seat, seat_order
from engine.games.pymtheg.records import TOTAL_TRICKS, BoardRecord, Options
from engine.games.pymtheg.rulesets import OPTION_NAMES, Ruleset, get_ruleset
from engine.games.pymtheg.scoring import gam_score, lon_score, ry_score
from engine.games.pymtheg.solver import STRAINS
from engine.games.pymtheg.words import DOUBLE_WORDS, SEAT_NAMES, TEAM_WORDS, TRUMP_WORDS

#: The bids by rank, 1 (Gâm) to 11 (Lon).
LADDER: tuple[Bid, ...] = tuple(sorted(BIDS.values(), key=lambda bid: bid.rank))
#: What a passed-out auction is worth to a team where it ranks below every result.
WORST = float("-inf")


@dataclass(frozen=True)
class ParContract:
    """One contract of the par: ``bid`` (``G`` … ``L``), ``trump`` (None for Ry),
    ``announced`` ("during" the auction, "after" it; None for Ry), ``double`` ("none" or
    "x"), ``made`` and ``score`` (the declarer's team's, doubling included)."""

    declarer: str
    bid: str
    trump: str | None
    announced: str | None
    double: str
    made: bool
    score: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "declarer": self.declarer,
            "bid": self.bid,
            "trump": self.trump,
            "announced": self.announced,
            "double": self.double,
            "made": self.made,
            "score": self.score,
        }


@dataclass(frozen=True)
class Par:
    """``ns`` and ``ew``: each team's table result at par; ``contracts``: every contract a
    perfect auction may end in (they all score the same); ``second_auction``: the first
    auction is passed out (``manual-2016``'s -100 each included); ``exact``: False when a lost
    Ry 2 is part of it (counted at its least loss)."""

    ns: float
    ew: float
    contracts: tuple[ParContract, ...]
    second_auction: bool = False
    exact: bool = True

    def as_dict(self) -> dict[str, Any]:
        return {
            "ns": self.ns,
            "ew": self.ew,
            "contracts": [contract.as_dict() for contract in self.contracts],
            "second_auction": self.second_auction,
            "exact": self.exact,
        }


# -- what each contract is worth --------------------------------------------------------------


def _doubled(score: int) -> int:
    """The score after the double stage: a losing contract is doubled (and not redoubled), a
    winning one left alone (a double would be redoubled)."""
    return score * 2 if score < 0 else score


def _terms(ruleset: Ruleset, options: Options, trump: str | None, announced: str | None):
    """A record holding only what the scoring functions read for a contract's score."""
    return BoardRecord(
        ruleset=ruleset,
        options=options,
        opening=Seat.N,
        direction="clockwise",
        auctions=(),
        trump=trump,
        announced=announced,
        double="none",
        seat_tricks=None,
        team_tricks=None,
        revoke=None,
        illegal_trump=None,
    )


Variants = tuple[int, tuple[ParContract, ...]]


def _best(
    declarer: str, bid: Bid, outcomes: Sequence[tuple[str | None, str | None, int, bool]]
) -> Variants:
    """The best of a bid's ways to be played (trump, announced, score, made): its value and
    every way that reaches it."""
    scored = [(_doubled(score), trump, when, made) for trump, when, score, made in outcomes]
    value = max(item[0] for item in scored)
    ways = tuple(
        ParContract(declarer, bid.code, trump, when, "x" if value < 0 else "none", made, value)
        for score, trump, when, made in scored
        if score == value
    )
    return value, ways


def _gam(table, seat: str, bid: Bid, liability: int, terms: Mapping[tuple[str, str], Any]):
    outcomes = []
    for (strain, when), record in terms.items():
        score, made = gam_score(record, bid, table["tricks"][strain][seat], liability)
        outcomes.append((strain, when, score, made))
    return _best(seat, bid, outcomes)


def _ry(table, seat: str, bid: Bid, ruleset: Ruleset):
    """A Ry contract; a lost one with the partner's tricks at none (its least loss)."""
    made_by = table["contracts"][seat]
    partner = made_by["R2"]
    won = bool(made_by["R3"]) if bid.code == "R3" else partner is not None
    partner_tricks = 0 if bid.code == "R3" or not won else int(partner)
    return _best(seat, bid, [(None, None, ry_score(ruleset, bid, won, partner_tricks), won)])


def _lon(table, seat: str, bid: Bid, terms: Mapping[tuple[str, str], Any]):
    outcomes = []
    for (strain, when), record in terms.items():
        won = strain in table["contracts"][seat]["L"]
        opponents = TOTAL_TRICKS - table["tricks"][strain][seat]
        outcomes.append((strain, when, lon_score(record, won, opponents), won))
    return _best(seat, bid, outcomes)


def contract_values(
    table: Mapping[str, Any], ruleset: Ruleset, options: Options
) -> dict[tuple[str, str, int], Variants]:
    """``{(declarer, bid code, liability): (value for the declarer's team, the ways to reach
    it)}``; the liability is 0 but for Gâm-family bids, which have one entry per Ry value."""
    values: dict[tuple[str, str, int], Variants] = {}
    terms = {
        (strain, when): _terms(ruleset, options, strain, when)
        for strain in STRAINS
        for when in ("during", "after")
    }
    for seat in (seat.name for seat in SEATS):
        for bid in LADDER:
            if bid.family == "gam":
                for amount in (0, *sorted(set(RY_LIABILITY.values()))):
                    values[seat, bid.code, amount] = _gam(table, seat, bid, amount, terms)
            elif bid.family == "ry":
                values[seat, bid.code, 0] = _ry(table, seat, bid, ruleset)
            else:
                values[seat, bid.code, 0] = _lon(table, seat, bid, terms)
    return values


def _bids_above(top: int) -> tuple[int, ...]:
    """The ranks that may be bid over a highest bid of rank ``top`` (0: none yet)."""
    gam = lowest_gam_above(top)
    return tuple(
        bid.rank for bid in LADDER if bid.rank > top and (bid.family != "gam" or bid == gam)
    )


_BIDS_ABOVE = {top: _bids_above(top) for top in range(len(LADDER) + 1)}


# -- the auction played perfectly -------------------------------------------------------------

# A position of the auction: (top rank, highest bidder, passed players as bits, player to call,
# liable team (0 the opening seat's, 1 the other, -1 none), liability amount, second auction).
# Players are indexes in calling order from the opening seat; a team is an index's parity.
State = tuple[int, int, int, int, int, int, bool]
Payoff = tuple[float, float]  # (the opening seat's team, the other team)


class _Auction:
    """The auction's game tree over ranks, memoised: the bidder's best bid of a rank is
    fixed by ``contract_values``, so a position is its rank, not its call."""

    def __init__(
        self, order: tuple[Seat, ...], values: Mapping[tuple[str, str, int], Variants], rules
    ):
        self.names = [seat.name for seat in order]
        self.values = values
        self.rules = rules
        self.memo: dict[State, Payoff] = {}

    # moves ---------------------------------------------------------------------------------

    @staticmethod
    def bids(top: int) -> tuple[int, ...]:
        return _BIDS_ABOVE[top]

    def after(self, state: State, rank: int | None) -> State | Payoff:
        """The position after the player to call passes (``rank`` None) or bids ``rank``, or
        the payoff if that ends the auction."""
        top, bidder, passed, turn, liable, amount, second = state
        if rank is None:
            passed |= 1 << turn
        else:
            liable, amount = self._liability(top, bidder, turn, rank, liable, amount)
            top, bidder = rank, turn
        passes = bin(passed).count("1")
        if top and passes == 3:
            return self.contract(bidder, top, liable, amount, second)
        if passes == 4:
            return self.passed_out(second)
        turn = next(p for p in ((turn + step) % 4 for step in (1, 2, 3, 4)) if not passed >> p & 1)
        return (top, bidder, passed, turn, liable, amount, second)

    @staticmethod
    def _liability(top: int, bidder: int, caller: int, rank: int, liable: int, amount: int):
        team = caller % 2
        if liable >= 0 and team != liable:
            liable, amount = -1, 0  # the Ry team bid again: cleared
        over = LADDER[top - 1] if top else None
        if (
            over is not None
            and over.family == "ry"
            and bidder % 2 != team
            and LADDER[rank - 1].family == "gam"
        ):
            liable, amount = team, RY_LIABILITY[over.code]
        return liable, amount

    # payoffs -------------------------------------------------------------------------------

    def contract_key(self, bidder: int, top: int, liable: int, amount: int):
        bid = LADDER[top - 1]
        owed = amount if bid.family == "gam" and liable == bidder % 2 else 0
        return self.names[bidder], bid.code, owed

    def contract(self, bidder: int, top: int, liable: int, amount: int, second: bool) -> Payoff:
        value = self.values[self.contract_key(bidder, top, liable, amount)][0]
        charge = self.rules.first_passed_out_charge if second else 0
        mine, theirs = value + charge, -value + charge
        return (mine, theirs) if bidder % 2 == 0 else (theirs, mine)

    def passed_out(self, second: bool) -> Payoff:
        if not self.rules.second_auction:
            return (WORST, WORST)
        if second:
            result = self.rules.second_passed_out_result
            return (result, result)
        return self.value(self.root(second=True))

    @staticmethod
    def root(second: bool = False) -> State:
        return (0, -1, 0, 0, -1, 0, second)

    # search --------------------------------------------------------------------------------

    def moves(self, state: State) -> list[tuple[int | None, State | Payoff]]:
        return [(rank, self.after(state, rank)) for rank in (*self.bids(state[0]), None)]

    def outcome(self, next_: State | Payoff) -> Payoff:
        return self.value(next_) if len(next_) == 7 else next_

    def value(self, state: State) -> Payoff:
        known = self.memo.get(state)
        if known is not None:
            return known
        team = state[3] % 2
        # Ties go to the first of the moves: bids before the pass.
        best = max((self.outcome(next_) for _, next_ in self.moves(state)), key=lambda p: p[team])
        self.memo[state] = best
        return best

    def best_moves(self, state: State) -> list[tuple[int | None, State | Payoff]]:
        """Every call that reaches the position's value, with what it leads to."""
        target = self.value(state)
        return [(rank, next_) for rank, next_ in self.moves(state) if self.outcome(next_) == target]

    def final_contract(self, state: State, rank: int | None) -> tuple[str, str, int]:
        """The contract a call that ends the auction leaves."""
        top, bidder, _, turn, liable, amount, _ = state
        if rank is not None:
            liable, amount = self._liability(top, bidder, turn, rank, liable, amount)
            top, bidder = rank, turn
        return self.contract_key(bidder, top, liable, amount)


def _par_contracts(auction: _Auction) -> tuple[set[tuple[str, str, int]], bool]:
    """The contracts every line of perfect calls may end in, and whether one of them passes
    the first auction out."""
    found: set[tuple[str, str, int]] = set()
    second = False
    seen: set[State] = set()
    todo = [auction.root()]
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        for rank, next_ in auction.best_moves(state):
            if len(next_) == 7:
                todo.append(next_)
            elif rank is not None or state[0]:
                found.add(auction.final_contract(state, rank))
            elif not state[6]:
                second = True
                todo.append(auction.root(second=True))
    return found, second


def ruleset_options(settings: Mapping[str, Any]) -> Options:
    """The house rules of a tournament's settings (absent ones 0)."""
    return Options(**{name: int(settings.get(name) or 0) for name in OPTION_NAMES})


def par(table: Mapping[str, Any], options: Options | None = None) -> Par:
    """The par of a whole double-dummy table (``tricks``, ``contracts``, ``opening``,
    ``direction`` and ``ruleset`` as ``solver.analyse`` gives them) under the house rules
    ``options``."""
    ruleset = get_ruleset(table["ruleset"])
    options = options or Options()
    values = contract_values(table, ruleset, options)
    order = seat_order(Seat[table["opening"]], table["direction"])
    auction = _Auction(order, values, ruleset)
    first, other = auction.value(auction.root())
    keys, second = _par_contracts(auction)
    contracts = tuple(way for key in sorted(keys, key=_contract_order) for way in values[key][1])
    opening_team = order[0].team
    ns, ew = (first, other) if opening_team == "NS" else (other, first)
    exact = not any(c.bid == "R2" and not c.made for c in contracts)
    return Par(ns=ns, ew=ew, contracts=contracts, second_auction=second, exact=exact)


def _contract_order(key: tuple[str, str, int]) -> tuple[int, int]:
    return BIDS[key[1]].rank, "NESW".index(key[0])


# -- in words ---------------------------------------------------------------------------------


def _either(names: list[Any]) -> Any:
    """ "North, East or South", each name translated on its own."""
    if len(names) == 1:
        return names[0]
    return words("%(names)s or %(last)s", names=joined(names[:-1], ", "), last=names[-1])


def _contract_words(bid: str, who: Any, announced: str | None, strains: list[str]) -> Words:
    text = words("%(bid)s by %(who)s", bid=BID_WORDS[bid], who=who)
    if strains:
        trumps = _either([TRUMP_WORDS[strain] for strain in strains])
        if announced == "during":
            return words("%(contract)s, %(trumps)s named in the bid", contract=text, trumps=trumps)
        return words(
            "%(contract)s, %(trumps)s named after the auction", contract=text, trumps=trumps
        )
    return text


def _par_score_words(result: Par) -> Words:
    """The par score: the team that scores and its score, or the score each team has."""
    if result.ns > result.ew:
        return Words("%(team)s %(score)s", {"team": TEAM_WORDS["NS"], "score": f"{result.ns:+g}"})
    if result.ew > result.ns:
        return Words("%(team)s %(score)s", {"team": TEAM_WORDS["EW"], "score": f"{result.ew:+g}"})
    return words("%(score)s to each team", score=f"{result.ns:+g}")


def _contract_groups(result: Par) -> dict[tuple, list[str]]:
    """The par contracts grouped by ``(bid, announced, double, made)``, in the order they
    come, each with its trumps (in the order they come, each once)."""
    groups: dict[tuple, list[str]] = {}
    for contract in result.contracts:
        key = (contract.bid, contract.announced, contract.double, contract.made)
        groups.setdefault(key, [])
        if contract.trump and contract.trump not in groups[key]:
            groups[key].append(contract.trump)
    return groups


def _contract_line(result: Par, key: tuple, trumps: list[str]) -> Words:
    """One group of par contracts in words: the bid, its declarers (either of them), its
    trumps, the double, made or lost."""
    bid, announced, double, made = key
    declarers = [
        SEAT_NAMES[c.declarer]
        for c in result.contracts
        if (c.bid, c.announced, c.double, c.made) == key
    ]
    who = _either(list(dict.fromkeys(declarers)))
    bid_words = _contract_words(bid, who, announced, trumps)
    played = Words(
        "%(contract)s%(double)s", {"contract": bid_words, "double": DOUBLE_WORDS[double]}
    )
    if made:
        return words("%(contract)s, made", contract=played)
    return words("%(contract)s, lost", contract=played)


def par_in_words(result: Par) -> Words:
    """ "Par: North–South +90: Gâm +3 by North or South, Fire named in the bid, made" (the
    engine's words, translated by the pages)."""
    groups = _contract_groups(result)
    lines = [_contract_line(result, key, trumps) for key, trumps in groups.items()]
    text = words("Par: %(score)s", score=_par_score_words(result))
    if result.second_auction:
        text = words("%(par)s after a passed-out first auction", par=text)
    if lines:
        contracts = lines[0]
        for line in lines[1:]:
            contracts = words("%(contracts)s; or %(contract)s", contracts=contracts, contract=line)
        text = words("%(par)s: %(contracts)s", par=text, contracts=contracts)
    if not result.exact:
        text = words("%(par)s (a lost Ry 2 counted at its least loss)", par=text)
    return text
