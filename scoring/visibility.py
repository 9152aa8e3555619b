"""Who may see what of a board, a deal or a result, and when: the one gate.

The rules are the rulebook's (docs/rulebook.md §10, "Who sees what, and when", and "The
phone asks; it never tells"), for every game alike:

- **Results of a table** (scores, contracts, ranking points, per-table lines, charts and every
  summary of them) reach the public, the API and published files once the table is complete:
  every match scheduled there has a result on every board, or is settled by a
  disqualification once its round is reached (``complete_tables``, ``reached_round``); pages
  say which are still out (``tables_still_out``). A disqualified entrant's matches of rounds
  not reached are "to come", never "played".
- **Deals** are the organiser's. A seat sees the deal of a board once that board's result at
  its own table is accepted (``deals_seen_by``); the public sees hand records only where the
  organiser has released them, and only for complete tables (``publishing.selectors``' release
  asks ``complete_tables``).
- **An entry**, as any answer shows it, is what the scorer entered: never the deal, which stays
  on the server (``entry_as_seen``). Whether an entry agrees with the deal is told to the
  director alone.

- **The play of a featured table** (its hands, calls and cards, recorded as they happen): the
  table's recorder, who sits at it, sees the hands of its boards; organisers, the director and
  accredited press accounts (the ``press`` group an organiser grants) follow it live; everyone
  else, the entrants included, only once the table is complete, since later matches play its
  deals again (``table_play_seen_by``).

Views, the API, fragments, charts and exports ask here; none decides for itself. The contract
tests (tests/contract) probe every endpoint and page of every game for what leaks.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from django.db.models import Count, Q

from scoring.models import Result
from tournaments.models import Board, Entrant, Match, MatchSeat, Status, Tournament
from tournaments.permissions import is_organiser

#: Fields of a stored record that come from the deal on file, never from the scorer.
DEAL_FIELDS = frozenset({"deal"})
#: The group of accredited press accounts, granted by an organiser: they follow featured
#: tables live.
PRESS_GROUP = "press"


def forfeiting_entrants(tournament: Tournament) -> set[int]:
    """Entrants disqualified before finalisation: each of their matches counts −1000 for them
    and 0 for the opponent, whatever was played."""
    return set(
        Entrant.objects.filter(
            tournament=tournament,
            disqualification__isnull=False,
            disqualification__after_final=False,
        ).values_list("pk", flat=True)
    )


def reached_round(tournament: Tournament) -> int | float:
    """The last round the event has reached: the latest round with a result at any table
    (every round once the standings are final). A disqualified entrant's forfeits count,
    and show, only for rounds reached: a match of a later round is still to come, not
    "played"."""
    if tournament.status == Status.FINAL:
        return float("inf")
    latest = (
        Result.objects.filter(match__table__tournament=tournament, current=True)
        .order_by("-match__round")
        .values_list("match__round", flat=True)
        .first()
    )
    return latest or 0


def _seated(tournament: Tournament) -> dict[int, set[int]]:
    seated: dict[int, set[int]] = defaultdict(set)
    for match_id, entrant_id in MatchSeat.objects.filter(
        match__table__tournament=tournament
    ).values_list("match_id", "entrant_id"):
        seated[match_id].add(entrant_id)
    return seated


def _match_rows(tournament: Tournament) -> list[tuple[int, int, set[int], bool, int]]:
    """``(match id, table, entrants, every board has a result, round)`` of every match."""
    boards = dict(tournament.tables.annotate(n=Count("boards")).values_list("number", "n"))
    seated = _seated(tournament)
    rows = (
        Match.objects.filter(table__tournament=tournament)
        .annotate(current_results=Count("results", filter=Q(results__current=True)))
        .values_list(
            "pk", "table__number", "north_entrant_id", "east_entrant_id", "current_results", "round"
        )
    )
    return [
        (match_id, table, seated[match_id] | {ns, ew}, results >= boards.get(table, 0), round_)
        for match_id, table, ns, ew, results, round_ in rows
    ]


def complete_tables(tournament: Tournament) -> set[int]:
    """The tables whose results the public may see: every match scheduled there has a result
    on every board, or is settled by a disqualification before the standings were final.
    Until then a result tells the entrants still to play there how the deals lie."""
    forfeiting = forfeiting_entrants(tournament)
    reached = reached_round(tournament) if forfeiting else 0
    waiting, tables = set(), set()
    for _match_id, table, entrants, played, round_ in _match_rows(tournament):
        tables.add(table)
        # A forfeit settles its match once its round is reached, not before.
        if not played and not (entrants & forfeiting and round_ <= reached):
            waiting.add(table)
    return tables - waiting


def tables_still_out(tournament: Tournament, complete: set[int] | None = None) -> list[int]:
    """The tables whose results are not shown yet, in order (for pages that say so);
    ``complete``: ``complete_tables`` when the caller has it already."""
    if complete is None:
        complete = complete_tables(tournament)
    tables = set(tournament.tables.values_list("number", flat=True))
    return sorted(tables - complete)


def entry_as_seen(record: Mapping[str, Any]) -> dict[str, Any]:
    """A stored record as any answer shows it: what the scorer entered and the tournament's
    rules, without the deal (records stored before entries were read without their deal
    still hold it)."""
    return {name: value for name, value in record.items() if name not in DEAL_FIELDS}


def deals_seen_by(
    tournament: Tournament, boards: Iterable[tuple[Any, int, bool]]
) -> dict[tuple[int, int], list[tuple[str, str]]]:
    """The hands, in words, of the boards a seat of a match may now see: ``boards`` gives
    ``(match, board number, result accepted)`` for the boards of the seat's own matches; a
    board is shown once its result at the seat's own table stands."""
    wanted = {(match.pk, number): match for match, number, accepted in boards if accepted}
    if not wanted:
        return {}
    game = tournament.game_rules
    table_ids = {match.table_id for match in wanted.values()}
    deals = {
        (board.table_id, board.number): board
        for board in Board.objects.filter(table_id__in=table_ids).exclude(deal="")
    }
    seen = {}
    for (match_id, number), match in wanted.items():
        board = deals.get((match.table_id, number))
        if board is not None:
            seen[(match_id, number)] = game.hands_in_words(board.parsed())
    return seen


def is_press(user: Any) -> bool:
    """An accredited press account: a signed-in, active member of the ``press`` group."""
    return bool(
        user
        and user.is_authenticated
        and user.is_active
        and user.groups.filter(name=PRESS_GROUP).exists()
    )


def table_play_seen_by(
    user: Any, tournament: Tournament, table: int, *, recorder_of: int | None = None
) -> bool:
    """Whether a reader may see the recorded play of ``table`` (hands, calls, every card):
    its own recorder (``recorder_of``: the table whose recorder's code the reader signed in
    with), organisers and the director, and accredited press at once; anyone else once the
    table is complete (never while the tournament is its organisers' draft)."""
    if recorder_of is not None and recorder_of == table:
        return True
    if is_organiser(user) or is_press(user):
        return True
    if tournament.status == Status.DRAFT:
        return False
    return table in complete_tables(tournament)
