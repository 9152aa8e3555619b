"""The ranking of one tournament, kept up to date one change at a time.

``RankingState.build(data)`` ranks everything once (vectorised). Then entering, changing or
erasing a result re-ranks only the match's two groups (its table and board, NS and EW),
moves the points of the teams in them, and revalues the byes at that table and board;
``disqualify`` re-ranks the groups of the team's matches. ``to_standings()`` always equals
``rank_results(to_data())``, which the property tests check after random changes.

Moving a match to another round, table, board or pair of teams is a schedule change: it is
applied incrementally too, unless it adds or removes a whole table and board (every team's
byes change then), which rebuilds the state.

The state keeps the match objects it is given (it does not copy them): change a match through
``update_match``/``set_result``, never by editing the object handed in.

Results are held per *slot*: match ``i`` has slot ``2i`` (its NS result) and ``2i + 1``
(its EW result).
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from engine.ranking.core import (
    POINT_DECIMALS,
    SIDES,
    bye_modes,
    bye_totals,
    bye_value_table,
    bye_values,
    effective_scores,
    group_means,
    percentage_out,
    percentage_places,
    percentage_terms,
    places,
    rank_arrays,
    ranking_half_points,
    team_percentages,
    team_points,
)
from engine.ranking.final import finalise
from engine.ranking.inputs import (
    Disqualification,
    MatchEntry,
    RankingInputError,
    ScheduleIndex,
    Tournament,
    _unknown_fields,
    read_match,
    read_tournament_indexed,
)

MatchKey = int | tuple[int, int, int]
# A side in the standings' JSON text, by side number or bye mode (null: BYE_BOTH, both
# sides' mean).
SIDE_TEXTS = ('"NS"', '"EW"', "null")
RESULT_FIELDS = frozenset({"record", "scores"})


def _number(value: float) -> int | float | None:
    """A number for JSON: None for NaN, an int when whole."""
    if math.isnan(value):
        return None
    return int(value) if float(value).is_integer() else float(value)


def _json_number(value: int | float | None) -> str:
    """``json.dumps`` of a number as ``_number`` gives it."""
    if value is None:
        return "null"
    if isinstance(value, float) and not math.isfinite(value):
        return json.dumps(value)
    return repr(value)  # what json writes for an int, and for a finite float


def _numbers(values: np.ndarray) -> list[int | float | None]:
    """``_number`` of every value; vectorised, as the standings hold tens of thousands."""
    values = np.asarray(values, dtype=np.float64)
    out = values.astype(object)
    whole = np.isfinite(values) & (np.trunc(values) == values)
    exact = whole & (np.abs(values) < 2.0**53)  # int64 holds these exactly
    if exact.any():
        out[exact] = values[exact].astype(np.int64).astype(object)
    for i in np.flatnonzero(whole & ~exact).tolist():
        out[i] = int(values[i])
    out[np.isnan(values)] = None
    return out.tolist()


class RankingState:
    """The computed ranking of a tournament; see the module docstring."""

    def __init__(self, tournament: Tournament, schedule: ScheduleIndex | None = None):
        """``schedule``: the index of exactly these matches, handed over (it is changed)."""
        self._load(tournament, schedule)

    @classmethod
    def build(cls, data: Any) -> RankingState:
        """Check and rank the tournament results object; raises ``RankingInputError``."""
        return cls(*read_tournament_indexed(data))

    # -- loading ---------------------------------------------------------------------------

    def _load(self, tournament: Tournament, schedule: ScheduleIndex | None = None) -> None:
        self.scoring, self.ties, self.teams = tournament.scoring, tournament.ties, tournament.teams
        self.matches: list[MatchEntry] = list(tournament.matches)
        if schedule is None:
            schedule = ScheduleIndex(self.teams)
            for index, entry in enumerate(self.matches):
                schedule.add(entry, index)
        self.schedule = schedule
        self.disqualified: list[Disqualification] = list(tournament.disqualified)
        n_teams = len(self.teams.ids)
        self.before_final = np.zeros(n_teams, dtype=bool)
        for item in self.disqualified:
            self.before_final[item.team] = not item.after_final
        self.withdrawn: dict[int, int] = dict(tournament.withdrawn)
        self.table_boards = sorted({(m.table, m.board) for m in self.matches})
        self.table_board_index = {key: n for n, key in enumerate(self.table_boards)}
        self._load_slots()
        self._rank_all()

    def _load_slots(self) -> None:
        matches, n_teams = self.matches, len(self.teams.ids)
        self.raw_ns = np.array([m.ns_score for m in matches], dtype=np.float64)
        self.raw_ew = np.array([m.ew_score for m in matches], dtype=np.float64)
        self.played = np.array([m.played for m in matches], dtype=bool)
        match_tb = np.array(
            [self.table_board_index[(m.table, m.board)] for m in matches], dtype=np.int64
        )
        self.slot_team = np.array([(m.ns, m.ew) for m in matches], dtype=np.int64).reshape(-1)
        self.slot_group = np.stack([2 * match_tb, 2 * match_tb + 1], axis=1).reshape(-1)
        self.slot_round = np.repeat(np.array([m.round for m in matches], dtype=np.int64), 2)
        self._load_counts(n_teams)

    def _load_counts(self, n_teams: int) -> None:
        """From the slots: each team's matches at each table and board and on each side, its
        bye mode, and each group's slots."""
        n_tb = len(self.table_boards)
        cells = self.slot_team * n_tb + self.slot_group // 2
        self.appearances = np.bincount(cells, minlength=n_teams * n_tb).reshape(n_teams, n_tb)
        sides = self.slot_team * 2 + self.slot_group % 2
        self.side_counts = np.bincount(sides, minlength=n_teams * 2).reshape(n_teams, 2)
        self.modes = bye_modes(self.side_counts)
        order = np.argsort(self.slot_group, kind="stable")
        bounds = np.searchsorted(self.slot_group[order], np.arange(1, 2 * n_tb))
        self.members: list[np.ndarray] = np.split(order, bounds) if n_tb else []

    def _apply_effective(self, indices: np.ndarray) -> None:
        """Table results after disqualifications, for these matches' slots."""
        ns_slots, ew_slots = 2 * indices, 2 * indices + 1
        ns, ew, ranked, pending = effective_scores(
            self.raw_ns[indices],
            self.raw_ew[indices],
            self.played[indices],
            self.before_final[self.slot_team[ns_slots]],
            self.before_final[self.slot_team[ew_slots]],
        )
        self.slot_score[ns_slots], self.slot_score[ew_slots] = ns, ew
        self.slot_active[ns_slots], self.slot_active[ew_slots] = ranked, ranked
        self.pending[indices] = pending

    def _rank_all(self) -> None:
        n_matches = len(self.matches)
        self.slot_score = np.full(2 * n_matches, np.nan)
        self.slot_active = np.zeros(2 * n_matches, dtype=bool)
        self.pending = np.zeros(n_matches, dtype=bool)
        self._apply_effective(np.arange(n_matches))
        ranked = rank_arrays(
            self.slot_team,
            self.slot_group,
            self.slot_score,
            self.slot_active,
            self.appearances,
            self.side_counts,
            self.ties,
        )
        self.half = ranked.half
        self.group_half_sums = ranked.group_half_sums
        self.group_counts = ranked.group_counts
        self.played_half = ranked.played_half
        self.match_counts = ranked.matches
        self.bye_total = ranked.bye_total
        self.means = group_means(self.group_half_sums, self.group_counts)

    # -- incremental updates ---------------------------------------------------------------

    def _rerank(self, groups: np.ndarray) -> None:
        """Re-rank these groups; move the points of their teams; revalue byes beside them.
        All groups in one vectorised pass (a loop over groups costs numpy's per-call
        overhead for each)."""
        groups = np.unique(groups)
        if not groups.size:
            return
        members = np.concatenate([self.members[group] for group in groups.tolist()])
        member_groups = self.slot_group[members]
        active = self.slot_active[members]
        new_half = np.zeros(members.size, dtype=np.int64)
        if active.any():
            ranked = members[active]
            new_half[active] = ranking_half_points(
                member_groups[active], self.slot_score[ranked], self.ties
            )
        old_half = self.half[members]
        changed = new_half != old_half
        if changed.any():
            teams = self.slot_team[members[changed]]
            np.add.at(self.played_half, teams, new_half[changed] - old_half[changed])
            counted = (new_half[changed] > 0).astype(np.int64) - (old_half[changed] > 0)
            np.add.at(self.match_counts, teams, counted)
            self.half[members] = new_half
        n_groups = self.group_half_sums.size
        sums = np.bincount(member_groups, new_half, n_groups).astype(np.int64)
        self.group_half_sums[groups] = sums[groups]
        self.group_counts[groups] = np.bincount(member_groups[active], minlength=n_groups)[groups]
        self.means[groups] = group_means(self.group_half_sums[groups], self.group_counts[groups])
        table_boards = np.unique(groups // 2)
        self._revalue_byes(np.flatnonzero((self.appearances[:, table_boards] == 0).any(axis=1)))

    def _revalue_byes(self, teams: np.ndarray) -> None:
        if teams.size:
            values = bye_values(self.means, self.modes[teams])
            self.bye_total[teams] = bye_totals(values, self.appearances[teams] == 0)

    def _refresh(self, indices: np.ndarray) -> None:
        indices = np.asarray(indices, dtype=np.int64)
        self._apply_effective(indices)
        self._rerank(
            np.concatenate([self.slot_group[2 * indices], self.slot_group[2 * indices + 1]])
        )

    def _index(self, key: MatchKey) -> int:
        if isinstance(key, int) and not isinstance(key, bool):
            if 0 <= key < len(self.matches):
                return key
            raise RankingInputError(f"matches[{key}]: no such match ({len(self.matches)} matches)")
        if isinstance(key, tuple) and len(key) == 3:
            index = self.schedule.find(key)
            if index is not None:
                return index
        raise RankingInputError(
            f"match {key!r}: no such match (give its index or (round, table, board))"
        )

    def update_match(self, key: MatchKey, new_match: Any) -> None:
        """Replace one match (by index or ``(round, table, board)``) with a new match object."""
        index = self._index(key)
        where = f"matches[{index}]"
        entry = read_match(new_match, where, self.teams, self.scoring)
        self.schedule.check(entry, where, self.matches, skip=index)
        old = self.matches[index]
        if entry.seating != old.seating:
            self._reseat(index, old, entry)
            return
        self.matches[index] = entry
        self._store_result(index, entry)
        self._refresh(np.array([index]))

    def set_result(self, key: MatchKey, *, record: Any = None, scores: Any = None) -> None:
        """Enter or change a match's result (a record or scores); neither erases it."""
        index = self._index(key)
        new_match = {
            k: v for k, v in self.matches[index].raw.items() if k not in ("record", "scores")
        }
        if record is not None:
            new_match["record"] = record
        if scores is not None:
            new_match["scores"] = scores
        self.update_match(index, new_match)

    def set_results(self, results: Mapping[MatchKey, Mapping[str, Any]]) -> None:
        """``set_result`` for many matches at once: ``{match: {"record": ...}}``, ``{match:
        {"scores": ...}}``, or ``{match: {}}`` to erase. Each group they touch is re-ranked
        once, not once per match. All are checked first: on an error nothing changes."""
        staged: dict[int, MatchEntry] = {}
        for key, result in results.items():
            index = self._index(key)
            staged[index] = self._with_result(index, result)
        if not staged:
            return
        for index, entry in staged.items():  # same seating: the schedule stays as it is
            self.matches[index] = entry
            self._store_result(index, entry)
        self._refresh(np.fromiter(staged, dtype=np.int64, count=len(staged)))

    def _with_result(self, index: int, result: Any) -> MatchEntry:
        """Match ``index`` with the result given (``{}``: none), checked."""
        where = f"matches[{index}]"
        if not isinstance(result, Mapping):
            raise RankingInputError(f"{where}: the result must be an object")
        _unknown_fields(result, RESULT_FIELDS, where)
        new_match = {k: v for k, v in self.matches[index].raw.items() if k not in RESULT_FIELDS}
        new_match.update((k, v) for k, v in result.items() if v is not None)
        return read_match(new_match, where, self.teams, self.scoring)

    def erase_result(self, key: MatchKey) -> None:
        """The match is not played (yet): it leaves the ranking; the standings turn provisional."""
        self.set_result(key)

    def disqualify(self, team: Any, *, after_final: bool = False) -> None:
        """Disqualify a team; before finalisation every match of it becomes -1000 / 0."""
        number = self.teams.lookup(team, "disqualify", "team", "the team to disqualify")
        if any(item.team == number for item in self.disqualified):
            raise RankingInputError(f"disqualify: team {team!r} is already disqualified")
        self.disqualified.append(Disqualification(number, after_final))
        if after_final:
            return  # applied to the final snapshot in to_standings
        self.before_final[number] = True
        self._refresh(np.unique(np.flatnonzero(self.slot_team == number) // 2))

    def _store_result(self, index: int, entry: MatchEntry) -> None:
        self.raw_ns[index], self.raw_ew[index] = entry.ns_score, entry.ew_score
        self.played[index] = entry.played

    def _reseat(self, index: int, old: MatchEntry, entry: MatchEntry) -> None:
        """A schedule change: the match moves to other teams, round, table or board."""
        old_tb = self.table_board_index[(old.table, old.board)]
        new_tb = self.table_board_index.get((entry.table, entry.board))
        leaves_empty = (entry.table, entry.board) != (old.table, old.board) and (
            self.appearances[:, old_tb].sum() == 2
        )
        if new_tb is None or leaves_empty:  # the set of tables and boards changes
            matches = [*self.matches[:index], entry, *self.matches[index + 1 :]]
            self._load(
                Tournament(
                    self.scoring,
                    self.ties,
                    self.teams,
                    tuple(matches),
                    tuple(self.disqualified),
                    self.withdrawn,
                )
            )
            return
        slots = np.array([2 * index, 2 * index + 1])
        self.slot_active[slots] = False  # take the old result out under the old teams
        self._rerank(self.slot_group[slots])
        self.schedule.remove(old, index)
        self.schedule.add(entry, index)
        self.matches[index] = entry
        old_teams, old_groups = self.slot_team[slots].copy(), self.slot_group[slots].copy()
        new_teams, new_groups = (
            np.array([entry.ns, entry.ew]),
            np.array([2 * new_tb, 2 * new_tb + 1]),
        )
        np.subtract.at(self.appearances, (old_teams, old_groups // 2), 1)
        np.add.at(self.appearances, (new_teams, new_groups // 2), 1)
        np.subtract.at(self.side_counts, (old_teams, old_groups % 2), 1)
        np.add.at(self.side_counts, (new_teams, new_groups % 2), 1)
        moved = np.unique(np.concatenate([old_teams, new_teams]))
        self.modes[moved] = bye_modes(self.side_counts[moved])
        for slot, old_group, new_group in zip(slots, old_groups, new_groups, strict=True):
            if old_group != new_group:
                self.members[old_group] = self.members[old_group][self.members[old_group] != slot]
                self.members[new_group] = np.sort(np.append(self.members[new_group], slot))
        self.slot_team[slots], self.slot_group[slots] = new_teams, new_groups
        self.slot_round[slots] = entry.round
        self._store_result(index, entry)
        self._refresh(np.array([index]))
        self._revalue_byes(moved)

    # -- output ----------------------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        """The tournament results object this state ranks (interchange formats, section 4)."""
        ids = self.teams.ids
        data = {
            **self.scoring.to_data(),
            "ties": self.ties,
            "teams": list(self.teams.raw),
            "matches": [copy.deepcopy(dict(m.raw)) for m in self.matches],
            "disqualified": [
                {"team": ids[item.team], "after_final": item.after_final}
                for item in self.disqualified
            ],
        }
        if self.withdrawn:
            data["withdrawn"] = [
                {"team": ids[team], "after_round": after} for team, after in self.withdrawn.items()
            ]
        return data

    def to_standings(self, *, tables: bool = True) -> dict[str, Any]:
        """The standings object (interchange formats, section 4), plus each team's tables
        (unless ``tables`` is false: then the rows have no ``tables``)."""
        standings = {
            "provisional": bool(self.pending.any()),
            "groups": self._groups_out(),
            "standings": self._rows_out(tables=tables),
        }
        after_final = [item.team for item in self.disqualified if item.after_final]
        if not after_final:
            return standings
        final = finalise(standings)
        for team in after_final:
            final = final.disqualify_after_final(self.teams.ids[team])
        return final.as_dict()

    def to_standings_json(self) -> str:
        """``json.dumps(self.to_standings())``, the same text, written without building the
        teams' tables as objects (most of the standings of a big tournament, and most of the
        time ``json.dumps`` takes): see ``_tables_json``. The text of a big tournament is
        hundreds of megabytes, so it is put together in one join of pieces that are mostly
        views into a few shared texts, not copies (the JSON is ASCII: ``ensure_ascii``)."""
        if any(item.after_final for item in self.disqualified):
            return json.dumps(self.to_standings())
        placing = self._placing()
        order, rows = placing.order, self._rows_out(tables=False, placing=placing)
        tables, bounds = self._tables_json()
        head = json.dumps({"provisional": bool(self.pending.any()), "groups": self._groups_out()})
        parts: list[bytes | memoryview] = [head[:-1].encode(), b', "standings": [']
        for number, (team, row) in enumerate(zip(order, rows, strict=True)):
            if number:
                parts.append(b", ")
            parts += (json.dumps(row)[:-1].encode(), b', "tables": [')
            parts += tables[2 * bounds[team] : 2 * bounds[team + 1]]
            parts.append(b"]}")
        parts.append(b"]}")
        return b"".join(parts).decode("ascii")

    def to_stored_standings(self) -> dict[str, Any]:
        """The standings object in the compact form they are stored in: the rows without
        their tables, and under ``team_tables`` what rebuilds them (``expand_standings`` in
        engine/ranking/stored.py gives back ``to_standings()``): each bye mode's rank at
        every table and board once, and per row its team's bye mode, the tables and boards
        it sits at (indexes) and its played entries. A bye is the same for every team of the
        same mode, so the teams' tables, nearly all byes in a big field (one round of 1,000
        tables: 2,000 teams × 999), take no room. After a disqualification after the final
        round the standings are stored whole."""
        if any(item.after_final for item in self.disqualified):
            return self.to_standings()
        placing = self._placing()
        rows = self._rows_out(tables=False, placing=placing)
        n_teams, n_tb = self.appearances.shape
        values = np.round(bye_value_table(self.means), POINT_DECIMALS).reshape(-1)
        byes = _numbers(values)
        seated_teams, seated_tbs = self._seated()
        seated_ends = np.cumsum(np.bincount(seated_teams, minlength=n_teams)).tolist()
        seated = seated_tbs.tolist()
        played, played_ends = self._played_entries()
        starts = [0, *seated_ends[:-1]], [0, *played_ends[:-1]]
        teams = [
            [
                int(self.modes[team]),
                seated[starts[0][team] : seated_ends[team]],
                played[starts[1][team] : played_ends[team]],
            ]
            for team in placing.order
        ]
        return {
            "provisional": bool(self.pending.any()),
            "groups": self._groups_out(),
            "standings": rows,
            "team_tables": {
                "table_boards": [list(key) for key in self.table_boards],
                "byes": [byes[mode * n_tb : (mode + 1) * n_tb] for mode in range(3)],
                "teams": teams,
            },
        }

    def _seated(self) -> tuple[np.ndarray, np.ndarray]:
        """``np.nonzero(self.appearances)`` (each team's tables and boards, by team, then
        table and board), from the slots, a few per team, instead of the whole matrix (one
        round of 1,000 tables: 2 million cells)."""
        n_tb = self.appearances.shape[1]
        cells = np.unique(self.slot_team * n_tb + self.slot_group // 2)
        return cells // n_tb, cells % n_tb

    def _played_entries(self) -> tuple[list[dict[str, Any]], list[int]]:
        """The entries of the ranked results, by team, then table and board, then round
        (as in ``_tables_out``), and where each team's end."""
        slots = self._ranked_slots()
        tbs = self.slot_group[slots] // 2
        slots = slots[np.lexsort((self.slot_round[slots], tbs, self.slot_team[slots]))]
        tbs = self.slot_group[slots] // 2
        table_of = [table for table, _board in self.table_boards]
        board_of = [board for _table, board in self.table_boards]
        entries = [
            {
                "table": table_of[tb],
                "board": board_of[tb],
                "side": SIDES[side],
                "round": round_,
                "rank": rank,
                "score": score,
                "bye": False,
            }
            for tb, side, round_, rank, score in zip(
                tbs.tolist(),
                (self.slot_group[slots] % 2).tolist(),
                self.slot_round[slots].tolist(),
                _numbers(self.half[slots] / 2),
                _numbers(self.slot_score[slots]),
                strict=True,
            )
        ]
        counts = np.bincount(self.slot_team[slots], minlength=len(self.teams.ids))
        return entries, np.cumsum(counts).tolist()

    def places(self) -> dict[Any, int | None]:
        """Each team's place (None: disqualified), as in ``to_standings``, without building
        the standings (what the places after every round need, once per round)."""
        if any(item.after_final for item in self.disqualified):
            rows = self.to_standings(tables=False)["standings"]
            return {row["team"]: row["place"] for row in rows}
        placed = self._placed()
        place = self._placing().place
        return {
            team: int(place[number]) if placed[number] else None
            for number, team in enumerate(self.teams.ids)
        }

    def percentages(self) -> list[Fraction | None]:
        """Each team's exact percentage (by team number): the mean over its ranked results of
        ``(n - rank) / (n - 1) × 100``, n the size of the result's group (one result: 50);
        None for a team without a ranked result."""
        slots = self._ranked_slots()
        numerators, denominators = percentage_terms(
            self.half[slots], self.group_counts[self.slot_group[slots]]
        )
        return team_percentages(
            self.slot_team[slots], numerators, denominators, len(self.teams.ids)
        )

    def _placing(self) -> _Placing:
        """Points, percentages and places of every team, and the order of the rows.

        Provisional standings are placed by percentage (highest first; teams without a
        ranked result after them), complete ones by points (least first). Rows: placed teams
        by place, then points, then team id in natural order; disqualified teams after them
        by points, then id."""
        points = team_points(self.played_half, self.bye_total)
        percentages = self.percentages()
        placed = self._placed()
        if self.pending.any():
            place = percentage_places(percentages, placed)
        else:
            place = places(points, placed)
        numbers = np.arange(len(self.teams.ids))
        # Placed teams first, then the withdrawn, then the disqualified.
        unplaced = np.where(self.before_final, 2, np.where(placed, 0, 1))
        order = np.lexsort((numbers, points, place, unplaced)).tolist()
        return _Placing(points, percentages, place, order)

    def _placed(self) -> np.ndarray:
        """Per team: whether it gets a place (neither disqualified before finalisation nor
        withdrawn)."""
        placed = ~self.before_final
        placed[list(self.withdrawn)] = False
        return placed

    def _status(self, team: int) -> dict[str, Any]:
        if self.before_final[team]:
            return {"status": "disqualified"}
        if team in self.withdrawn:
            return {"status": "withdrawn", "withdrew_after": self.withdrawn[team]}
        return {"status": "ok"}

    def _ranked_slots(self) -> np.ndarray:
        return np.flatnonzero(self.half > 0)

    def _groups_out(self) -> list[dict[str, Any]]:
        groups = [
            {"table": table, "board": board, "side": side, "results": []}
            for table, board in self.table_boards
            for side in SIDES
        ]
        slots = self._ranked_slots()
        order = np.lexsort(
            (
                self.slot_round[slots],
                self.slot_team[slots],
                self.half[slots],
                self.slot_group[slots],
            )
        )
        slots = slots[order]
        ids = self.teams.ids
        for group, team, round_, score, rank in zip(
            self.slot_group[slots].tolist(),
            self.slot_team[slots].tolist(),
            self.slot_round[slots].tolist(),
            _numbers(self.slot_score[slots]),
            _numbers(self.half[slots] / 2),
            strict=True,
        ):
            groups[group]["results"].append(
                {"team": ids[team], "round": round_, "score": score, "rank": rank}
            )
        return groups

    def _tables_out(self) -> list[list[dict[str, Any]]]:
        """Per team, its ranking points at every table and board: results and byes."""
        slots = self._ranked_slots()
        bye_teams, bye_tbs = np.nonzero(self.appearances == 0)
        bye_modes_ = self.modes[bye_teams]
        bye_ranks = np.round(bye_value_table(self.means)[bye_modes_, bye_tbs], POINT_DECIMALS)
        teams = np.concatenate([self.slot_team[slots], bye_teams])
        tbs = np.concatenate([self.slot_group[slots] // 2, bye_tbs])
        rounds = np.concatenate([self.slot_round[slots], np.zeros(bye_teams.size, dtype=np.int64)])
        sides = np.concatenate([self.slot_group[slots] % 2, bye_modes_])
        ranks = np.concatenate([self.half[slots] / 2, bye_ranks])
        scores = np.concatenate([self.slot_score[slots], np.full(bye_teams.size, np.nan)])
        is_bye = np.arange(teams.size) >= slots.size
        order = np.lexsort((rounds, tbs, teams))
        teams, tbs, is_bye = teams[order], tbs[order], is_bye[order]
        round_values = rounds[order].astype(object)
        round_values[is_bye] = None
        side_names = np.array([*SIDES, None], dtype=object)  # None: BYE_BOTH, both sides' mean
        table_of = np.array([table for table, _board in self.table_boards], dtype=np.int64)
        board_of = np.array([board for _table, board in self.table_boards], dtype=np.int64)
        entries = [
            {
                "table": table,
                "board": board,
                "side": side,
                "round": round_,
                "rank": rank,
                "score": score,
                "bye": bye,
            }
            for table, board, side, round_, rank, score, bye in zip(
                table_of[tbs].tolist(),
                board_of[tbs].tolist(),
                side_names[sides[order]].tolist(),
                round_values.tolist(),
                _numbers(ranks[order]),
                _numbers(scores[order]),
                is_bye.tolist(),
                strict=True,
            )
        ]
        ends = np.cumsum(np.bincount(teams, minlength=len(self.teams.ids))).tolist()
        return [entries[start:end] for start, end in zip([0, *ends[:-1]], ends, strict=True)]

    def _tables_json(self) -> tuple[list[bytes | memoryview], list[int]]:
        """The text of every team's ``_tables_out`` list without its brackets, as pieces:
        team ``t``'s are ``pieces[2 * bounds[t] : 2 * bounds[t + 1]]``, a separator (empty
        for the first) before each entry or run of entries.

        A bye's entry is the same for every team of the same bye mode at that table and
        board, so each mode's byes at every table and board are written once, as one text
        (``_bye_rows``); a team's list is then its played entries between slices of that
        text, the runs of tables and boards where it has a bye. The work per team follows
        the tables and boards it sits at, not all of them: in one round of 1,000 tables a
        team has 999 byes and one result."""
        slots = self._ranked_slots()
        slots = slots[
            np.lexsort((self.slot_round[slots], self.slot_group[slots] // 2, self.slot_team[slots]))
        ]
        played, keys = self._played_texts(slots)
        byes, bye_keys = self._bye_runs()
        texts = np.empty(len(played) + len(byes), dtype=object)
        texts[: len(played)] = [text.encode() for text in played]
        texts[len(played) :] = byes
        keys = np.concatenate([keys, bye_keys])  # (team, table and board, played first)
        order = np.lexsort((keys[:, 2], keys[:, 1], keys[:, 0]))
        teams = keys[order, 0]
        counts = np.bincount(teams, minlength=len(self.teams.ids))
        first = np.ones(teams.size, dtype=bool)
        first[1:] = teams[1:] != teams[:-1]
        pieces = np.empty(2 * teams.size, dtype=object)
        pieces[0::2] = np.where(first, b"", b", ")
        pieces[1::2] = texts[order]
        return pieces.tolist(), [0, *np.cumsum(counts).tolist()]

    def _played_texts(self, slots: np.ndarray) -> tuple[list[str], np.ndarray]:
        """The entries of these ranked slots, and their keys (team, table and board, order)."""
        tbs = self.slot_group[slots] // 2
        table_of = np.array([table for table, _board in self.table_boards], dtype=np.int64)
        board_of = np.array([board for _table, board in self.table_boards], dtype=np.int64)
        texts = [
            f'{{"table": {table}, "board": {board}, "side": {SIDE_TEXTS[side]}, '
            f'"round": {round_}, "rank": {_json_number(rank)}, '
            f'"score": {_json_number(score)}, "bye": false}}'
            for table, board, side, round_, rank, score in zip(
                table_of[tbs].tolist(),
                board_of[tbs].tolist(),
                (self.slot_group[slots] % 2).tolist(),
                self.slot_round[slots].tolist(),
                _numbers(self.half[slots] / 2),
                _numbers(self.slot_score[slots]),
                strict=True,
            )
        ]
        keys = np.stack([self.slot_team[slots], tbs, np.arange(slots.size)], axis=1)
        return texts, keys.reshape(-1, 3)

    def _bye_runs(self) -> tuple[list[memoryview], np.ndarray]:
        """Each team's runs of byes (tables and boards in a row where it does not sit) as
        slices of its mode's bye text, and their keys (team, first table and board, a
        number after every played entry's)."""
        n_teams, n_tb = self.appearances.shape
        rows, offsets = self._bye_rows()
        views = [memoryview(row) for row in rows]
        seated_teams, seated_tbs = self._seated()
        # Runs end at each seat of the team and at the end of the tables and boards; each
        # starts after the team's seat before it (or at the first table and board).
        ends = np.concatenate([seated_tbs, np.full(n_teams, n_tb)])
        run_teams = np.concatenate([seated_teams, np.arange(n_teams)])
        by_team = np.lexsort((ends, run_teams))
        ends, run_teams = ends[by_team], run_teams[by_team]
        starts = np.empty_like(ends)
        if ends.size:
            starts[0] = 0
            starts[1:] = np.where(run_teams[1:] == run_teams[:-1], ends[:-1] + 1, 0)
        kept = ends > starts
        starts, ends, run_teams = starts[kept], ends[kept], run_teams[kept]
        modes = self.modes[run_teams]
        pieces = [
            views[mode][offsets[mode][start] : offsets[mode][end] - 2]
            for mode, start, end in zip(modes.tolist(), starts.tolist(), ends.tolist(), strict=True)
        ]
        keys = np.stack([run_teams, starts, np.full(starts.size, np.iinfo(np.int64).max)], axis=1)
        return pieces, keys.reshape(-1, 3).astype(np.int64)

    def _bye_rows(self) -> tuple[list[bytes], list[list[int]]]:
        """Per bye mode, the entries of a bye at every table and board joined into one text,
        and where each table and board's entry starts in it (one more: the end plus 2)."""
        n_tb = len(self.table_boards)
        values = np.round(bye_value_table(self.means), POINT_DECIMALS).reshape(-1)
        ranks = [_json_number(rank) for rank in _numbers(values)]
        rows, offsets = [], []
        for mode in range(3):
            texts = [
                f'{{"table": {table}, "board": {board}, "side": {SIDE_TEXTS[mode]}, '
                f'"round": null, "rank": {ranks[mode * n_tb + tb]}, "score": null, "bye": true}}'
                for tb, (table, board) in enumerate(self.table_boards)
            ]
            rows.append(", ".join(texts).encode())
            lengths = np.fromiter((len(text) + 2 for text in texts), np.int64, count=n_tb)
            offsets.append([0, *np.cumsum(lengths).tolist()])
        return rows, offsets

    def _rows_out(
        self, *, tables: bool = True, placing: _Placing | None = None
    ) -> list[dict[str, Any]]:
        placing = placing or self._placing()
        # Plain lists: indexing NumPy arrays one element at a time costs more than the row.
        placed, place = self._placed().tolist(), placing.place.tolist()
        points, counts = placing.points.tolist(), self.match_counts.tolist()
        rows: list[dict[str, Any]] = [
            {
                "place": place[team] if placed[team] else None,
                "team": self.teams.ids[team],
                "points": _number(points[team]),
                "percentage": percentage_out(placing.percentages[team]),
                "matches": counts[team],
                **self._status(team),
            }
            for team in placing.order
        ]
        if tables:
            per_team = self._tables_out()
            for team, row in zip(placing.order, rows, strict=True):
                row["tables"] = per_team[team]
        return rows


@dataclass(frozen=True)
class _Placing:
    """What ``RankingState._placing`` works out, indexed by team number."""

    points: np.ndarray
    percentages: list[Fraction | None]
    place: np.ndarray  # 0 for teams without a place
    order: list[int]  # team numbers in the order of the standings rows
