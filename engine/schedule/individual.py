"""Movements for individual players: ``generate_individual_schedule(players, per_table, rounds)``.

P players sit at K = P // n tables of n (2, 3 or 4) for R rounds; table t of round r seats
its players at the first n of N, E, S, W (GAMES.md). The rules every movement keeps:

- every table of every round has exactly n players, and nobody plays twice in a round;
- the P mod n leftover players sit out (a bye); nobody sits out twice (R ≤ K makes R·(P mod n)
  smaller than P, so a fair movement never needs a second bye);
- **nobody visits a table twice**: every table has fixed deals, a second visit would show him
  the same deals again. So R ≤ K.

Players should meet as evenly as possible: ``max_meetings`` is the most times two players sit
at one table, ``repeated_pairs`` the number of pairs meeting more than once.

How (docs/movement.md for the figures):

- a construction (``engine.schedule.individual_construct``) whenever one gives "every pair
  meets at most once": an orthogonal array of order K with a column per seat (the finite field
  for K a prime power larger than n: each player keeps his seat and moves a fixed,
  seat-dependent number of tables a round), or steps modulo K whose multiples do not come back
  within R rounds (any K, R small enough). Leftover players follow one more column and take the
  seat of a different player each round, who sits out;
- otherwise a valid start and a tabu search by swaps that keep the rules
  (``engine.schedule.individual_search``), fewest meetings of the worst pair first, then fewest
  pairs meeting twice. 16 players at 4 tables of 4 for 4 rounds, for example, cannot avoid
  repeats: at best 24 pairs meet twice, which the search reaches.

Players are numbered so that round 1 reads 1, 2, 3, ... table by table and seat by seat, the
players sitting out in round 1 last. The same arguments always give the same movement.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import numpy as np

from engine.schedule.generate import ScheduleError
from engine.schedule.individual_construct import construct, starting_grid
from engine.schedule.individual_search import improve

SEATS = ("N", "E", "S", "W")
TABLE_SIZES = (2, 3, 4)
MAX_PLAYERS = 2000
# The default number of rounds: every table once (R = K) up to this many tables.
DEFAULT_MAX_ROUNDS = 12


def default_rounds(players: int, per_table: int) -> int:
    """K rounds (every player visits every table once), at most ``DEFAULT_MAX_ROUNDS``."""
    return min(players // per_table, DEFAULT_MAX_ROUNDS)


def generate_individual_schedule(
    players: int, per_table: int, rounds: int | None = None, work: int | None = None
) -> dict[str, Any]:
    """The movement of ``players`` players at tables of ``per_table`` over ``rounds`` rounds
    (default: ``default_rounds``), as the JSON object of docs/movement.md. ``work`` bounds the
    search where no construction serves (default: the search's own bound)."""
    rounds = _check_request(players, per_table, rounds)
    grid = movement_grid(players, per_table, rounds, work)
    most, repeated = meeting_figures(grid, players)
    tables = players // per_table
    seated = grid.reshape(rounds, -1)
    sitting_out = np.ones((rounds, players), dtype=bool)
    sitting_out[np.arange(rounds)[:, None], seated] = False
    seats = SEATS[:per_table]
    numbers = (grid + 1).tolist()
    return {
        "players": players,
        "per_table": per_table,
        "tables": tables,
        "rounds": rounds,
        "seatings": [
            {"round": r + 1, "table": t + 1, "seats": dict(zip(seats, group, strict=True))}
            for r, row in enumerate(numbers)
            for t, group in enumerate(row)
        ],
        "byes": [
            {"round": int(r) + 1, "player": int(p) + 1}
            for r, p in zip(*np.nonzero(sitting_out), strict=True)
        ],
        "max_meetings": most,
        "repeated_pairs": repeated,
    }


def movement_grid(players: int, per_table: int, rounds: int, work: int | None = None) -> np.ndarray:
    """The movement as an array (round, table, seat) -> player, all 0-based, players renumbered
    so that round 1 reads 0, 1, 2, ... and its byes come last. Arguments are not checked."""
    return kept_grid(players, per_table, rounds, work).copy()


# The same arguments give the same movement, and a search takes up to seconds: a movement the
# organiser was shown is drawn, and a field drawn again is served, from the ones kept here.
@functools.lru_cache(maxsize=64)
def kept_grid(players: int, per_table: int, rounds: int, work: int | None) -> np.ndarray:
    """``movement_grid``'s array, read-only, as kept."""
    grid = searched_grid(players, per_table, rounds, work)
    grid.setflags(write=False)
    return grid


def searched_grid(players: int, per_table: int, rounds: int, work: int | None) -> np.ndarray:
    """``movement_grid``'s array, constructed or searched afresh."""
    grid = construct(players, per_table, rounds)
    if grid is None:
        seed = (players * 1_000_003 + per_table * 10_007 + rounds) % 2**32
        start = starting_grid(players, per_table, rounds, seed)
        grid = (
            improve(start, players, seed) if work is None else improve(start, players, seed, work)
        )
        grid = balance_seats(grid, players)
    return renumbered(grid, players)


def _check_request(players: Any, per_table: Any, rounds: Any) -> int:
    """The number of rounds to draw up; ScheduleError for a request that cannot be met."""
    _check_whole("players", players)
    _check_whole("per_table", per_table)
    if per_table not in TABLE_SIZES:
        raise ScheduleError(f"players at a table must be 2, 3 or 4, not {_shown(per_table)}")
    if not per_table <= players <= MAX_PLAYERS:
        raise ScheduleError(
            f"players must be between {per_table} (one table of {per_table}) and "
            f"{MAX_PLAYERS}, not {_shown(players)}"
        )
    if rounds is None:
        return default_rounds(players, per_table)
    _check_rounds(rounds, players, per_table)
    return rounds


def _check_whole(name: str, value: Any) -> None:
    """A number of the request is a whole number (a flag is not one)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ScheduleError(f"{name} must be a whole number, not {value!r}")


def _check_rounds(rounds: Any, players: int, per_table: int) -> None:
    """The rounds asked for: from 1 to the number of tables (nobody visits a table twice)."""
    _check_whole("rounds", rounds)
    tables = players // per_table
    if rounds < 1:
        raise ScheduleError(f"rounds must be at least 1, not {_shown(rounds)}")
    if rounds > tables:
        raise ScheduleError(
            f"{players} players at tables of {per_table} fill {_tables(tables)}, so at most "
            f"{tables} {'round' if tables == 1 else 'rounds'} (nobody visits a table twice), "
            f"not {_shown(rounds)}"
        )


def _shown(value: int) -> str:
    return str(value) if value.bit_length() <= 64 else "a number that large"


def _tables(count: int) -> str:
    return "1 table" if count == 1 else f"{count} tables"


def meeting_figures(grid: np.ndarray, players: int) -> tuple[int, int]:
    """(max_meetings, repeated_pairs) of a grid (round, table, seat) -> player, 0-based."""
    per_table = grid.shape[2]
    keys = []
    for i, j in itertools.combinations(range(per_table), 2):
        a, b = grid[:, :, i].ravel(), grid[:, :, j].ravel()
        keys.append(np.minimum(a, b) * players + np.maximum(a, b))
    if not keys:
        return 0, 0
    _, counts = np.unique(np.concatenate(keys), return_counts=True)
    return int(counts.max(initial=0)), int((counts > 1).sum())


def renumbered(grid: np.ndarray, players: int) -> np.ndarray:
    """The grid with players renamed: round 1's seats in order, then round 1's byes."""
    first = grid[0].ravel()
    rest = np.setdiff1d(np.arange(players, dtype=np.int64), first)
    names = np.empty(players, dtype=np.int64)
    names[first] = np.arange(first.size)
    names[rest] = np.arange(first.size, players)
    return names[grid]


def balance_seats(grid: np.ndarray, players: int) -> np.ndarray:
    """The same groups with seats dealt round by round so that each player's seats spread
    evenly: each table takes the seating that gives its players the seats they had least."""
    rounds, tables, per_table = grid.shape
    counts = np.zeros((players, per_table), dtype=np.int64)
    orders = [list(order) for order in itertools.permutations(range(per_table))]
    out = grid.copy()
    for r in range(rounds):
        for t in range(tables):
            group = grid[r, t]
            held = counts[group]  # held[i, s]: times player i sat at seat s
            best = min(orders, key=lambda order: int(held[order, range(per_table)].sum()))
            out[r, t] = group[best]
            counts[group[best], range(per_table)] += 1
    return out
