"""Local search for movements that no construction makes repeat-free.

The search improves a valid grid (``engine.schedule.individual_construct``: shape (rounds,
tables, per_table), players 0-based) by moves that keep it valid. A bye counts as one more
table, "the bye", that nobody may visit twice either; a player's *places* are then his tables
and his bye, all different. A move exchanges the places of two players x and y in one round
r, and repairs what that breaks: if x now holds a place he also holds in round d, the two
players exchange their places in round d too, and so on, for y likewise, until nobody holds a
place twice. The rounds exchanged close up into a cycle (with every table visited, as in 16
players at 4 tables for 4 rounds, no smaller move exists) or a chain, and the tables of every
round keep their n players.

It is a tabu search driven by conflicts: each step picks a pair that meets more than once
(at random, from a fixed seed), one round in which they meet, and makes the best allowed move
of either of them in that round, even an uphill one; the players just moved may not move again
in that round for a few steps unless the move beats the best cost seen. It stops when no pair
meets twice, after a fixed number of steps, or when the best cost has not improved for a while;
the best grid seen is returned. Everything is counted in steps, never in time, so the same
arguments always give the same movement.

The search runs in C (``engine/schedule/_search.c``, built by pip with the project): the very
same steps, from the very same random draws (Python's ``random.Random``, reproduced), so the
very same grid as the Python search below, which stays as the reference and runs instead in
three cases: a seed outside 0 to 2**64 - 3, more than 5,000 players, or a search that reads the
weight of a meeting count that 128-bit integers cannot hold exactly with every sum it forms
(the weights grow as (pairs + 1)**(count - 2): exact up to 9 meetings of a pair among 200
players, 7 among 2,000; searches rarely go past 3, a start may: one of the proposals' starts
for 133 players, 66 tables and 66 rounds has a pair meeting 11 times); that search is then run
again from the start in Python. The C search lets other threads run meanwhile. A malformed grid
(a round with other tables than the first, a player twice in a round or not between 0 and
players - 1) is refused with ValueError or TypeError.
"""

from __future__ import annotations

import random
from itertools import islice

import numpy as np

from engine.schedule import _search

# A run stops after this many steps without a new best; up to _RUNS runs from the same start
# with different seeds, within _WORK units of work in all (a unit: one round of one candidate
# move weighed, about a microsecond or two in Python, a tenth of one in C), the best of them
# kept.
_PATIENCE = 1_500
_RUNS = 3
_WORK = 2_000_000
_TABU_TENURE = (4, 12)
_LONGEST = 1_000
# The C search: the bits its costs may take (of 128, one kept spare); the most players it takes
# (it keeps three tables of every pair, 12 bytes a pair); the largest work it counts (more is
# the same: no search gets there).
_C_BITS = 126
_C_PLAYERS = 5_000
_C_WORK = 2**62
_C_SETTINGS = (_PATIENCE, _RUNS, *_TABU_TENURE, _LONGEST)


def improve(grid: np.ndarray | list, players: int, seed: int, work: int = _WORK):
    """A grid at least as good as ``grid`` (valid in, valid out); a nested list in, one out.
    The C search where it can (the module's docstring), else ``improve_in_python``: the same
    grid either way."""
    if isinstance(grid, np.ndarray) and grid.ndim != 3:
        raise ValueError(f"a grid is (rounds, tables, players at a table), not {grid.shape}")
    if 0 <= seed <= 2**64 - _RUNS and players <= _C_PLAYERS:
        rows = grid.tolist() if isinstance(grid, np.ndarray) else grid
        work_c = max(-_C_WORK, min(work, _C_WORK))
        found = _search.improve(rows, players, seed, work_c, _C_BITS, _C_SETTINGS)
        if found is False:
            return grid
        if isinstance(found, list):
            return _shaped(found, grid)
    return improve_in_python(grid, players, seed, work)


def _shaped(seats: list[int], grid: np.ndarray | list) -> np.ndarray | list:
    """The seats of the C search (table by table, round by round) in the shape of ``grid``."""
    if isinstance(grid, np.ndarray):
        return np.array(seats, dtype=np.int64).reshape(grid.shape)
    taken = iter(seats)
    return [[list(islice(taken, len(group))) for group in tables] for tables in grid]


def improve_in_python(grid: np.ndarray | list, players: int, seed: int, work: int = _WORK):
    """``improve`` in Python alone: the reference of the C search."""
    best, best_cost = grid, None
    for run in range(_RUNS):
        search = _Search(grid, players, seed + run)
        if best_cost is None:
            best_cost = search.cost
        found, cost, used = search.run(work)
        if cost < best_cost:
            best, best_cost = found, cost
        work -= used
        if best_cost == 0 or work <= 0:
            break
    return best


def _rows_of(grid: np.ndarray | list) -> list[list[list[int]]]:
    """The grid as nested lists of its own (rows[r][t]: the players of table t in round r)."""
    if isinstance(grid, np.ndarray):
        return grid.tolist()
    return [[list(g) for g in r] for r in grid]


def _meeting_weights(players: int, rounds: int) -> list[int]:
    """weight[m]: the cost of a pair meeting m times (0 for m < 2), each count outweighing
    every pair of the field meeting one time fewer; up to rounds + 1 meetings."""
    pairs = players * (players - 1) // 2
    weight = [0, 0, 1]
    while len(weight) <= rounds + 1:
        weight.append(weight[-1] * (pairs + 1))
    return weight


class _BestMoves:
    """The moves of least cost change offered so far; a tabu move only when it would beat the
    best cost found (``margin``: that cost less the current one)."""

    def __init__(self, tabu: dict, step: int, margin: int):
        self.tabu, self.step, self.margin = tabu, step, margin
        self.delta: int | None = None
        self.found: list[tuple[int, int, list[int]]] = []

    def may_take(self, least: int) -> bool:
        """Whether a move whose change is at least ``least`` might still be taken."""
        return self.delta is None or least <= self.delta

    def offer(self, delta: int, x: int, y: int, rounds: list[int]) -> None:
        if self.delta is not None and delta > self.delta:
            return
        if delta >= self.margin and self._is_tabu(x, y, rounds):
            return
        if self.delta is None or delta < self.delta:
            self.delta, self.found = delta, [(x, y, rounds)]
        else:
            self.found.append((x, y, rounds))

    def _is_tabu(self, x: int, y: int, rounds: list[int]) -> bool:
        """Whether x or y moved in one of these rounds too recently to move there again."""
        return any(self.tabu.get((c, p), -1) > self.step for c in rounds for p in (x, y))


class _Search:
    def __init__(self, grid: np.ndarray | list, players: int, seed: int) -> None:
        # A nested list (groups[r][t]) holds tables of several sizes (engine.schedule.mixed).
        self.ragged = not isinstance(grid, np.ndarray)
        rows = _rows_of(grid)
        self.rounds, self.tables = len(rows), len(rows[0])
        self.players = players
        self.rng = random.Random(seed)
        tables = self.tables
        self.bye = tables  # the place number of a bye
        # groups[r][place]: the players of a table in seat order, or (place = bye) sitting out
        self.groups: list[list[list[int]]] = []
        self.place: list[list[int]] = []  # place[r][p]
        self.mates: list[list[tuple[int, ...]]] = []  # mates[r][p]: the others at p's table
        # held[p][place]: the round in which p holds that place (a table or the bye), or -1
        self.held = [[-1] * (tables + 1) for _ in range(players)]
        self.meet = [[0] * players for _ in range(players)]
        self._net = [0] * players  # scratch list of _delta, all zero between its calls
        for r, tables_of_round in enumerate(rows):
            self._seat_round(r, tables_of_round)
        self.weight = weight = _meeting_weights(players, self.rounds)
        # gain[m], loss[m]: the change of cost as a pair that meets m times meets once more,
        # once less
        self.gain = [weight[m + 1] - weight[m] for m in range(len(weight) - 1)]
        self.loss = [weight[m - 1] - weight[m] for m in range(len(weight))]
        self.bad: list[tuple[int, int]] = []
        self.bad_index: dict[tuple[int, int], int] = {}
        self.cost = 0
        self.own = [0] * players  # own[p]: the cost of p's pairs, p's share of the cost
        self._count_repeated_meetings()

    def _seat_round(self, r: int, tables_of_round: list[list[int]]) -> None:
        """Round ``r``'s tables in the bookkeeping: who holds which place, who meets whom, who
        sits out."""
        place = [self.bye] * self.players
        for t, group in enumerate(tables_of_round):
            for i, a in enumerate(group):
                place[a] = t
                self.held[a][t] = r
                for b in group[i + 1 :]:
                    self.meet[a][b] += 1
                    self.meet[b][a] += 1
        byes = [p for p in range(self.players) if place[p] == self.bye]
        for p in byes:
            self.held[p][self.bye] = r
        self.groups.append([*tables_of_round, byes])
        self.place.append(place)
        self.mates.append([()] * self.players)
        for t in range(self.tables):
            self._note_mates(r, t)

    def _count_repeated_meetings(self) -> None:
        """Every pair that meets more than once listed as bad, its weight in the cost."""
        for a in range(self.players):
            row = self.meet[a]
            for b in range(a + 1, self.players):
                if row[b] >= 2:
                    self._add_bad((a, b))
                    self.cost += self.weight[row[b]]
                    self.own[a] += self.weight[row[b]]
                    self.own[b] += self.weight[row[b]]

    # --- bookkeeping ---------------------------------------------------------------------------

    def _add_bad(self, pair: tuple[int, int]) -> None:
        self.bad_index[pair] = len(self.bad)
        self.bad.append(pair)

    def _drop_bad(self, pair: tuple[int, int]) -> None:
        index = self.bad_index.pop(pair)
        last = self.bad.pop()
        if index < len(self.bad):
            self.bad[index] = last
            self.bad_index[last] = index

    def _change(self, a: int, b: int, by: int) -> None:
        before = self.meet[a][b]
        after = before + by
        self.meet[a][b] = self.meet[b][a] = after
        change = self.weight[after] - self.weight[before]
        self.cost += change
        self.own[a] += change
        self.own[b] += change
        pair = (a, b) if a < b else (b, a)
        if before >= 2 > after:
            self._drop_bad(pair)
        elif after >= 2 > before:
            self._add_bad(pair)

    def _note_mates(self, r: int, place: int) -> None:
        """The mates of the players of a place (a table, or none on the bye) in round r."""
        group, mates = self.groups[r][place], self.mates[r]
        for p in group:
            mates[p] = () if place == self.bye else tuple(q for q in group if q != p)

    # --- the search ----------------------------------------------------------------------------

    def run(self, work: int) -> tuple[np.ndarray | list, int, int]:
        """(the best grid seen, its cost, the work done)."""
        best_cost, best = self.cost, self._snapshot()
        tabu: dict[tuple[int, int], int] = {}
        since = step = 0
        self.work = 0
        while self.bad and since < _PATIENCE and self.work < work:
            a, b = self.bad[self.rng.randrange(len(self.bad))]
            r = self._meeting_round(a, b)
            move = self._best_move(r, (a, b), tabu, step, best_cost)
            since += 1
            step += 1
            if move is None:
                continue
            self._make(move, tabu, step)
            if self.cost < best_cost:
                best_cost, best, since = self.cost, self._snapshot(), 0
        return best, best_cost, self.work

    def _make(self, move: tuple[int, int, list[int]], tabu: dict, step: int) -> None:
        """The move made: x and y exchange places in its rounds, and may not move again in
        them for a few steps."""
        x, y, rounds = move
        for c in rounds:
            self._exchange(c, x, y)
            tabu[c, x] = tabu[c, y] = step + self.rng.randint(*_TABU_TENURE)

    def _snapshot(self) -> np.ndarray | list:
        if self.ragged:
            return [[list(group) for group in groups[: self.tables]] for groups in self.groups]
        return np.array([groups[: self.tables] for groups in self.groups], dtype=np.int64)

    def _meeting_round(self, a: int, b: int) -> int:
        rounds = [
            r for r, place in enumerate(self.place) if place[a] == place[b] and place[a] != self.bye
        ]
        return rounds[self.rng.randrange(len(rounds))]

    def _closure(self, r: int, x: int, y: int) -> list[int] | None:
        """The rounds in which x and y must exchange places, starting from round r; None if
        there are more than _LONGEST."""
        rounds, stack = [r], [r]
        held_x, held_y, place = self.held[x], self.held[y], self.place
        while stack:
            place_c = place[stack.pop()]
            d = held_x[place_c[y]]  # x holds y's place of round c in round d
            if d >= 0 and d not in rounds:
                rounds.append(d)
                stack.append(d)
            d = held_y[place_c[x]]
            if d >= 0 and d not in rounds:
                rounds.append(d)
                stack.append(d)
        return rounds if len(rounds) <= _LONGEST else None

    def _delta(self, x: int, y: int, rounds: list[int]) -> int:
        """The change of cost if x and y exchange places in these rounds (more than one)."""
        touched = self._count_changes(x, y, rounds)
        meet_x, meet_y, net = self.meet[x], self.meet[y], self._net
        gain, loss, change = self.gain, self.loss, self._meeting_change
        delta = 0
        for a in touched:
            more = net[a]  # a meets x this many times more, y as many times fewer
            if more == 1:
                delta += gain[meet_x[a]] + loss[meet_y[a]]
            elif more == -1:
                delta += loss[meet_x[a]] + gain[meet_y[a]]
            elif more:
                delta += change(meet_x[a], more) + change(meet_y[a], -more)
            net[a] = 0
        return delta

    def _meeting_change(self, meetings: int, more: int) -> int:
        """The change of cost as a pair that meets ``meetings`` times meets ``more`` times more."""
        return self.weight[meetings + more] - self.weight[meetings]

    def _count_changes(self, x: int, y: int, rounds: list[int]) -> list[int]:
        """In the scratch list, how many more times each player would meet x (and so fewer
        times y) after the exchange; the players touched (with repeats)."""
        mates, net = self.mates, self._net
        touched: list[int] = []
        for c in rounds:
            mates_x, mates_y = mates[c][x], mates[c][y]
            touched += mates_x
            touched += mates_y
            for a in mates_x:
                net[a] -= 1
            for b in mates_y:
                net[b] += 1
        return touched

    def _best_move(
        self, r: int, movers: tuple[int, int], tabu: dict, step: int, best_cost: int
    ) -> tuple[int, int, list[int]] | None:
        """The best allowed exchange of a mover with another player in round r (with the rounds
        it repairs); ties broken at random."""
        best = _BestMoves(tabu, step, best_cost - self.cost)
        for x in movers:
            self._offer_moves_of(r, x, best)
        if not best.found:
            return None
        return best.found[self.rng.randrange(len(best.found))]

    def _offer_moves_of(self, r: int, x: int, best: _BestMoves) -> None:
        """Every exchange of x with a player at another table (or the bye) of round r."""
        home, mates_x = self.place[r][x], self.mates[r][x]
        meet_x, loss = self.meet[x], self.loss
        leave_x = sum([loss[meet_x[a]] for a in mates_x])
        self.work += self.players
        for there in range(len(self.groups[r])):
            if there != home:
                self._offer_moves_to(r, x, (home, there, mates_x, leave_x), best)

    def _offer_moves_to(
        self, r: int, x: int, where: tuple[int, int, tuple[int, ...], int], best: _BestMoves
    ) -> None:
        """Every exchange of x with a player at table ``there`` (or the bye) of round r: within
        round r alone when neither has sat at the other's table, else with its repairs."""
        home, there, mates_x, leave_x = where
        group = self.groups[r][there]
        if self.held[x][there] >= 0:
            for y in group:
                self._offer_repaired(r, x, y, best)
            return
        joins = self._joins(x, there, group)
        stay_x = leave_x + sum(joins)  # x's part of the change, but for the player he replaces
        held, own, alone = self.held, self.own, [r]
        for y, join in zip(group, joins, strict=True):
            if held[y][home] >= 0:
                self._offer_repaired(r, x, y, best)
            elif best.may_take(stay_x - join - own[y]):  # y loses at most his own share
                best.offer(stay_x - join + self._y_part(r, y, mates_x), x, y, alone)

    def _joins(self, x: int, there: int, group: list[int]) -> list[int]:
        """The change of cost as x joins each player of a table (nothing for the bye)."""
        if there == self.bye:
            return [0] * len(group)
        gain, meet_x = self.gain, self.meet[x]
        return [gain[meet_x[b]] for b in group]

    def _offer_repaired(self, r: int, x: int, y: int, best: _BestMoves) -> None:
        """The exchange of x and y in round r with the closure of repairs it needs (none offered
        when no closure exists)."""
        closure = self._closure(r, x, y)
        if closure is None:
            return
        self.work += len(closure)
        # Neither can lose more than his own share of the cost: a move that cannot come up to
        # the best offered is not weighed.
        if best.may_take(-self.own[x] - self.own[y]):
            best.offer(self._delta(x, y, closure), x, y, closure)

    def _y_part(self, r: int, y: int, mates_x: tuple[int, ...]) -> int:
        """y's part of the change of cost of a move within round r: joining x's mates, leaving
        his own."""
        meet_y, gain, loss = self.meet[y], self.gain, self.loss
        part = 0
        for a in mates_x:
            part += gain[meet_y[a]]
        for b in self.mates[r][y]:
            part += loss[meet_y[b]]
        return part

    def _exchange(self, r: int, x: int, y: int) -> None:
        """x and y exchange places (tables and seats, or a bye) in round r."""
        for a in self.mates[r][x]:
            self._change(x, a, -1)
            self._change(y, a, +1)
        for b in self.mates[r][y]:
            self._change(y, b, -1)
            self._change(x, b, +1)
        place = self.place[r]
        place_x, place_y = place[x], place[y]
        group_x, group_y = self.groups[r][place_x], self.groups[r][place_y]
        index_x, index_y = group_x.index(x), group_y.index(y)
        group_x[index_x], group_y[index_y] = y, x
        place[x], place[y] = place_y, place_x
        held_x, held_y = self.held[x], self.held[y]
        if held_x[place_x] == r:
            held_x[place_x] = -1
        if held_y[place_y] == r:
            held_y[place_y] = -1
        held_x[place_y] = r
        held_y[place_x] = r
        self._note_mates(r, place_x)
        self._note_mates(r, place_y)
