"""Movements at tables of several sizes: ``generate_mixed_schedule(players, sizes, rounds)``.

A field that no single table size divides (10 players: 4 + 3 + 3) may sit at tables of
different sizes, for games that allow them (GAMES.md, "Real rooms"). Table t always seats
``sizes[t]`` players at the first ``sizes[t]`` of N, E, S, W, and deals its boards for that
size; every player plays every round (the sizes add up to the players); every table is played
in every round; nobody visits a table twice, so R ≤ K; players meet as evenly as possible.

How: round by round, every player goes to a table he has not visited (a matching by augmenting
paths, from a seeded order, the sizes a player has sat at least tried first), then the tabu
search of ``engine.schedule.individual_search`` exchanges players' places (closing the chain of
rounds an exchange breaks) to bring the worst pair's meetings down first, then the number of
pairs meeting that often. Everything is counted in steps, never in time: the same
arguments always give the same movement. ``rounds_at_size`` reports, for each size, the fewest
and the most rounds a player spends at tables of that size.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.schedule.generate import ScheduleError
from engine.schedule.individual_search import improve

SEATS = ("N", "E", "S", "W")
TABLE_SIZES = (2, 3, 4)
MAX_PLAYERS = 2000
DEFAULT_MAX_ROUNDS = 12
# The work units the search may spend (``engine.schedule.individual_search``).
# A field's search may spend this much work per player, at most _WORK (small fields reach
# their best, often a forced repeat, long before).
_WORK = 150_000
_WORK_PER_PLAYER = 1_500
_START_ATTEMPTS = 40


def default_sizes(players: int, tables: int) -> list[int]:
    """The most even split of ``players`` over ``tables`` tables, larger tables first."""
    low, high = divmod(players, tables)
    return [low + 1] * high + [low] * (tables - high)


def most_rounds(sizes: Sequence[int]) -> int:
    """The most rounds tables of these sizes can play without anybody visiting one twice."""
    return min(len(sizes), sum(sizes) // max(sizes))


def generate_mixed_schedule(
    players: int, sizes: Sequence[int], rounds: int | None = None
) -> dict[str, Any]:
    """The movement of ``players`` at tables of ``sizes`` (one per table) over ``rounds``
    rounds (default: ``most_rounds``, at most 12), as the JSON object of docs/movement.md."""
    sizes, asked = _check_request(players, sizes, rounds)
    rounds, groups = _drawn_groups(players, sizes, asked)
    movement: dict[str, Any] = {
        "players": players,
        "sizes": list(sizes),
        "tables": len(sizes),
        "rounds": rounds,
        "seatings": _seatings(groups),
        "byes": [],
    }
    most, repeated = _figures(groups, players)
    movement["max_meetings"] = most
    movement["repeated_pairs"] = repeated
    movement["rounds_at_size"] = rounds_at_size(groups, sizes, players)
    return movement


def _drawn_groups(
    players: int, sizes: list[int], asked: int | None
) -> tuple[int, list[list[list[int]]]]:
    """The rounds and groups of the movement: the rounds asked, or else the most the matching
    can seat (from ``most_rounds``, at most 12); ``ScheduleError`` when none is found."""
    rounds = asked or min(most_rounds(sizes), DEFAULT_MAX_ROUNDS)
    groups = mixed_groups(players, tuple(sizes), rounds)
    while groups is None and not asked and rounds > 1:
        rounds -= 1  # the most rounds are too tight for the matching: one fewer
        groups = mixed_groups(players, tuple(sizes), rounds)
    if groups is None:
        raise ScheduleError(f"no movement found for {players} players at tables of {sizes}")
    return rounds, groups


def _seatings(groups: list[list[list[int]]]) -> list[dict[str, Any]]:
    """The seatings of docs/movement.md: rounds, tables and players counted from 1."""
    return [
        {
            "round": r + 1,
            "table": t + 1,
            "seats": {seat: p + 1 for seat, p in zip(SEATS, group, strict=False)},
        }
        for r, tables in enumerate(groups)
        for t, group in enumerate(tables)
    ]


def _check_request(players: Any, sizes: Any, rounds: Any) -> tuple[list[int], int | None]:
    _check_field(players, sizes)
    most = most_rounds(sizes)
    if rounds is None:
        return sorted(sizes, reverse=True), None
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= most:
        raise ScheduleError(
            f"rounds must be between 1 and {most} (nobody visits a table twice, and a table "
            f"of {max(sizes)} needs {max(sizes)} new players a round), not {rounds!r}"
        )
    return sorted(sizes, reverse=True), rounds


def _check_field(players: Any, sizes: Any) -> None:
    """``ScheduleError`` unless ``sizes`` lists tables that seat exactly ``players``."""
    if not isinstance(players, int) or isinstance(players, bool):
        raise ScheduleError(f"players must be a whole number, not {players!r}")
    _check_sizes(sizes)
    if not 2 <= players <= MAX_PLAYERS:
        raise ScheduleError(f"players must be between 2 and {MAX_PLAYERS}")
    if sum(sizes) != players:
        raise ScheduleError(
            f"tables of {' + '.join(map(str, sizes))} seat {sum(sizes)} players, not {players}"
        )


def _check_sizes(sizes: Any) -> None:
    """``ScheduleError`` unless ``sizes`` is a list of table sizes the movements know."""
    if not isinstance(sizes, list | tuple) or not sizes:
        raise ScheduleError("sizes must list the players of every table")
    if any(type(size) is not int or size not in TABLE_SIZES for size in sizes):
        raise ScheduleError("every table seats 2, 3 or 4 players")


def mixed_groups(players: int, sizes: tuple[int, ...], rounds: int) -> list[list[list[int]]] | None:
    """groups[r][t]: the players (0-based) of table t in round r, in seat order. Round 1
    reads 0, 1, 2, ... table by table. None if no start is found."""
    seed = (players * 1_000_003 + len(sizes) * 10_007 + rounds * 101 + sum(sizes)) % 2**32
    rng = random.Random(seed)
    groups = _start(players, sizes, rounds, rng)
    if groups is None:
        return None
    groups = improve(groups, players, seed, work=min(_WORK, _WORK_PER_PLAYER * players))
    return _renumbered(groups, players)


def _start(
    players: int, sizes: tuple[int, ...], rounds: int, rng: random.Random
) -> list[list[list[int]]] | None:
    """A valid movement: round 1 in order, then each round a matching of players to tables
    they have not visited, tables of the sizes a player has sat at least tried first."""
    first: list[list[int]] = []
    start = 0
    for size in sizes:
        first.append(list(range(start, start + size)))
        start += size
    for _attempt in range(_START_ATTEMPTS):
        groups = _attempt_rounds(first, players, sizes, rounds, rng)
        if len(groups) == rounds:
            return groups
    return None


def _attempt_rounds(
    first: list[list[int]], players: int, sizes: tuple[int, ...], rounds: int, rng: random.Random
) -> list[list[list[int]]]:
    """Round ``first``, then as many of the other rounds as the matching seats in turn."""
    groups = [first]
    unvisited = [list(range(len(sizes))) for _ in range(players)]  # in table order
    at_size = [dict.fromkeys(sizes, 0) for _ in range(players)]
    _seat(first, sizes, unvisited, at_size)
    for _r in range(1, rounds):
        held = _round(players, sizes, unvisited, at_size, rng)
        if held is None:
            break
        groups.append(held)
        _seat(held, sizes, unvisited, at_size)
    return groups


def _seat(
    held: list[list[int]],
    sizes: tuple[int, ...],
    unvisited: list[list[int]],
    at_size: list[dict[int, int]],
) -> None:
    """A round's tables noted: each player has visited his table and sat once more at its
    size."""
    for t, group in enumerate(held):
        for p in group:
            unvisited[p].remove(t)
            at_size[p][sizes[t]] += 1


def _round(
    players: int,
    sizes: tuple[int, ...],
    unvisited: list[list[int]],
    at_size: list[dict[int, int]],
    rng: random.Random,
) -> list[list[int]] | None:
    options = _table_options(players, sizes, unvisited, at_size, rng)
    held: list[list[int]] = [[] for _ in sizes]
    order = list(range(players))
    _shuffle(order, rng)
    for p in order:
        if not _place(p, options, sizes, held, set()):
            return None
    return held


def _table_options(
    players: int,
    sizes: tuple[int, ...],
    unvisited: list[list[int]],
    at_size: list[dict[int, int]],
    rng: random.Random,
) -> list[list[int]]:
    """For each player, the tables he has not visited in a random order, those of the sizes he
    has sat at least first."""
    options = []
    for p in range(players):
        tables = unvisited[p][:]
        _shuffle(tables, rng)
        sat_at_table = list(map(at_size[p].__getitem__, sizes))  # rounds at each table's size
        tables.sort(key=sat_at_table.__getitem__)
        options.append(tables)
    return options


def _shuffle(items: list[int], rng: random.Random) -> None:
    """``rng.shuffle(items)`` written out, the very same draws (Fisher-Yates from the end,
    each index drawn from ``getrandbits`` by rejection, as CPython's ``random`` does): the
    starts shuffle millions of short lists, and the library's may change between versions."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        bits = (i + 1).bit_length()
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def _place(
    player: int, options: list[list[int]], sizes: tuple[int, ...], held: list, seen: set
) -> bool:
    for table in options[player]:
        if table in seen:
            continue
        seen.add(table)
        if len(held[table]) < sizes[table]:
            held[table].append(player)
            return True
        for index, other in enumerate(held[table]):
            if _place(other, options, sizes, held, seen):
                held[table][index] = player
                return True
    return False


def _renumbered(groups: list[list[list[int]]], players: int) -> list[list[list[int]]]:
    names = [0] * players
    for index, p in enumerate(p for group in groups[0] for p in group):
        names[p] = index
    return [[[names[p] for p in group] for group in tables] for tables in groups]


def _figures(groups: list[list[list[int]]], players: int) -> tuple[int, int]:
    """(max_meetings, repeated_pairs)."""
    meet = Counter(
        (min(a, b), max(a, b))
        for tables in groups
        for group in tables
        for a, b in itertools.combinations(group, 2)
    )
    counts = meet.values()
    return max(counts, default=0), sum(1 for c in counts if c > 1)


def rounds_at_size(
    groups: list[list[list[int]]], sizes: Sequence[int], players: int
) -> dict[str, list[int]]:
    """For each table size (as text, largest first): [fewest, most] rounds a player spends at
    tables of that size."""
    counts = {size: [0] * players for size in sizes}
    for tables in groups:
        for t, group in enumerate(tables):
            for p in group:
                counts[sizes[t]][p] += 1
    return {
        str(size): [min(counts[size]), max(counts[size])] for size in sorted(counts, reverse=True)
    }
