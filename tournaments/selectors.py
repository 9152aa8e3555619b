"""Reading tournaments for the pages, the printed cards and the engine's validator.

Nothing here writes. ``schedule_data`` turns the stored matches into the engine's schedule
format (docs/formats.md section 5) so ``engine.schedule.check_schedule`` can list every broken rule.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max, Prefetch, QuerySet

from engine.core.seats import SEAT_LETTERS, SEAT_NAMES
from engine.schedule import check_schedule
from tournaments import room_selectors
from tournaments.models import (
    ActionLog,
    Board,
    Entrant,
    Match,
    MatchSeat,
    Status,
    Table,
    Tournament,
    seat_order,
)


def tournaments_overview() -> QuerySet[Tournament]:
    return Tournament.objects.annotate(
        entrant_count=Count("entrants", distinct=True), table_count=Count("tables", distinct=True)
    ).order_by("-created_at", "name")


def number_gaps(numbers: Iterable[int]) -> list[int]:
    """Numbers missing from 1..highest (teams and tables must be numbered without gaps)."""
    present = set(numbers)
    return sorted(set(range(1, max(present, default=0) + 1)) - present)


def entrants_with_status(tournament: Tournament) -> QuerySet[Entrant]:
    return tournament.entrants.select_related("disqualification").order_by("number")


SEATED = Prefetch(
    "seats", queryset=MatchSeat.objects.select_related("entrant").order_by(seat_order())
)


def tournament_matches(tournament: Tournament) -> QuerySet[Match]:
    """Every match with its table and entrants (players in their seats, for individuals)."""
    matches = (
        Match.objects.filter(table__tournament=tournament)
        .select_related("table", "north_entrant", "east_entrant")
        .order_by("round", "table__number")
    )
    return matches.prefetch_related(SEATED) if tournament.of_players else matches


def round_count(tournament: Tournament) -> int:
    return (
        Match.objects.filter(table__tournament=tournament).aggregate(top=Max("round"))["top"] or 0
    )


def schedule_data(tournament: Tournament) -> dict[str, Any]:
    """The stored schedule in the engine's format: teams and tables by number.

    A team that plays no match in a round has a bye in that round.
    """
    matches = list(tournament_matches(tournament))
    entrant_numbers = sorted(tournament.entrants.values_list("number", flat=True))
    rounds = max((match.round for match in matches), default=0)
    playing: dict[int, set[int]] = defaultdict(set)
    meetings: Counter[frozenset[int]] = Counter()
    for match in matches:
        playing[match.round] |= {match.north_entrant.number, match.east_entrant.number}
        meetings[frozenset((match.north_entrant.number, match.east_entrant.number))] += 1
    return {
        "teams": len(entrant_numbers),
        "tables": tournament.tables.count(),
        "rounds": rounds,
        "sides": tournament.side_mode,
        "matches": [
            {
                "round": match.round,
                "table": match.table.number,
                "ns": match.north_entrant.number,
                "ew": match.east_entrant.number,
            }
            for match in matches
        ],
        "byes": _byes(rounds, entrant_numbers, playing, "team"),
        "max_meetings": max(meetings.values(), default=0),
    }


def movement_data(tournament: Tournament) -> dict[str, Any]:
    """The stored movement of a game of individuals in the engine's format (players and
    tables by number); a player seated nowhere in a round has a bye in it."""
    seats = list(
        MatchSeat.objects.filter(match__table__tournament=tournament)
        .select_related("match__table", "entrant")
        .order_by("round", "match__table__number", seat_order())
    )
    player_numbers = sorted(tournament.entrants.values_list("number", flat=True))
    rounds = max((seat.round for seat in seats), default=0)
    seatings: dict[tuple[int, int], dict[str, int]] = {}
    playing: dict[int, set[int]] = defaultdict(set)
    for seat in seats:
        seatings.setdefault((seat.round, seat.match.table.number), {})[seat.seat] = (
            seat.entrant.number
        )
        playing[seat.round].add(seat.entrant.number)
    tables = max((table for _round, table in seatings), default=0)
    return {
        "players": len(player_numbers),
        **_table_shape(tournament, tables),
        "tables": tables,
        "rounds": rounds,
        "seatings": [
            {"round": round_number, "table": table, "seats": players}
            for (round_number, table), players in sorted(seatings.items())
        ],
        "byes": _byes(rounds, player_numbers, playing, "player"),
        "max_meetings": _most_meetings(seatings.values()),
    }


def _byes(
    rounds: int, numbers: list[int], playing: dict[int, set[int]], key: str
) -> list[dict[str, int]]:
    """Every round's byes: each entrant of ``numbers`` not ``playing`` in it, numbered under
    ``key``."""
    return [
        {"round": round_number, key: number}
        for round_number in range(1, rounds + 1)
        for number in numbers
        if number not in playing[round_number]
    ]


def _table_shape(tournament: Tournament, tables: int) -> dict[str, Any]:
    """The seats of the movement's tables: ``per_table`` when every table has the
    tournament's size; with tables of several sizes, each table's ``sizes`` (the engine's
    checker takes those instead)."""
    own = dict(tournament.tables.exclude(players=None).values_list("number", "players"))
    if not own:
        return {"per_table": tournament.table_size}
    return {"sizes": [own.get(number, tournament.table_size) for number in range(1, tables + 1)]}


def _most_meetings(seatings: Iterable[dict[str, int]]) -> int:
    """How often the two players who meet most sit at the same table."""
    meetings: Counter[frozenset[int]] = Counter()
    for players in seatings:
        numbers = sorted(players.values())
        meetings.update(frozenset((a, b)) for i, a in enumerate(numbers) for b in numbers[i + 1 :])
    return max(meetings.values(), default=0)


# What the validator says of the byes and free tables a late arrival or a withdrawal leaves:
# byes by the ruling (GAMES.md, "Real rooms"), not faults of the draw.
ROOM_CHANGE_FINDINGS = ("never plays table", "sits out", "no seating for table")


def schedule_problems(tournament: Tournament) -> list[str]:
    """Every rule the stored schedule breaks, from the engine's validator ([] when none);
    once the room has changed, less what the changes leave (``room_change_effects``)."""
    return _validated(tournament)[0]


def room_change_effects(tournament: Tournament) -> list[str]:
    """The validator's findings on the byes and free tables that late arrivals and
    withdrawals leave, in its words: shown as what the changes did, not as broken rules."""
    return _validated(tournament)[1]


def _validated(tournament: Tournament) -> tuple[list[str], list[str]]:
    if not Match.objects.filter(table__tournament=tournament).exists():
        return [], []
    if tournament.of_players:
        from engine.schedule import check_individual_schedule

        found = check_individual_schedule(movement_data(tournament))
    else:
        found = check_schedule(schedule_data(tournament))
    if not tournament.room_changes.exclude(kind="substitute").exists():
        return found, []
    effects = [p for p in found if any(words in p for words in ROOM_CHANGE_FINDINGS)]
    return [p for p in found if p not in effects], effects


def proposals(tournament: Tournament) -> dict[str, Any]:
    """The engine's proposals for the entrants on file (docs/schedule.md), best first, each
    marked ``drawable`` (tables of several sizes only under duplicate ranking, where the
    engine offers them), ``current`` (the tables and players at each table the tournament has
    now) and with ``size_groups`` (count, size)."""
    from engine.schedule.proposals import propose

    asked = {
        "ranking": tournament.ranking,
        "sides": tournament.side_mode,
    }
    found = propose(tournament.game, tournament.entrants.count(), **asked)
    tables_now = tournament.tables.count()
    sizes_now = [table.size for table in tournament.tables.select_related("tournament")]
    preselected = False
    for proposal in found["proposals"]:
        sizes = proposal["sizes"]
        proposal["one_size"] = len(set(sizes)) == 1
        proposal["drawable"] = proposal["one_size"] or tournament.ranking == "duplicate"
        proposal["preselected"] = proposal["drawable"] and not preselected
        preselected = preselected or proposal["drawable"]
        proposal["current"] = proposal["tables"] == tables_now and (
            not tournament.of_players or sorted(sizes) == sorted(sizes_now)
        )
        proposal.update(_proposal_figures(proposal))
    found["tables_now"] = tables_now
    return found


def _proposal_figures(proposal: dict[str, Any]) -> dict[str, Any]:
    """A proposal's figures as the pages show them: its tables grouped by size, its
    meetings, and each player's rounds at each size."""
    sizes = proposal["sizes"]
    most = proposal["max_meetings"]
    return {
        "size_groups": [(sizes.count(size), size) for size in sorted(set(sizes), reverse=True)],
        "meetings": {
            "most": most,
            "count": proposal["pairs_at_most"],
            "every_round": most > 1 and most == proposal["rounds"],
            "least": proposal["least_possible"],
        },
        "at_size": [
            (int(size), low, high)
            for size, (low, high) in proposal.get("rounds_at_size", {}).items()
        ],
    }


def schedule_meetings(tournament: Tournament) -> dict[str, Any] | None:
    """How often entrants meet in the stored schedule: the most two meet (``most``), how many
    couples meet that often (``count``), whether that is in every round, and whether no
    schedule of the same tables and rounds could do better (``least``); None without one."""
    from engine.schedule.proposals import count_figures, least_possible

    if not Match.objects.filter(table__tournament=tournament).exists():
        return None
    data = movement_data(tournament) if tournament.of_players else schedule_data(tournament)
    entrants = data["players"] if tournament.of_players else data["teams"]
    if not entrants or not data["rounds"] or not data["tables"]:
        return None
    try:
        figures = count_figures(data, entrants)
        least = least_possible(data, entrants, figures["max_meetings"])
    except (KeyError, IndexError, ValueError):
        return None  # a schedule edited into a shape the figures cannot be read from
    most = figures["max_meetings"]
    return {
        "most": most,
        "count": figures["pairs_at_most"],
        "every_round": most > 1 and most == data["rounds"],
        "least": least,
    }


def missing_boards(tournament: Tournament) -> list[tuple[int, int]]:
    """(table, board) pairs that have no deal yet."""
    dealt = set(
        Board.objects.filter(table__tournament=tournament).values_list("table__number", "number")
    )
    return [
        (table, board)
        for table in tournament.tables.order_by("number").values_list("number", flat=True)
        for board in range(1, tournament.boards_per_table + 1)
        if (table, board) not in dealt
    ]


# --- the schedule grid --------------------------------------------------------------------


@dataclass
class RoundRow:
    number: int
    cells: list[Match | None]
    byes: list[Entrant]


@dataclass
class ScheduleGrid:
    tables: list[Table]
    rounds: list[RoundRow]

    @property
    def is_empty(self) -> bool:
        return not self.rounds


def schedule_grid(tournament: Tournament) -> ScheduleGrid:
    """Rounds × tables, each cell the match there (or None), and each round's byes."""
    tables = list(tournament.tables.order_by("number"))
    column = {table.pk: index for index, table in enumerate(tables)}
    entrants = list(tournament.entrants.order_by("number"))
    by_round: dict[int, list[Match | None]] = {}
    playing: dict[int, set[int]] = defaultdict(set)
    for match in tournament_matches(tournament):
        cells = by_round.setdefault(match.round, [None] * len(tables))
        cells[column[match.table_id]] = match
        playing[match.round] |= {match.north_entrant_id, match.east_entrant_id}
        if tournament.of_players:
            playing[match.round] |= {seat.entrant_id for seat in match.seats.all()}
    rounds = [
        RoundRow(
            number=number,
            cells=by_round.get(number, [None] * len(tables)),
            byes=[entrant for entrant in entrants if entrant.pk not in playing[number]],
        )
        for number in range(1, max(by_round, default=0) + 1)
    ]
    return ScheduleGrid(tables=tables, rounds=rounds)


# --- route cards --------------------------------------------------------------------------


@dataclass
class RouteStop:
    round: int
    table: Table | None = None
    side: str = ""  # "NS" or "EW", or a player's seat; "" for a bye
    opponent: Entrant | None = None
    opening: Any = None  # the seat that opens at the table (its full_name), if any
    # Players: the others at the table, by seat.
    others: list[tuple[str, Entrant]] = field(default_factory=list)
    # A round without a match: why, where the room changed ("withdrew after round 2: no
    # match", "bye: 3 Ann withdrew"); empty for a bye of the draw.
    note: str = ""

    @property
    def is_bye(self) -> bool:
        return self.table is None

    @property
    def side_name(self) -> str:
        names = {"NS": "North–South", "EW": "East–West", "N": "North", "E": "East"}
        return {**names, "S": "South", "W": "West"}.get(self.side, "")


@dataclass
class RouteCard:
    entrant: Entrant
    stops: list[RouteStop] = field(default_factory=list)
    substitutes: list[str] = field(default_factory=list)
    withdrew_after: int | None = None


def route_cards(tournament: Tournament, entrant_number: int | None = None) -> list[RouteCard]:
    """For each team, every round: the table, its side and its opponents (or a bye)."""
    entrants = entrants_with_status(tournament)
    if entrant_number is not None:
        entrants = entrants.filter(number=entrant_number)
    cards = {entrant.pk: RouteCard(entrant) for entrant in entrants}
    rounds = round_count(tournament)
    stops: dict[int, dict[int, RouteStop]] = defaultdict(dict)
    stops_of = _players_stops if tournament.of_players else _pairs_stops
    for match in tournament_matches(tournament):
        for pk, stop in stops_of(tournament, match):
            stops[pk][match.round] = stop
    substitutes = room_selectors.substitutes_of_entrants(tournament)
    withdrawn = room_selectors.withdrawn_after(tournament)
    gaps = room_selectors.withdrawal_gaps(tournament)
    for pk, card in cards.items():
        card.stops = [stops[pk].get(number, RouteStop(number)) for number in range(1, rounds + 1)]
        _note_withdrawal_gaps(card, gaps)
        card.substitutes = substitutes.get(pk, [])
        card.withdrew_after = withdrawn.get(pk)
    return list(cards.values())


def _players_stops(tournament: Tournament, match: Match) -> list[tuple[int, RouteStop]]:
    """Each player's stop at a match of individuals: his seat and the others at the table."""
    seated = sorted(
        ((seat.seat, seat.entrant) for seat in match.seats.all()),
        key=lambda item: SEAT_LETTERS.index(item[0]),
    )
    return [
        (
            entrant.pk,
            RouteStop(
                match.round,
                match.table,
                seat,
                others=[(other, player) for other, player in seated if player.pk != entrant.pk],
            ),
        )
        for seat, entrant in seated
    ]


def _pairs_stops(tournament: Tournament, match: Match) -> list[tuple[int, RouteStop]]:
    """Each pair's stop at a match: its side, its opponents and the table's opening seat."""
    opening = tournament.opening_seat_for(match.table.number)
    return [
        (entrant.pk, RouteStop(match.round, match.table, side, opponent, opening))
        for entrant, side, opponent in (
            (match.north_entrant, "NS", match.east_entrant),
            (match.east_entrant, "EW", match.north_entrant),
        )
    ]


def _note_withdrawal_gaps(card: RouteCard, gaps: dict) -> None:
    """A round sat out because of a withdrawal says so on the card."""
    for stop in card.stops:
        gap = gaps.get((card.entrant.number, stop.round))
        if stop.is_bye and gap is not None:
            stop.note = gap.words


# --- table cards (hand diagrams) ----------------------------------------------------------


@dataclass(frozen=True)
class SuitHolding:
    """One group of a hand in a diagram (a suit): its symbol's key, its name, its cards."""

    label: str  # the symbol drawn beside it (tournaments/includes/suit.html)
    name: str
    ranks_text: str  # the cards in words, highest first; a dash for none


@dataclass(frozen=True)
class HandView:
    seat: str  # N, E, S or W
    name: str  # North, ...
    suits: tuple[SuitHolding, ...]


@dataclass
class BoardDiagram:
    """A board as four hands around the table, each in the groups its game prints."""

    number: int
    deal_text: str
    hands: dict[str, HandView]  # keyed "N", "E", "S", "W" for templates
    template = "tournaments/includes/hand_diagram.html"


@dataclass
class BoardHands:
    """A board whose game prints each hand in words: its dealer and every hand."""

    number: int
    dealer: str
    deal_text: str
    hands: list[tuple[str, str]]
    template = "tournaments/includes/board_hands.html"


@dataclass
class TableCard:
    table: Table
    opening: str | None  # the seat that opens at the table, where the game has one
    boards: list[BoardDiagram | BoardHands | None]  # None: board not dealt yet
    matches: list[Match]

    @property
    def opening_name(self) -> str:
        return SEAT_NAMES[self.opening] if self.opening else ""


def board_diagram(tournament: Tournament, board: Board) -> BoardDiagram | BoardHands:
    """A board's hands as the pages print them: around the table in the groups the game
    gives (``Game.hand_groups``), else each hand in words."""
    game = tournament.game_rules
    deal = board.parsed()
    groups = game.hand_groups(deal)
    if groups is None:
        return BoardHands(board.number, board.dealer, board.deal, game.hands_in_words(deal))
    return BoardDiagram(
        number=board.number,
        deal_text=board.deal,
        hands={
            seat: HandView(seat, SEAT_NAMES[seat], tuple(SuitHolding(*group) for group in held))
            for seat, held in groups.items()
        },
    )


def table_cards(tournament: Tournament, table_number: int | None = None) -> list[TableCard]:
    """For each table: its deals as hand diagrams, its opening seat and its matches."""
    matches = Match.objects.select_related("north_entrant", "east_entrant").order_by("round")
    if tournament.of_players:
        matches = matches.prefetch_related(SEATED)
    tables = tournament.tables.order_by("number").prefetch_related(
        Prefetch("boards", queryset=Board.objects.order_by("number")),
        Prefetch("matches", queryset=matches),
    )
    if table_number is not None:
        tables = tables.filter(number=table_number)
    cards = []
    for table in tables:
        boards = {board.number: board for board in table.boards.all()}
        cards.append(
            TableCard(
                table=table,
                opening=tournament.opening_letter(table.number),
                boards=[
                    board_diagram(tournament, boards[number]) if number in boards else None
                    for number in range(1, tournament.boards_per_table + 1)
                ],
                matches=list(table.matches.all()),
            )
        )
    _name_substitutes(tournament, [match for card in cards for match in card.matches])
    return cards


def _name_substitutes(tournament: Tournament, matches: list[Match]) -> None:
    """Give each match ``substitutes``: who plays for whom there, in words."""
    found = room_selectors.substitutes_of_matches(tournament, matches)
    for match in matches:
        match.substitutes = [f"{s['name']} for {s['player']}" for s in found.get(match.pk, [])]


# --- dashboard ----------------------------------------------------------------------------


@dataclass
class Dashboard:
    entrants: int
    disqualified: int
    tables: int
    boards_needed: int
    boards_dealt: int
    matches: int
    rounds: int
    entrant_number_gaps: list[int]
    problems: list[str]
    recent_log: list[ActionLog]

    @property
    def boards_missing(self) -> int:
        return self.boards_needed - self.boards_dealt


def dashboard(tournament: Tournament) -> Dashboard:
    tables = tournament.tables.count()
    return Dashboard(
        entrants=tournament.entrants.count(),
        disqualified=tournament.entrants.filter(disqualification__isnull=False).count(),
        tables=tables,
        boards_needed=tables * tournament.boards_per_table,
        boards_dealt=Board.objects.filter(
            table__tournament=tournament, number__lte=tournament.boards_per_table
        ).count(),
        matches=Match.objects.filter(table__tournament=tournament).count(),
        rounds=round_count(tournament),
        entrant_number_gaps=number_gaps(tournament.entrants.values_list("number", flat=True)),
        problems=schedule_problems(tournament),
        recent_log=list(tournament.log_entries.all()[:8]),
    )


def action_log(tournament: Tournament) -> QuerySet[ActionLog]:
    return tournament.log_entries.select_related("user")


def is_public(tournament: Tournament, user: Any = None) -> bool:
    """Whether ``user`` (None: anyone) may see the tournament's public pages and API: a draft,
    before its schedule is drawn up, is its organisers' own (names, teams and settings may
    still be wrong)."""
    from tournaments.permissions import is_organiser

    return tournament.status != Status.DRAFT or (user is not None and is_organiser(user))


@dataclass(frozen=True)
class Change:
    """One value an action changed, in words: ``Status: running → final``."""

    label: str
    old: str
    new: str


def log_changes(before: Any, after: Any) -> list[Change]:
    """What an action log entry changed, key by key, old → new, in the order the entry keeps
    them; a key only one side has shows "—" on the other."""
    before = before if isinstance(before, dict) else {} if before is None else {"value": before}
    after = after if isinstance(after, dict) else {} if after is None else {"value": after}
    keys = list(dict.fromkeys([*before, *after]))
    return [
        Change(_label(key), _value_words(before.get(key)), _value_words(after.get(key)))
        for key in keys
        if before.get(key) != after.get(key)
    ]


def _label(key: str) -> str:
    return str(key).replace("_", " ").capitalize()


def _value_words(value: Any, limit: int = 160) -> str:
    """A logged value in words, cut to ``limit`` characters."""
    text = _plain_words(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _plain_words(value: Any) -> str:
    """Nothing as a dash, a flag as yes or no, a mapping and a list item by item (each item
    cut short), anything else as it prints."""
    if value in (None, "", [], {}):
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return "; ".join(f"{_label(k)}: {_value_words(v, 40)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_value_words(item, 40) for item in value)
    return str(value)
