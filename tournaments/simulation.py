"""Simulated play of a tournament: for the demo, tests and benchmarks.

Every simulated result is an actual play of the table's deal: a random but plausible legal
auction (``engine.auction``), then the contract played card by card (``engine.play``). The
entries go through the same services as the scorers' phones: North's team enters
(``scoring.services.submit_entry``) and East's team accepts (``accept_entry``); with a
dispute, East rejects twice and the director enters the result. So a simulated tournament
holds the same rows, history, log entries and standings as a played one.

Randomness comes from one seed: each board's play depends only on the seed, the round, the
table and the board, so the same seed always gives the same results whichever rounds are
simulated in one go.
"""

from __future__ import annotations

import random
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Count, Q

from engine.auction import BIDS, AuctionState, lowest_gam_above, parse_call
from engine.cards import Card, Deal, Seat, Suit
from engine.play import PlayResult, simulate_play
from engine.rulesets import get_ruleset
from scoring import services as scoring
from scoring import states
from scoring.errors import ScoringError
from scoring.models import Result
from scoring.services import board_state
from tournaments import services
from tournaments.models import Board, Match, Status, Tournament
from tournaments.services import ServiceError

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

REJECT_REASONS = (
    "Nobody doubled at our table.",
    "The trick count is wrong: we counted again with North.",
)
DIRECTOR_REASON = "Director: result established with both teams at the table (simulated)."

Progress = Callable[[int, int, str], None]


class SimulationError(Exception):
    """The tournament cannot be simulated now; ``messages`` lists every reason."""

    def __init__(self, messages: str | list[str]):
        self.messages = [messages] if isinstance(messages, str) else list(messages)
        super().__init__("; ".join(self.messages))


# --- one board -----------------------------------------------------------------------------


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


def board_rng(seed: str, round_number: int, table_number: int, board_number: int):
    """The random source of one board of one match (independent of every other board)."""
    return random.Random(f"{seed}:{round_number}:{table_number}:{board_number}")


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
    top = state.highest.bid.rank if state.highest else 0
    ry_rank = BIDS["R"].rank
    strength = sum(card.rank for card in hand)
    if "R" in legal and top < ry_rank and strength < RY_STRENGTH_BELOW and rng.random() < RY_CHANCE:
        return "R"
    gam = lowest_gam_above(top)
    if gam is None or gam.code not in legal:
        return "P"
    # Players count on their partner for about a trick, a little more in a second auction (a
    # second pass-out is costly), and overbid a Ry (with its liability) only on a sure thing.
    margin = 1.0 + (1.0 if second_auction else 0.0) - (1.5 if top == ry_rank else 0.0)
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
    """One complete legal auction, call by call through ``engine.auction.AuctionState``."""
    state = AuctionState.start(opening, direction)
    calls: list[str] = []
    while not state.ended:
        seat = state.next_seat
        call = f"{seat.name}:{_choose_call(state, deal.hand(seat), rng, second_auction)}"
        state.apply(parse_call(call))
        calls.append(call)
    return SimulatedAuction(calls, state)


def _double(contract_rank: int, rng: random.Random) -> str:
    if rng.random() >= DOUBLE_CHANCE * (1 + contract_rank / 4):
        return "none"
    return "xx" if rng.random() < REDOUBLE_CHANCE else "x"


def play_board(
    deal: Deal,
    *,
    opening: Seat,
    direction: str,
    ruleset: str,
    rng: random.Random,
) -> PlayedBoard:
    """Bid and play one deal. The facts are the board record fields North enters."""
    auctions = [simulate_auction(deal, opening, direction, rng)]
    if auctions[0].passed_out and get_ruleset(ruleset).second_auction:
        auctions.append(simulate_auction(deal, opening, direction, rng, second_auction=True))
    facts: dict[str, Any] = {"auctions": [auction.calls for auction in auctions]}
    final = auctions[-1].state.highest
    if final is None:
        return PlayedBoard(facts, None, None, None, None)
    contract, declarer = final.bid, final.seat
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


def play_board_of(match: Match, board: Board, seed: str) -> PlayedBoard:
    """The simulated play of ``board`` by ``match`` (the same seed gives the same play)."""
    tournament = match.table.tournament
    return play_board(
        board.parsed(),
        opening=tournament.opening_seat_for(match.table.number),
        direction=tournament.direction,
        ruleset=tournament.ruleset,
        rng=board_rng(seed, match.round, match.table.number, board.number),
    )


def mistaken_entries(played: PlayedBoard) -> list[dict[str, Any]]:
    """Two wrong versions of North's entry of a Gâm-family board (for a dispute), each still a
    valid board record: the double misremembered, then one trick counted on the wrong side."""
    if played.contract is None or not played.contract.startswith("G"):
        raise ValueError("only a played Gâm-family board is given a made-up dispute")
    facts = played.facts
    wrong_double = {**facts, "double": "x" if facts["double"] == "none" else "none"}
    tricks = dict(facts["tricks"])
    giver = next(seat for seat in "ENWS" if tricks[seat] > 0)
    taker = {"E": "N", "W": "S", "N": "E", "S": "W"}[giver]
    wrong_tricks = {**tricks, giver: tricks[giver] - 1, taker: tricks[taker] + 1}
    return [wrong_double, {**wrong_double, "tricks": wrong_tricks}]


# --- a tournament ----------------------------------------------------------------------------


@dataclass
class Dispute:
    round: int
    table: int
    board: int
    match_id: int
    rejections: int


@dataclass
class SimulationReport:
    seed: str
    rounds: list[int] = field(default_factory=list)
    matches: int = 0
    boards: int = 0
    passed_out: int = 0
    made: int = 0
    dispute: Dispute | None = None
    started: bool = False

    @property
    def nothing_to_play(self) -> bool:
        return not self.rounds


def _check_playable(tournament: Tournament) -> None:
    if tournament.status == Status.DRAFT:
        raise SimulationError(
            f"{tournament.slug} is a draft: draw up the schedule and deal the boards first"
        )
    if tournament.status == Status.FINAL:
        raise SimulationError(f"{tournament.slug} is final: reopen it before playing more")
    missing = Board.objects.filter(table__tournament=tournament).count()
    wanted = tournament.tables.count() * tournament.boards_per_table
    if missing < wanted:
        raise SimulationError(
            f"{tournament.slug}: {wanted - missing} board(s) have no deal yet; deal them first"
        )


def _start_if_scheduled(tournament: Tournament, by: Any) -> bool:
    if tournament.status != Status.SCHEDULED:
        return False
    try:
        services.start_tournament(by=by, tournament=tournament)
    except ServiceError as exc:
        raise SimulationError(["cannot start the tournament:", *exc.messages]) from None
    tournament.refresh_from_db()
    return True


def rounds_to_play(tournament: Tournament) -> list[int]:
    """Rounds holding a match with a board that has no current result, earliest first."""
    boards = tournament.boards_per_table
    matches = Match.objects.filter(table__tournament=tournament).annotate(
        done=Count("results", filter=Q(results__current=True))
    )
    return sorted({match.round for match in matches if match.done < boards})


def _open_boards(tournament: Tournament, round_number: int) -> list[tuple[Match, Board]]:
    matches = (
        Match.objects.filter(table__tournament=tournament, round=round_number)
        .select_related("table__tournament", "ns_team", "ew_team")
        .order_by("table__number")
    )
    done = set(
        Result.objects.filter(match__in=matches, current=True).values_list("match_id", "board_id")
    )
    pairs = []
    for match in matches:
        for board in match.table.boards.order_by("number"):
            if (match.pk, board.pk) not in done:
                pairs.append((match, board))
    return pairs


def _client_id() -> str:
    return f"sim-{uuid.uuid4().hex}"


def _enter_and_accept(match: Match, board: Board, facts: dict[str, Any]) -> Result:
    submission = scoring.submit_entry(
        match_id=match.pk,
        board_number=board.number,
        team=match.ns_team,
        facts=facts,
        client_id=_client_id(),
    )
    return _accept(match, board, submission.pk)


def _accept(match: Match, board: Board, submission_id: int) -> Result:
    return scoring.accept_entry(
        match_id=match.pk,
        board_number=board.number,
        team=match.ew_team,
        submission_id=submission_id,
        client_id=_client_id(),
    )


def _director_enters(match: Match, board: Board, facts: dict[str, Any], director: Any) -> Result:
    return scoring.director_enter_result(
        match_id=match.pk,
        board_number=board.number,
        user=director,
        facts=facts,
        reason=DIRECTOR_REASON,
        client_id=_client_id(),
    )


def play_disputed(match: Match, board: Board, played: PlayedBoard, director: Any) -> Dispute:
    """North enters a mistake, East rejects; North corrects it wrongly, East rejects again (the
    board is disputed); the director enters what was played."""
    rejections = 0
    for wrong, reason in zip(mistaken_entries(played), REJECT_REASONS, strict=True):
        submission = scoring.submit_entry(
            match_id=match.pk,
            board_number=board.number,
            team=match.ns_team,
            facts=wrong,
            client_id=_client_id(),
        )
        scoring.reject_entry(
            match_id=match.pk,
            board_number=board.number,
            team=match.ew_team,
            submission_id=submission.pk,
            reason=reason,
            client_id=_client_id(),
        )
        rejections += 1
    _director_enters(match, board, played.facts, director)
    return Dispute(match.round, match.table.number, board.number, match.pk, rejections)


def _settle(match: Match, board: Board, played: PlayedBoard, director: Any) -> None:
    """Bring one board to a result from whatever state real scorers left it in."""
    current = board_state(match, board)
    if current.state in (states.EMPTY, states.RETURNED):
        _enter_and_accept(match, board, played.facts)
    elif current.state == states.AWAITING_EAST:
        _accept(match, board, current.pending.pk)
    elif current.state == states.DISPUTED:
        _director_enters(match, board, played.facts, director)


def simulate_tournament(
    tournament: Tournament,
    *,
    rounds: int | None = 1,
    seed: str | None = None,
    dispute: bool = False,
    by: Any = None,
    progress: Progress | None = None,
) -> SimulationReport:
    """Play the earliest ``rounds`` rounds that still lack results (``None``: every round).

    A scheduled tournament is started first (as its organiser would). With ``dispute`` one
    board of the first round played goes through the dispute path; ``by`` is the director
    (and the organiser named in the log), None for the command line.
    """
    if rounds is not None and rounds < 1:
        raise SimulationError("the number of rounds must be at least 1")
    tournament = Tournament.objects.get(pk=tournament.pk)
    _check_playable(tournament)
    report = SimulationReport(seed=seed or secrets.token_hex(4))
    report.started = _start_if_scheduled(tournament, by)
    chosen = rounds_to_play(tournament)
    report.rounds = chosen if rounds is None else chosen[:rounds]
    work = {number: _open_boards(tournament, number) for number in report.rounds}
    total = sum(len(pairs) for pairs in work.values())
    done = 0
    for number in report.rounds:
        # One transaction a round: the standings follow once per round, not once per board.
        with transaction.atomic():
            for match, board in work[number]:
                played = play_board_of(match, board, report.seed)
                try:
                    if dispute and report.dispute is None and _disputable(match, board, played):
                        report.dispute = play_disputed(match, board, played, by)
                    else:
                        _settle(match, board, played, by)
                except ScoringError as exc:
                    raise SimulationError(
                        f"round {match.round}, table {match.table.number}, board "
                        f"{board.number}: {exc}"
                    ) from None
                report.boards += 1
                report.passed_out += played.passed_out
                report.made += _made(match, board)
                done += 1
                if progress is not None:
                    progress(done, total, f"round {number}, table {match.table.number}")
        report.matches += len({match.pk for match, _board in work[number]})
    return report


def _disputable(match: Match, board: Board, played: PlayedBoard) -> bool:
    return (
        played.contract is not None
        and played.contract.startswith("G")
        and board_state(match, board).state == states.EMPTY
    )


def _made(match: Match, board: Board) -> bool:
    result = Result.objects.filter(match=match, board=board, current=True).first()
    if result is None or result.submission is None:
        return False
    return bool(result.submission.score.get("made"))
