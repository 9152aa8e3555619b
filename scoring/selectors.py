"""Reads of the scorer's side: a team's matches and their states, the director's overview,
the ranking input built from stored results, and the stored standings."""

from __future__ import annotations

import functools
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Max, Q
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

from engine.core.messages import words
from engine.core.seats import SEAT_LETTERS
from scoring import sheets, states, visibility
from scoring.models import (
    BoardProgress,
    RankingPoints,
    Result,
    Review,
    Standing,
    StandingsState,
    Submission,
)
from scoring.rows import RowReader
from tournaments import room_selectors
from tournaments.models import Board, Entrant, Match, MatchSeat, Status, Tournament, seat_order


def entrant_by_code(slug: str, code: str) -> Entrant | None:
    """The team of a tournament (by slug) with this access code, its tournament loaded.
    Codes are read off paper: case, spaces and dashes do not matter.

    One hand-written statement: every scorer's request starts here, and building the ORM's
    joined query costs three times what the database takes to answer it."""
    code = (code or "").strip().upper().replace("-", "").replace(" ", "")
    if not code:
        return None
    with connection.cursor() as cursor:
        cursor.execute(_entrant_by_code_sql(), [slug, code])
        row = cursor.fetchone()
    if row is None:
        return None
    entrant = TEAM_ROW.read(row, using=connection.alias)
    entrant.tournament = TOURNAMENT_ROW.read(row, start=len(TEAM_ROW), using=connection.alias)
    return entrant


TEAM_ROW = RowReader(Entrant)
TOURNAMENT_ROW = RowReader(Tournament)


@functools.cache
def _entrant_by_code_sql() -> str:
    return (
        f"SELECT {TEAM_ROW.select('m')}, {TOURNAMENT_ROW.select('t')} "
        f"FROM {Entrant._meta.db_table} m JOIN {Tournament._meta.db_table} t "
        "ON t.id = m.tournament_id WHERE t.slug = %s AND m.access_code = %s"
    )


def matches_of(entrant: Entrant) -> list[Match]:
    """The entrant's matches in round order: as a pair on a side, or as a player in a seat."""
    ids = MatchSeat.objects.filter(entrant=entrant).values("match_id")
    return list(
        Match.objects.filter(Q(north_entrant=entrant) | Q(east_entrant=entrant) | Q(pk__in=ids))
        .select_related("table", "north_entrant", "east_entrant")
        .order_by("round")
    )


def bye_rounds(tournament: Tournament, matches: list[Match]) -> list[int]:
    """The rounds in which an entrant whose matches are ``matches`` sits out: every round of
    the schedule that has matches, but none of the entrant's."""
    rounds = set(Match.objects.filter(table__tournament=tournament).values_list("round", flat=True))
    return sorted(rounds - {match.round for match in matches})


def bye_words(tournament: Tournament) -> str:
    """What a bye scores, in words (docs/rulebook.md §6, docs/ranking.md): the pairs' and the
    players' duplicate ranking give the mean of the ranking points handed out, so sitting out
    neither helps nor harms; totals give nothing."""
    # The engine's marker (engine.core.messages): English text, translated where it is shown
    # (the ``in_language`` filter), as the exports that print it in English expect.
    if tournament.of_players and tournament.ranking == "totals":
        return words("bye: adds nothing to the total")
    if tournament.of_players:
        return words("bye: the mean of the round's ranking points")
    return words("bye: the mean of the table's ranking points")


def board_states(matches: list[Match]) -> dict[tuple[int, int], states.BoardState]:
    """The state of every board of these matches, folded from its history, keyed by (match
    id, board number), in the order of the matches, then board number. Three queries
    whatever the number of matches."""
    ids = [m.pk for m in matches]
    boards, number_of = _boards({m.table_id for m in matches})
    subs: dict[tuple[int, int], list[Submission]] = defaultdict(list)
    revs: dict[tuple[int, int], list[Review]] = defaultdict(list)
    for sub in Submission.objects.filter(match_id__in=ids):
        subs[(sub.match_id, number_of[sub.board_id])].append(sub)
    for rev in Review.objects.filter(match_id__in=ids):
        revs[(rev.match_id, number_of[rev.board_id])].append(rev)
    return {
        (m.pk, number): states.fold(subs[(m.pk, number)], revs[(m.pk, number)])
        for m in matches
        for number in boards.get(m.table_id, [])
    }


@dataclass(frozen=True)
class ResultLine:
    """A board's current result as the overview shows it: the two sides' results, or in a
    game of individuals every seat's (``seats``, in seat order)."""

    kind: str
    north_result: int | None
    east_result: int | None
    seats: dict[str, int] | None = None

    @property
    def seat_results(self) -> list[tuple[str, int]]:
        return list((self.seats or {}).items())


def _in_seat_order(seats: dict[str, Any] | None) -> dict[str, Any] | None:
    if seats is None:
        return None
    return {seat: seats[seat] for seat in SEAT_LETTERS if seat in seats}


def seated_players(tournament: Tournament) -> dict[int, dict[str, Entrant]]:
    """``{match id: {seat: player}}`` of a game of individuals, in seat order; one query."""
    found: dict[int, dict[str, Entrant]] = {}
    for seat in (
        MatchSeat.objects.filter(match__table__tournament=tournament)
        .select_related("entrant")
        .order_by("match_id")
    ):
        found.setdefault(seat.match_id, {})[seat.seat] = seat.entrant
    return {
        match_id: {seat: players[seat] for seat in SEAT_LETTERS if seat in players}
        for match_id, players in found.items()
    }


def _share_tables_and_entrants(tournament: Tournament, matches: list[Match]) -> None:
    """Give the matches their table and teams, read once each (a join would make a table and
    two teams for every match: most of the time the overview took)."""
    tables = {table.pk: table for table in tournament.tables.all()}
    entrants = {entrant.pk: entrant for entrant in tournament.entrants.all()}
    for match in matches:
        Match.table.field.set_cached_value(match, tables[match.table_id])
        Match.north_entrant.field.set_cached_value(match, entrants[match.north_entrant_id])
        Match.east_entrant.field.set_cached_value(match, entrants[match.east_entrant_id])


def progress_states(
    matches: list[Match], tournament: Tournament
) -> dict[tuple[int, int], states.BoardState]:
    """Every board of these matches (all of the tournament's) as its progress row says it
    stands, keyed by (match id, board number), in the order of the matches, then board
    number; a board without a row has no history: empty. Two queries."""
    boards, number_of = _boards(tournament.tables.values("id"))
    kept = {
        (match_id, number_of[board_id]): states.BoardState(
            state=state, rejections=rejections, last_reason=last_reason
        )
        for match_id, board_id, state, rejections, last_reason in BoardProgress.objects.filter(
            match__table__tournament=tournament
        ).values_list("match_id", "board_id", "state", "rejections", "last_reason")
    }
    return {
        (m.pk, number): kept.get((m.pk, number)) or states.BoardState()
        for m in matches
        for number in boards.get(m.table_id, [])
    }


def _boards(table_ids: Any) -> tuple[dict[int, list[int]], dict[int, int]]:
    """The board numbers of each of these tables (ascending), and each board's number by
    its id (the history rows name their board by id: no board row is read for each)."""
    boards: dict[int, list[int]] = defaultdict(list)
    number_of: dict[int, int] = {}
    for pk, table_id, number in Board.objects.filter(table_id__in=table_ids).values_list(
        "pk", "table_id", "number"
    ):
        boards[table_id].append(number)
        number_of[pk] = number
    return {t: sorted(numbers) for t, numbers in boards.items()}, number_of


def _boards_of(tournament: Tournament) -> dict[int, list[int]]:
    """The board numbers of each of the tournament's tables, in one statement (a subquery,
    not a parameter per table: a round of 1,000 tables made a statement of 1,000 parameters
    that cost more to build and send than to run)."""
    return _boards(tournament.tables.values("id"))[0]


@dataclass
class EntrantMatch:
    match: Match
    side: str  # pairs: "NS" or "EW"; players: the seat, "N", "E", "S" or "W"
    opponent: Entrant | None  # pairs only
    boards: list[tuple[int, states.BoardState]]
    # Players: everyone at the table, by seat.
    table_players: list[tuple[str, Entrant]] = field(default_factory=list)

    @property
    def seat_name(self) -> str:
        names = {"N": _("North"), "E": _("East"), "S": _("South"), "W": _("West")}
        return names.get(self.side, self.side)

    @property
    def role(self) -> str:
        """``north`` enters the results, ``east`` checks them; other seats only watch."""
        if self.side in ("NS", "N"):
            return "north"
        return "east" if self.side in ("EW", "E") else "seated"

    @property
    def holds_the_entrant(self) -> bool:
        """The team's phone stays on this match while a board of it has no result: North
        moves on only once East has accepted or the director has ruled."""
        return not all(state.has_result for _, state in self.boards)

    @property
    def needs_action(self) -> bool:
        wanted = {
            "north": {states.EMPTY, states.RETURNED},
            "east": {states.AWAITING_EAST},
            "seated": set(),
        }[self.role]
        return any(s.state in wanted for _, s in self.boards)


def entrant_overview(entrant: Entrant) -> tuple[list[EntrantMatch], Match | None]:
    """The team's matches with their board states, and its current match."""
    matches = matches_of(entrant)
    found = board_states(matches)
    seated = defaultdict(list)
    for seat in (
        MatchSeat.objects.filter(match__in=matches).select_related("entrant").order_by(seat_order())
    ):
        seated[seat.match_id].append((seat.seat, seat.entrant))
    by_match: dict[int, list[tuple[int, states.BoardState]]] = defaultdict(list)
    for (match_id, number), state in found.items():  # board numbers ascending
        by_match[match_id].append((number, state))
    overview = [
        _entrant_match(match, entrant, by_match[match.pk], seated.get(match.pk))
        for match in matches
    ]
    current = next((tm.match for tm in overview if tm.holds_the_entrant), None)
    return overview, current


def _entrant_match(
    match: Match,
    entrant: Entrant,
    boards: list[tuple[int, states.BoardState]],
    seats: list[tuple[str, Entrant]] | None,
) -> EntrantMatch:
    """A match as the entrant sees it: its seat among the players ``seats`` (a game of
    individuals), or its side and its opponent."""
    if seats:
        side = next(seat for seat, player in seats if player.pk == entrant.pk)
        return EntrantMatch(match, side, None, boards, seats)
    side = "NS" if match.north_entrant_id == entrant.pk else "EW"
    opponent = match.east_entrant if side == "NS" else match.north_entrant
    return EntrantMatch(match, side, opponent, boards)


def current_match_for(entrant: Entrant) -> Match | None:
    """The team's first match (in round order) that still holds it (``holds_the_entrant``);
    None when every match is settled."""
    return entrant_overview(entrant)[1]


def director_overview(tournament: Tournament) -> list[dict[str, Any]]:
    """Every board of every match with its state, for the director's dashboard and the
    public list of matches: by round, table and board. Four queries and one pass over the
    boards, whatever the number of matches.

    The states are the boards' progress rows (``BoardProgress``, the fold every write keeps),
    not their histories folded again: they carry the state, the rejections and the last
    reason, no history and no pending entry (a board's own page reads those)."""
    matches = list(
        Match.objects.filter(table__tournament=tournament).order_by("round", "table__number")
    )
    _share_tables_and_entrants(tournament, matches)
    by_id = {match.pk: match for match in matches}
    found = progress_states(matches, tournament)
    current = {
        (match_id, number): ResultLine(kind, ns, ew, _in_seat_order(seats))
        for match_id, number, kind, ns, ew, seats in Result.objects.filter(
            match__table__tournament=tournament, current=True
        ).values_list("match_id", "board__number", "kind", "north_result", "east_result", "seats")
    }
    if tournament.of_players:  # each match's players by seat, for pages that name them
        seated = seated_players(tournament)
        for match in matches:
            match.seated = list(seated.get(match.pk, {}).items())
    return [
        {
            "match": by_id[match_id],
            "board": number,
            "state": state,
            "result": current.get((match_id, number)),
        }
        for (match_id, number), state in found.items()
    ]


def ranking_input(tournament: Tournament) -> dict[str, Any]:
    """The tournament results object of the interchange formats, from the stored results.

    Read as plain rows, not model instances: the standings task calls this after every burst
    of confirmations, for tournaments of thousands of matches."""
    scores, records = _table_results(tournament)
    entrants = tournament.entrants.order_by("number").values_list(
        "pk", "name", "disqualification__after_final"
    )
    return {
        "game": tournament.game,
        **{name: tournament.rules[name] for name in tournament.game_rules.score_settings},
        "ties": tournament.ties,
        "teams": [{"id": str(pk), "name": name} for pk, name, _after in entrants],
        "matches": _boards_to_rank(tournament, scores, records),
        "disqualified": [
            {"team": str(pk), "after_final": after}
            for pk, _name, after in entrants
            if after is not None
        ],
        **_withdrawn(tournament, "team"),
    }


def _table_results(tournament: Tournament) -> tuple[dict[tuple, tuple], dict[tuple, Any]]:
    """The current results by ``(match, board)``: the table scores ``(ns, ew)``, and apart the
    records of boards passed out under rules-1709 (no table result; the record says so)."""
    current = Result.objects.filter(match__table__tournament=tournament, current=True)
    scores = {
        (match_id, board): (ns, ew)
        for match_id, board, ns, ew in current.filter(north_result__isnull=False).values_list(
            "match_id", "board__number", "north_result", "east_result"
        )
    }
    records = {
        (match_id, board): record
        for match_id, board, record in current.filter(north_result__isnull=True).values_list(
            "match_id", "board__number", "submission__record"
        )
    }
    return scores, records


def _boards_to_rank(
    tournament: Tournament, scores: dict[tuple, tuple], records: dict[tuple, Any]
) -> list[dict[str, Any]]:
    """The ranking input's ``matches``: every board of every match, with its result where it
    has one. A disqualified team's matches of rounds not reached yet are to come, not forfeits
    yet: left out."""
    boards = _boards_of(tournament)
    forfeiting = visibility.forfeiting_entrants(tournament)
    reached = visibility.reached_round(tournament) if forfeiting else 0
    with_results = {match_id for match_id, _number in scores} | {m for m, _n in records}
    matches = []
    for match_id, round_, table_id, table, ns, ew in Match.objects.filter(
        table__tournament=tournament
    ).values_list(
        "pk", "round", "table_id", "table__number", "north_entrant_id", "east_entrant_id"
    ):
        if round_ > reached and {ns, ew} & forfeiting and match_id not in with_results:
            continue
        for number in boards.get(table_id, []):
            entry = {"round": round_, "table": table, "board": number, "ns": str(ns), "ew": str(ew)}
            matches.append(_with_result(entry, (match_id, number), scores, records))
    return matches


def _with_result(
    entry: dict[str, Any], key: tuple, scores: dict[tuple, tuple], records: dict[tuple, Any]
) -> dict[str, Any]:
    """A board's entry with its table scores, or its record when passed out without one."""
    if key in scores:
        entry["scores"] = {"ns": scores[key][0], "ew": scores[key][1]}
    elif key in records:
        entry["record"] = records[key]
    return entry


def _withdrawn(tournament: Tournament, key: str) -> dict[str, Any]:
    """The ranking input's ``withdrawn`` (entrants who left for good), only when some did."""
    found = room_selectors.withdrawn_after(tournament)
    listed = [{key: str(pk), "after_round": last} for pk, last in sorted(found.items())]
    return {"withdrawn": listed} if listed else {}


def individual_ranking_input(tournament: Tournament) -> dict[str, Any]:
    """The individual tournament results object (docs/ranking.md) of a game of individuals,
    from the stored results: every seat's table result of each board."""
    results = {
        (match_id, board): _individual_result(seats, entered)
        for match_id, board, seats, entered in Result.objects.filter(
            match__table__tournament=tournament, current=True
        ).values_list("match_id", "board__number", "seats", "submission__score")
    }
    seating = _seating(tournament)
    boards = _boards_of(tournament)
    matches, playing = [], defaultdict(set)
    for match_id, round_, table_id, table in Match.objects.filter(
        table__tournament=tournament
    ).values_list("pk", "round", "table_id", "table__number"):
        playing[round_].update(seating[match_id].values())
        for number in boards.get(table_id, []):
            entry = {"round": round_, "table": table, "board": number, "seats": seating[match_id]}
            entry.update(results.get((match_id, number), {}))
            matches.append(entry)
    players = list(
        tournament.entrants.order_by("number").values_list(
            "pk", "name", "disqualification__after_final"
        )
    )
    return {
        "game": tournament.game,
        "method": tournament.ranking,
        "ties": tournament.ties,
        "settings": tournament.rules,
        "players": [{"id": str(pk), "name": name} for pk, name, _after in players],
        "matches": matches,
        "byes": [
            {"round": round_, "player": str(pk)}
            for round_ in sorted(playing)
            for pk, _name, _after in players
            if str(pk) not in playing[round_]
        ],
        "disqualified": [
            {"player": str(pk), "after_final": after}
            for pk, _name, after in players
            if after is not None
        ],
        **_withdrawn(tournament, "player"),
    }


def _seating(tournament: Tournament) -> dict[int, dict[str, str]]:
    """Every match's players by seat (``{"N": player id, ...}``), by match id."""
    seating: dict[int, dict[str, str]] = defaultdict(dict)
    for match_id, seat, player in MatchSeat.objects.filter(
        match__table__tournament=tournament
    ).values_list("match_id", "seat", "entrant_id"):
        seating[match_id][seat] = str(player)
    return seating


def _individual_result(seats: dict[str, Any], entered: dict[str, Any] | None) -> dict[str, Any]:
    """A result for ``rank_individuals``: the game's whole score when the table entered it
    (totals read more than the table results), the table results alone when the director
    adjusted them."""
    if entered is not None and entered.get("seats") == seats:
        return {"score": entered}
    return {"scores": seats}


def standings_bookkeeping(tournament: Tournament) -> StandingsState:
    """The tournament's standings bookkeeping (versions, when computed, provisional or final),
    without the stored standings object, which runs to megabytes in a big tournament and is
    read only on access; a blank one, unsaved, before the first standings."""
    found = StandingsState.objects.defer("standings").filter(tournament=tournament).first()
    return found or StandingsState(tournament=tournament)


def standings_kind(tournament: Tournament, state: StandingsState) -> str:
    """Which standings are stored: stale (a change of results is not in them yet),
    provisional (results missing), complete (all in, not approved) or final."""
    if state.stale:
        return "stale"
    if state.computed_at is None:
        return "provisional"
    if state.final or tournament.status == Status.FINAL:
        return "final"
    return "provisional" if state.provisional else "complete"


def published_version(tournament: Tournament, state: StandingsState) -> str:
    """Changes whenever what the public pages and the API's standings show can change."""
    return f"{state.computed_version}.{state.results_version}.{tournament.status}"


def _entry_contexts(tournament: Tournament, match: Match) -> dict[int, dict[str, Any]]:
    """The game's entry context of each board of a match (``Game.entry_form``'s): the board,
    its dealer, a declarer's sheet as it stands. Never the deal: the form is what a seat of
    the match reads before the board is played (GAMES.md, "What the phone may learn")."""
    declarations = sheets.match_sheets(tournament, match)
    contexts = {}
    for board in match.table.boards.all():
        context = {
            "players": match.table.size,
            "dealer": board.dealer,
            "settings": tournament.rules,
            "table": match.table.number,
        }
        if board.number in declarations:
            found = declarations[board.number]
            context.update(
                declarer=found["seat"],
                player=found["player"].name,
                sheet=found["sheet"],
                calls=found["used"],
            )
        contexts[board.number] = context
    return contexts


def entry_context(tournament: Tournament, match: Match, board: int) -> dict[str, Any]:
    """The game's entry context of one board of a match (``_entry_contexts``'): what a
    recording of the board needs to offer the same choices North's entry offers."""
    return _entry_contexts(tournament, match).get(board, {})


#: Where North's draft of a board comes from when he has entered nothing yet: functions of
#: ``(match id, board number)`` giving the board's facts or None (a featured table's recording,
#: ``broadcast.drafts``). The facts are what happened at North's own table, never the deal.
DRAFT_SOURCES: list[Callable[[int, int], dict[str, Any] | None]] = []


def north_draft(entered: dict[str, Any] | None, match_id: int, board: int) -> dict[str, Any] | None:
    """North's draft of a board: what he entered last, else the facts a source has for it."""
    if entered:
        return entered
    for source in DRAFT_SOURCES:
        facts = source(match_id, board)
        if facts:
            return facts
    return entered


def entrants_of(match: Match) -> set[int]:
    """The ids of every entrant at a match: its two pairs, or the players in its seats."""
    return {
        match.north_entrant_id,
        match.east_entrant_id,
        *match.seats.values_list("entrant_id", flat=True),
    }


def entry_forms(tournament: Tournament, match: Match) -> dict[int, dict[str, Any]]:
    """What North may enter on each board of a match (``Game.entry_form``: a declarer's
    score sheet as it stands, each board's own result aside; a choice of facts for another
    game); empty for a game with an entry of its own (``Game.entry_form`` None).
    Nothing of a deal."""
    game = tournament.game_rules
    forms = {
        number: game.entry_form(**context)
        for number, context in _entry_contexts(tournament, match).items()
    }
    return {number: form for number, form in forms.items() if form is not None}


@dataclass(frozen=True)
class OpenBoard:
    """A board of a match that has no result yet, or whose director call is still open."""

    match_id: int
    round: int
    table: int
    board: int
    state: states.BoardState

    def __str__(self) -> str:
        return f"round {self.round}, table {self.table}, board {self.board}"


def open_boards(tournament: Tournament) -> tuple[list[OpenBoard], list[OpenBoard]]:
    """``(missing, disputed)``: the boards still without a result (left out of ranking) and
    those whose director call is open, in round and table order. A match with a disqualified
    entrant is settled by the disqualification and never missing."""
    disqualified = set(
        Entrant.objects.filter(tournament=tournament, disqualification__isnull=False).values_list(
            "pk", flat=True
        )
    )
    seated = defaultdict(set)
    for match_id, entrant_id in MatchSeat.objects.filter(
        match__table__tournament=tournament
    ).values_list("match_id", "entrant_id"):
        seated[match_id].add(entrant_id)
    matches = list(
        Match.objects.filter(table__tournament=tournament)
        .select_related("table")
        .order_by("round", "table__number")
    )
    by_match = defaultdict(list)
    for (match_id, number), state in sorted(board_states(matches).items()):
        by_match[match_id].append((number, state))
    missing, disputed = [], []
    for match in matches:
        entrants = seated[match.pk] | {match.north_entrant_id, match.east_entrant_id}
        settled = bool(entrants & disqualified)
        for number, state in by_match[match.pk]:
            board = OpenBoard(match.pk, match.round, match.table.number, number, state)
            if state.state == states.DISPUTED:
                disputed.append(board)
            if not settled and not state.has_result:
                missing.append(board)
    return missing, disputed


@dataclass(frozen=True)
class RoundProgress:
    """How far a round has come: its tables with every board's result in, and the others."""

    round: int
    tables_in: int
    tables: int
    missing: list[int]  # table numbers still without every result
    calls: int  # open director calls in the round

    @property
    def missing_text(self) -> str:
        """``3-7`` or ``1, 3-4``: the missing tables, runs written as ranges."""
        return number_ranges(self.missing)


def number_ranges(numbers: list[int]) -> str:
    """Numbers in order with runs written as ranges: [1, 3, 4, 5] → "1, 3-5"."""
    runs: list[list[int]] = []
    for number in sorted(numbers):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)


def round_progress(tournament: Tournament) -> list[RoundProgress]:
    """The rounds being played: the earliest round with a table still out and every later
    round some table has started; each with its tables in and the tables still out."""
    missing, disputed = open_boards(tournament)
    tables_of_round = _tables_of_rounds(tournament)
    out: dict[int, set[int]] = defaultdict(set)
    for board in missing:
        out[board.round].add(board.table)
    calls = Counter(board.round for board in disputed)
    incomplete = sorted(out)
    if not incomplete:
        return []
    started = {
        round_number
        for round_number, tables in tables_of_round.items()
        if len(out.get(round_number, ())) < len(tables)
    }
    shown = [incomplete[0], *(r for r in incomplete[1:] if r in started)]
    return [
        RoundProgress(
            round=r,
            tables_in=len(tables_of_round[r]) - len(out[r]),
            tables=len(tables_of_round[r]),
            missing=sorted(out[r]),
            calls=calls.get(r, 0),
        )
        for r in shown
    ]


def _tables_of_rounds(tournament: Tournament) -> dict[int, set[int]]:
    """The tables that host a match in each round, by round."""
    tables_of_round: dict[int, set[int]] = defaultdict(set)
    for round_number, table in Match.objects.filter(table__tournament=tournament).values_list(
        "round", "table__number"
    ):
        tables_of_round[round_number].add(table)
    return tables_of_round


def last_started_round(tournament: Tournament) -> int:
    """The last round a board of which has any history (an entry, a check, a director's
    action: each writes the board's progress row); 0 while none has."""
    found = BoardProgress.objects.filter(match__table__tournament=tournament).aggregate(
        top=Max("match__round")
    )
    return found["top"] or 0


def director_version(tournament: Tournament) -> str:
    """Changes whenever a board of the tournament changes state (an entry, a check, a call,
    a director's action): every such write touches the board's progress row."""
    found = BoardProgress.objects.filter(match__table__tournament=tournament).aggregate(
        rows=Count("pk"), latest=Max("updated_at")
    )
    latest = found["latest"].isoformat() if found["latest"] else "-"
    return f"{found['rows']}.{latest}"


# --- the stored standings as the pages show them -------------------------------------------

# Bump when a fragment template changes shape, so no process serves the old markup.
FRAGMENT_SCHEMA = 3
FRAGMENT_TTL = 60  # seconds; bounds how long a renamed team keeps its old name on the pages

# Marked for the catalogue; ``standings_status`` gives them in the active language.
STANDINGS_WORDS = {
    "stale": (
        gettext_noop("Stale"),
        gettext_noop(
            "Updating: new results are being counted. Until then these are the standings from "
            "before them."
        ),
    ),
    "final": (gettext_noop("Final"), gettext_noop("Final standings, approved by the organiser.")),
    "provisional": (
        gettext_noop("Provisional"),
        gettext_noop("Not every result is in yet: places can still change."),
    ),
    "complete": (
        gettext_noop("Complete"),
        gettext_noop("Every result is in; the organiser has not approved them as final yet."),
    ),
}


def standings_status(tournament: Tournament, state: StandingsState) -> dict[str, str]:
    """Which standings these are, in a word and a sentence."""
    key = standings_kind(tournament, state)
    word, text = STANDINGS_WORDS[key]
    if state.computed_at is None and not state.stale:
        text = gettext_noop("No results yet.")
    return {"key": key, "word": _(word), "text": _(text)}


def cached_fragment(
    kind: str, key: Any, tournament: Tournament, state: StandingsState, build
) -> str:
    """The rendered fragment from the cache, building it on a miss; one per language."""
    cache_key = (
        f"pym:fragment:{FRAGMENT_SCHEMA}:{tournament.pk}:{kind}:{key}:"
        f"{published_version(tournament, state)}:{get_language()}"
    )
    html = cache.get(cache_key)
    if html is None:
        html = build()
        cache.set(cache_key, html, FRAGMENT_TTL)
    return html


def points_text(points: float | None) -> str:
    """Ranking points as people write them: 2, 2.5, 2.33 (never 2.50)."""
    return "" if points is None else f"{round(points, 2):g}"


# A standings line's status as the reader says it (the stored status is the engine's key).
STATUS_WORDS = {
    "ok": gettext_noop("ok"),
    "disqualified": gettext_noop("disqualified"),
    "withdrawn": gettext_noop("withdrawn"),
}


def status_text(status: str, withdrew_after: int | None = None) -> str:
    """A standings line's status in the reader's words: a withdrawal says after which round."""
    if status == "withdrawn" and withdrew_after is not None:
        return _("withdrew after round %(round)s") % {"round": withdrew_after}
    return _(STATUS_WORDS[status]) if status in STATUS_WORDS else status


def percentage_text(percentage: float | None) -> str:
    """A percentage as stored (2 decimals) written without trailing zeros: 50, 66.67."""
    return "" if percentage is None else f"{percentage:.2f}".rstrip("0").rstrip(".")


def score_sheets_of(tournament: Tournament, player: Entrant) -> list[dict[str, Any]]:
    """A player's score sheets in a game that keeps them (``scoring.sheets``): each sheet's
    quota, and the numbers won and points declared on it so far."""
    return sheets.player_sheets(tournament, player)


# --- the stored results and standings, as the pages and files of the apps above read them ---


def current_results(
    tournament: Tournament, tables: Iterable[int] | None = None
) -> dict[tuple[int, int], Result]:
    """The standing result of every board played, with its entry, by ``(match id, board id)``;
    at the tables numbered ``tables`` only, if given."""
    found = Result.objects.filter(match__table__tournament=tournament, current=True)
    if tables is not None:
        found = found.filter(match__table__number__in=tables)
    return {(r.match_id, r.board_id): r for r in found.select_related("submission")}


def board_points(
    tournament: Tournament, tables: Iterable[int] | None = None
) -> dict[tuple[int, int, int], float]:
    """Every entrant's ranking points on every board, by ``(match id, board id, entrant id)``;
    at the tables numbered ``tables`` only, if given."""
    found = RankingPoints.objects.filter(tournament=tournament)
    if tables is not None:
        found = found.filter(match__table__number__in=tables)
    return {(p.match_id, p.board_id, p.entrant_id): p.points for p in found}


def result_facts(tournament: Tournament) -> dict[tuple[int, int], tuple]:
    """``(kind, passed out, score, NS result, EW result)`` of every standing result, by
    ``(match id, board number)``."""
    return {
        (match_id, board): (kind, passed_out, score, ns, ew)
        for match_id, board, kind, passed_out, score, ns, ew in Result.objects.filter(
            match__table__tournament=tournament, current=True
        ).values_list(
            "match_id",
            "board__number",
            "kind",
            "passed_out",
            "submission__score",
            "north_result",
            "east_result",
        )
    }


def leading_standings(tournament: Tournament, limit: int) -> list[Standing]:
    """The first ``limit`` placed entrants of the stored standings, each with its entrant."""
    return list(
        Standing.objects.filter(tournament=tournament, status="ok")
        .select_related("entrant")
        .order_by("place", "entrant__number")[:limit]
    )


def placed_with_groups(
    tournament: Tournament, state: StandingsState
) -> tuple[list[tuple[int, float]], list[Any]] | None:
    """``(entrant id, points)`` of every placed entrant and the ranking groups, read apart
    from the stored standings object (megabytes in a big tournament), if they are still those
    of the standings ``state`` stands for; None if newer standings were stored since."""
    same = StandingsState.objects.filter(pk=state.pk, computed_version=state.computed_version)
    found = list(same.values_list("pk", "standings__groups"))
    rows = list(
        Standing.objects.filter(tournament=tournament, status="ok").values_list(
            "entrant_id", "points"
        )
    )
    if not found or not same.exists():  # the rows may belong to newer standings
        return None
    return rows, found[0][1] or []


def stored_standings(tournament: Tournament) -> StandingsState:
    """The tournament's stored standings, their object included (``standings_bookkeeping``
    leaves it out)."""
    return StandingsState.objects.get(tournament=tournament)
