"""Standings of games of individuals: ``rank_individuals(data)`` (docs/ranking.md).

The input names its game, a ranking method and the matches of a movement: who sat in which
seat at which table in which round, and the table result of each board (a board record the
game scores, the game's score object, or the table results by seat). Two methods:

- **duplicate**: each table, board and seat is a group; the results of its visits are ranked
  against each other (best 1, ties by the tournament's policy) and worth a percentage,
  ``(n - rank) / (n - 1) × 100`` (a group of one: 50). A player's points are the sum of his
  ranking points, least wins; while a result is missing the standings are provisional and
  placed by percentage, highest first, players with no result yet after them.
- **totals**: the game's own sheet kept over the tournament (``Game.totals_entry``): most wins,
  ties broken by the game's tie-break, more wins.

Rulings (the rulebook's pair rules, per player):

- **Byes.** A player without a seat in a round that has matches sits out. In duplicate each
  board of that round (the most boards a table plays in it) is worth the mean of the ranking
  points given in that round, so sitting out neither helps nor hurts; while nothing of the
  round is ranked it is worth nothing yet. Byes count in points, not in ``matches``, and give
  no percentage. In totals a bye is worth nothing.
- **Disqualified before finalisation**: in every match of the player, played or not, his seat
  scores -1000 and every other seat 0; a match whose every player is disqualified is left out.
  He keeps his points and is listed after the others without a place.
- **Disqualified after finalisation**: ranked as if it had not happened, then taken off the
  table: the players placed below him move up one place; nobody's points change.
- **Withdrawn** (``withdrawn``: ``[{player, after_round}]``, a player who left for good): his
  results stand and count for the others; he gets no place and is listed after the placed
  players, before the disqualified, with ``status: "withdrawn"`` and ``withdrew_after``.
- Order: places first, then player id in natural order ("P2" before "P10"); players without a
  place after them (the withdrawn, then the disqualified). Points are rounded to 6
  decimals, percentages to 2.
"""

from __future__ import annotations

import bisect
import math
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from engine.core.errors import RecordError, SettingsError
from engine.core.seats import SEAT_LETTERS
from engine.games import PLAYERS, UnknownGame, get_game
from engine.games.base import Game
from engine.ranking.core import (
    DISQUALIFIED_SCORE,
    OPPONENT_OF_DISQUALIFIED_SCORE,
    POINT_DECIMALS,
    percentage_out,
    rank_groups,
)
from engine.ranking.inputs import (
    SCORE_LIMIT,
    TIE_POLICIES,
    RankingInputError,
    read_withdrawn,
    team_sort_key,
)

METHODS = ("duplicate", "totals")
FIELDS = frozenset({"game", "method", "ties", "settings", "players", "matches", "byes"})
FIELDS_ALL = FIELDS | {"disqualified", "withdrawn"}
MATCH_FIELDS = frozenset({"round", "table", "board", "seats", "record", "score", "scores"})
RESULT_FIELDS = ("record", "score", "scores")


def rank_individuals(data: Any) -> dict[str, Any]:
    """The standings object of an individual tournament results object; RankingInputError
    naming the item for input that cannot be ranked."""
    field_ = _read(data)
    if field_.method == "totals":
        standings = _totals(field_)
    else:
        standings = _duplicate(field_)
    for player in field_.after_final:
        standings["standings"] = _taken_off(standings["standings"], player)
    return {"game": field_.game_id, "method": field_.method, **standings}


# -- reading ------------------------------------------------------------------------------------


@dataclass
class _Match:
    where: str
    round: int
    table: int
    board: int
    seats: dict[str, Any]
    score: dict[str, Any] | None  # the game's score object (with "seats"), None: no result yet


@dataclass
class _Field:
    game_id: str
    game: Game
    method: str
    ties: str
    players: list[Any]
    matches: list[_Match]
    disqualified: set[Any] = field(default_factory=set)  # before finalisation
    after_final: list[Any] = field(default_factory=list)
    withdrawn: dict[Any, int] = field(default_factory=dict)  # player: the last round he played

    def status(self, player: Any) -> str:
        if player in self.disqualified:
            return "disqualified"
        return "withdrawn" if player in self.withdrawn else "ok"

    def row_status(self, player: Any) -> dict[str, Any]:
        """A standings row's ``status``, and ``withdrew_after`` for a withdrawn player."""
        status = self.status(player)
        if status == "withdrawn":
            return {"status": status, "withdrew_after": self.withdrawn[player]}
        return {"status": status}


def _read(data: Any) -> _Field:
    if not isinstance(data, Mapping):
        raise RankingInputError("input: must be a JSON object")
    unknown = sorted(set(data) - FIELDS_ALL)
    if unknown:
        raise RankingInputError(f"input: unknown field {unknown[0]!r}")
    game_id, game = _read_game(data.get("game"))
    method, ties = _read_method(data)
    settings = _read_settings(game, data.get("settings"))
    players = _read_players(data.get("players"))
    known = set(players)
    matches = _read_matches(data.get("matches", []), known, game, settings)
    _check_byes(data.get("byes", []), known, matches)
    field_ = _Field(game_id, game, method, ties, players, matches)
    _read_disqualified(data.get("disqualified", []), known, field_)
    field_.withdrawn = read_withdrawn(data.get("withdrawn", []), known, "player")
    return field_


def _read_method(data: Mapping) -> tuple[str, str]:
    """The ranking method and the tie policy (duplicate and min when not given)."""
    method = data.get("method", "duplicate")
    if method not in METHODS:
        raise RankingInputError(f"method: must be duplicate or totals, not {method!r}")
    ties = data.get("ties", "min")
    if ties not in TIE_POLICIES:
        raise RankingInputError(f"ties: must be one of min, average, max, not {ties!r}")
    return method, ties


def _read_settings(game: Game, raw: Any) -> Mapping:
    """The game's settings with the given options (its defaults when none)."""
    try:
        return game.settings(raw or {})
    except (SettingsError, ValueError, TypeError) as error:
        raise RankingInputError(f"settings: {error}") from None


def _read_game(game_id: Any) -> tuple[str, Game]:
    if not isinstance(game_id, str):
        raise RankingInputError("game: missing (the id of a game of individuals)")
    try:
        game = get_game(game_id)
    except UnknownGame as error:
        raise RankingInputError(f"game: {error}") from None
    if game.entrants != PLAYERS:
        raise RankingInputError(f"game: {game_id} ranks pairs; rank it with the rank command")
    return game_id, game


def _is_id(value: Any) -> bool:
    return (isinstance(value, str) and value != "") or (
        isinstance(value, int) and not isinstance(value, bool)
    )


def _read_players(raw: Any) -> list[Any]:
    if not isinstance(raw, list) or not raw:
        raise RankingInputError("players: must be a non-empty list of {id, name}")
    ids: list[Any] = []
    seen: set[Any] = set()
    for i, item in enumerate(raw):
        where = f"players[{i}]"
        if not isinstance(item, Mapping) or not _is_id(item.get("id")):
            raise RankingInputError(f"{where}: must be an object with an id (text or number)")
        if item["id"] in seen:
            raise RankingInputError(f"{where}: player {item['id']!r} is listed twice")
        seen.add(item["id"])
        ids.append(item["id"])
    return ids


def _whole(raw: Mapping[str, Any], name: str, where: str) -> int:
    value = raw.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 10**6:
        raise RankingInputError(f"{where}.{name}: must be a whole number from 1, not {value!r}")
    return value


def _read_matches(raw: Any, known: set[Any], game: Game, settings: Mapping) -> list[_Match]:
    if not isinstance(raw, list):
        raise RankingInputError("matches: must be a list")
    matches = [
        _read_match(item, f"matches[{i}]", known, game, settings) for i, item in enumerate(raw)
    ]
    _check_movement(matches)
    return matches


def _read_match(raw: Any, where: str, known: set[Any], game: Game, settings: Mapping) -> _Match:
    if not isinstance(raw, Mapping):
        raise RankingInputError(f"{where}: must be an object")
    unknown = sorted(set(raw) - MATCH_FIELDS)
    if unknown:
        raise RankingInputError(f"{where}: unknown field {unknown[0]!r}")
    round_, table, board = (_whole(raw, name, where) for name in ("round", "table", "board"))
    seats = _read_seats(raw.get("seats"), f"{where}.seats", known)
    score = _read_given_result(raw, where, seats, game, settings)
    return _Match(where, round_, table, board, seats, score)


def _read_given_result(
    raw: Mapping, where: str, seats: dict[str, Any], game: Game, settings: Mapping
) -> dict[str, Any] | None:
    """The match's result as a score object, from whichever of ``RESULT_FIELDS`` it gives
    (None: no result yet)."""
    given = [name for name in RESULT_FIELDS if raw.get(name) is not None]
    if len(given) > 1:
        raise RankingInputError(f"{where}: give one of record, score or scores, not {given}")
    return _read_result(raw, given[0], where, seats, game, settings) if given else None


def _read_seats(raw: Any, where: str, known: set[Any]) -> dict[str, Any]:
    if not isinstance(raw, Mapping) or not raw:
        raise RankingInputError(f"{where}: must map seats (N, E, S, W) to player ids")
    expected = SEAT_LETTERS[: len(raw)]
    if len(raw) < 2 or set(raw) != set(expected):
        raise RankingInputError(
            f"{where}: a table of n players uses the first n of N, E, S, W, not {sorted(raw)}"
        )
    _check_seated(raw, expected, where, known)
    return {seat: raw[seat] for seat in expected}


def _check_seated(raw: Mapping, expected: tuple[str, ...], where: str, known: set[Any]) -> None:
    """Every seat holds a known player, and nobody holds two."""
    seen: dict[Any, str] = {}
    for seat in expected:
        player = raw[seat]
        if not _is_id(player) or player not in known:
            raise RankingInputError(f"{where}.{seat}: unknown player {player!r}")
        if player in seen:
            raise RankingInputError(f"{where}: player {player!r} sits at {seen[player]} and {seat}")
        seen[player] = seat


def _read_result(
    raw: Mapping, name: str, where: str, seats: dict[str, Any], game: Game, settings: Mapping
) -> dict[str, Any]:
    score = _given_score(raw, name, where, game, settings)
    results = score["seats"]
    if set(results) != set(seats):
        raise RankingInputError(
            f"{where}: the result is for seats {sorted(results)}, the table has {sorted(seats)}"
        )
    for seat, value in results.items():
        if not _is_table_result(value):
            raise RankingInputError(
                f"{where}: table result of {seat} must be a number, not {value!r}"
            )
    return dict(score)


def _is_table_result(value: Any) -> bool:
    """A finite number within the limit a table result may reach (not a boolean)."""
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and abs(value) <= SCORE_LIMIT
    )


def _given_score(
    raw: Mapping, name: str, where: str, game: Game, settings: Mapping
) -> Mapping[str, Any]:
    """The score object a match gives as ``name``: a record the game scores, a score object,
    or the seats' table results alone."""
    return _SCORE_READERS[name](raw[name], where, game, settings)


def _scored_record(record: Any, where: str, game: Game, settings: Mapping) -> Mapping[str, Any]:
    """A board record, scored by the game."""
    try:
        return game.score(record, settings)
    except (RecordError, ValueError, TypeError, KeyError) as error:
        raise RankingInputError(f"{where}.record: {error}") from None


def _score_object(score: Any, where: str, game: Game, settings: Mapping) -> Mapping[str, Any]:
    """The game's score object, as given."""
    if not isinstance(score, Mapping) or not isinstance(score.get("seats"), Mapping):
        raise RankingInputError(f"{where}.score: must be a score object with seats")
    return score


def _seat_scores(scores: Any, where: str, game: Game, settings: Mapping) -> Mapping[str, Any]:
    """The table results by seat, as a score object."""
    if not isinstance(scores, Mapping):
        raise RankingInputError(f"{where}.scores: must map seats to table results")
    return {"seats": scores}


_SCORE_READERS = {"record": _scored_record, "score": _score_object, "scores": _seat_scores}


def _check_movement(matches: list[_Match]) -> None:
    """A table hosts one match per round and board; a player plays one table a round, in
    one seat for all its boards."""
    boards: dict[tuple[int, int, int], str] = {}
    seated: dict[tuple[int, Any], tuple[int, str, str]] = {}
    for match in matches:
        key = (match.round, match.table, match.board)
        if key in boards:
            raise RankingInputError(
                f"{match.where}: round {key[0]}, table {key[1]}, board {key[2]} "
                f"is also {boards[key]}"
            )
        boards[key] = match.where
        for seat, player in match.seats.items():
            before = seated.setdefault((match.round, player), (match.table, seat, match.where))
            if before[:2] != (match.table, seat):
                raise RankingInputError(
                    f"{match.where}: player {player!r} plays twice in round {match.round} "
                    f"(also {before[2]})"
                )


def _check_byes(raw: Any, known: set[Any], matches: list[_Match]) -> None:
    """Listed byes are checked (a player sitting out does not play that round); byes follow
    from the matches whether listed or not."""
    if not isinstance(raw, list):
        raise RankingInputError("byes: must be a list of {round, player}")
    playing = {(match.round, player) for match in matches for player in match.seats.values()}
    for i, item in enumerate(raw):
        _check_bye(item, f"byes[{i}]", known, playing)


def _check_bye(item: Any, where: str, known: set[Any], playing: set[tuple[int, Any]]) -> None:
    """A listed bye names a round and a known player who does not play that round."""
    if not isinstance(item, Mapping):
        raise RankingInputError(f"{where}: must be an object with round and player")
    round_ = _whole(item, "round", where)
    if item.get("player") not in known:
        raise RankingInputError(f"{where}.player: unknown player {item.get('player')!r}")
    if (round_, item["player"]) in playing:
        raise RankingInputError(
            f"{where}: player {item['player']!r} sits out round {round_} but plays in it"
        )


def _read_disqualified(raw: Any, known: set[Any], field_: _Field) -> None:
    if not isinstance(raw, list):
        raise RankingInputError("disqualified: must be a list of {player, after_final}")
    for i, item in enumerate(raw):
        player, after = _read_disqualification(item, f"disqualified[{i}]", known, field_)
        if after:
            field_.after_final.append(player)
        else:
            field_.disqualified.add(player)


def _read_disqualification(
    item: Any, where: str, known: set[Any], field_: _Field
) -> tuple[Any, bool]:
    """(the player, whether after finalisation) of one disqualification; a player once."""
    if not isinstance(item, Mapping) or item.get("player") not in known:
        raise RankingInputError(f"{where}: must name a known player")
    player, after = item["player"], item.get("after_final", False)
    if not isinstance(after, bool):
        raise RankingInputError(f"{where}.after_final: must be true or false")
    if player in field_.disqualified or player in field_.after_final:
        raise RankingInputError(f"{where}: player {player!r} is disqualified twice")
    return player, after


# -- results after disqualifications ------------------------------------------------------------


def _effective(match: _Match, disqualified: set[Any]) -> tuple[dict[str, Any] | None, bool]:
    """(the score object to rank or None, whether the match still waits for a result)."""
    out = [seat for seat, player in match.seats.items() if player in disqualified]
    if not out:
        return match.score, match.score is None
    if len(out) == len(match.seats):
        return None, False
    seats = {
        seat: DISQUALIFIED_SCORE if seat in out else OPPONENT_OF_DISQUALIFIED_SCORE
        for seat in match.seats
    }
    return {"seats": seats}, False


def _number(value: float) -> int | float:
    value = round(float(value), POINT_DECIMALS)
    return int(value) if value.is_integer() else value


# -- the groups: every seat of every board ranked against its other visits --------------------


@dataclass(frozen=True)
class _Slot:
    """One player's table result at one table, board and seat."""

    group: tuple[int, int, str]  # table, board, seat
    player: Any
    round: int
    score: float


@dataclass
class _Ranked:
    slots: list[_Slot]
    ranks: list[float]
    percents: list[Fraction]
    pending: bool  # some match still waits for its result

    def groups_out(self) -> list[dict[str, Any]]:
        groups: dict[tuple, list[dict[str, Any]]] = defaultdict(list)
        for slot, rank, percent in zip(self.slots, self.ranks, self.percents, strict=True):
            groups[slot.group].append(
                {
                    "player": slot.player,
                    "round": slot.round,
                    "score": _number(slot.score),
                    "rank": _number(rank),
                    "percentage": percentage_out(percent),
                }
            )
        order = sorted(groups, key=lambda key: (key[0], key[1], SEAT_LETTERS.index(key[2])))
        return [
            {"table": table, "board": board, "seat": seat, "results": groups[(table, board, seat)]}
            for table, board, seat in order
        ]


def _ranked(field_: _Field, each: Any = None) -> _Ranked:
    """Every result after disqualifications, ranked in its group; ``each(match, score)`` is
    called for every match that has one."""
    slots, pending = [], False
    for match in field_.matches:
        score, waiting = _effective(match, field_.disqualified)
        pending |= waiting
        if score is None:
            continue
        if each is not None:
            each(match, score)
        for seat, player in match.seats.items():
            group = (match.table, match.board, seat)
            slots.append(_Slot(group, player, match.round, float(score["seats"][seat])))
    ranks, percents = _ranks(slots, field_.ties)
    return _Ranked(slots, ranks, percents, pending)


def _ranks(slots: list[_Slot], ties: str) -> tuple[list[float], list[Fraction]]:
    """Ranking points and percentage of every slot among its group."""
    if not slots:
        return [], []
    index: dict[tuple, int] = {}
    group_ids = np.array(
        [index.setdefault(slot.group, len(index)) for slot in slots], dtype=np.int64
    )
    scores = np.array([slot.score for slot in slots], dtype=float)
    ranks = rank_groups(group_ids, scores, ties).tolist()
    sizes = np.bincount(group_ids)[group_ids].tolist()
    return ranks, [_percentage(rank, size) for rank, size in zip(ranks, sizes, strict=True)]


def _percentage(rank: float, size: int) -> Fraction:
    """Exact, so that equal percentages compare equal (ranks are whole or halves)."""
    if size == 1:
        return Fraction(50)
    return (size - Fraction(rank).limit_denominator(2)) * 100 / (size - 1)


# -- duplicate ----------------------------------------------------------------------------------


def _duplicate(field_: _Field) -> dict[str, Any]:
    ranked = _ranked(field_)
    rows = _duplicate_rows(field_, ranked)
    if ranked.pending:
        _place(
            rows, key=lambda row: -row["percentage"], eligible=lambda r: r["percentage"] is not None
        )
    else:
        _place(rows, key=lambda row: row["points"], eligible=lambda row: True)
    for row in rows:
        row["percentage"] = percentage_out(row["percentage"])
    return {
        "provisional": ranked.pending,
        "groups": ranked.groups_out(),
        "standings": _ordered(rows),
    }


def _duplicate_rows(field_: _Field, ranked: _Ranked) -> list[dict[str, Any]]:
    """Each player's row: his ranking points (his byes' worth included), his mean percentage
    (None before any result) and his matches."""
    points: dict[Any, float] = defaultdict(float)
    percent_lists: dict[Any, list[Fraction]] = defaultdict(list)
    round_points: dict[int, list[float]] = defaultdict(list)
    for slot, rank, percent in zip(ranked.slots, ranked.ranks, ranked.percents, strict=True):
        points[slot.player] += rank
        percent_lists[slot.player].append(percent)
        round_points[slot.round].append(rank)
    for player, value in _bye_points(field_, round_points).items():
        points[player] += value
    rows = []
    for player in field_.players:
        mine = percent_lists.get(player, [])
        rows.append(
            {
                "player": player,
                "points": _number(points.get(player, 0.0)),
                "percentage": sum(mine) / len(mine) if mine else None,
                "matches": len(mine),
                **field_.row_status(player),
            }
        )
    return rows


def _bye_points(field_: _Field, round_points: dict[int, list[float]]) -> dict[Any, float]:
    """Per player, what his rounds sat out are worth: boards × the round's mean rank."""
    boards: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    playing: dict[int, set[Any]] = defaultdict(set)
    for match in field_.matches:
        boards[match.round][match.table] += 1
        playing[match.round].update(match.seats.values())
    byes: dict[Any, float] = defaultdict(float)
    for round_, tables in boards.items():
        given = round_points.get(round_)
        if not given:
            continue
        worth = max(tables.values()) * sum(given) / len(given)
        for player in field_.players:
            if player not in playing[round_]:
                byes[player] += worth
    return byes


# -- totals -------------------------------------------------------------------------------------


def _totals(field_: _Field) -> dict[str, Any]:
    totals: dict[Any, float] = defaultdict(float)
    tiebreaks: dict[Any, int] = defaultdict(int)
    counts: dict[Any, int] = defaultdict(int)

    def add(match: _Match, score: dict[str, Any]) -> None:
        for seat, player in match.seats.items():
            value, tiebreak = field_.game.totals_entry(score, seat)
            totals[player] += value
            tiebreaks[player] += tiebreak
            counts[player] += 1

    ranked = _ranked(field_, each=add)
    rows = [
        {
            "player": player,
            "total": _number(totals.get(player, 0)),
            "tiebreak": tiebreaks.get(player, 0),
            "matches": counts.get(player, 0),
            **field_.row_status(player),
        }
        for player in field_.players
    ]
    _place(rows, key=lambda row: (-row["total"], -row["tiebreak"]), eligible=lambda row: True)
    return {
        "provisional": ranked.pending,
        "groups": ranked.groups_out(),
        "standings": _ordered(rows),
    }


# -- places -------------------------------------------------------------------------------------


def _place(rows: list[dict[str, Any]], *, key, eligible) -> None:
    """Shared places (1, 1, 3) by ``key`` (smaller first) among the players in play that are
    ``eligible``; the other players in play share the next place; the disqualified get none."""
    in_play = [row for row in rows if row["status"] == "ok"]
    ranked = [row for row in in_play if eligible(row)]
    keys = sorted(key(row) for row in ranked)
    for row in in_play:
        row["place"] = bisect.bisect_left(keys, key(row)) + 1 if eligible(row) else len(ranked) + 1
    for row in rows:
        row.setdefault("place", None)


def _ordered(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Placed players by place then id; players without a place after them."""
    placed = sorted(
        (row for row in rows if row["place"] is not None),
        key=lambda row: (row["place"], team_sort_key(row["player"])),
    )
    unplaced = sorted(
        (row for row in rows if row["place"] is None),
        key=lambda row: (row["status"] == "disqualified", team_sort_key(row["player"])),
    )
    return [{"place": row.pop("place"), **row} for row in placed + unplaced]


def _taken_off(rows: list[dict[str, Any]], player: Any) -> list[dict[str, Any]]:
    """Standings with ``player`` taken off after finalisation: those placed below him move up."""
    target = next(row for row in rows if row["player"] == player)
    if target["place"] is None:
        return rows
    out = [_moved_up(row, target["place"]) for row in rows if row is not target]
    return _ordered([*out, {**target, "place": None, "status": "disqualified"}])


def _moved_up(row: dict[str, Any], gone: int) -> dict[str, Any]:
    """The row one place higher when it was placed below the place ``gone``."""
    if row["place"] is not None and row["place"] > gone:
        return {**row, "place": row["place"] - 1}
    return row
