"""Reading and checking the tournament results object (interchange formats, section 4).

Every check names the item it rejects: ``matches[3].record: tricks: add up to 14, not 15``,
``matches[2]: team 'T9' is not in teams``. The result is a ``Tournament`` in engine terms:
teams numbered in their canonical order (see ``team_sort_key``), every match's table results
already worked out (records are scored here).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import RecordError, SettingsError
from engine.games import DEFAULT_GAME, Game, UnknownGame, get_game

TIE_POLICIES = ("min", "average", "max")
DEFAULT_TIES = "min"
#: The fields of every results object; a game adds the settings its scores read
#: (``Game.score_settings``, e.g. a ruleset), which the object may give at its top level.
TOURNAMENT_FIELDS = frozenset({"game", "ties", "teams", "matches", "disqualified", "withdrawn"})
MATCH_FIELDS = frozenset({"round", "table", "board", "ns", "ew", "record", "scores"})
DISQUALIFICATION_FIELDS = frozenset({"team", "after_final"})
# Real table results stay within tens of thousands; the limit keeps every score exact in a float.
SCORE_LIMIT = 10**9
_DIGIT_RUNS = re.compile(r"(\d+)", re.ASCII)

TeamId = str | int


class RankingInputError(ValueError):
    """Tournament results that cannot be ranked; the message names the item and the reason."""


def fail(where: str, reason: str) -> RankingInputError:
    return RankingInputError(f"{where}: {reason}")


def team_sort_key(team_id: TeamId) -> tuple[tuple[Any, ...], str]:
    """Natural order of team ids: "T2" before "T10", 9 before 10; the id text breaks ties."""
    text = str(team_id)
    parts = _DIGIT_RUNS.split(text)  # text, digits, text, ... : same types at same positions
    return tuple(int(part) if i % 2 else part for i, part in enumerate(parts)), text


@dataclass(frozen=True)
class MatchEntry:
    """One match of the schedule (one board at one table in one round) and its table results.

    ``ns_score``/``ew_score`` are the table results, NaN for a ``rules-1709`` passed-out board
    (ranked worst); both are NaN and meaningless when ``played`` is false.
    """

    round: int
    table: int
    board: int
    ns: int  # canonical team numbers
    ew: int
    played: bool
    ns_score: float
    ew_score: float
    raw: Mapping[str, Any]

    @property
    def place(self) -> tuple[int, int, int]:
        return self.round, self.table, self.board

    @property
    def seating(self) -> tuple[int, int, int, int, int]:
        """Who plays where: a change here is a schedule change, not a result change."""
        return self.round, self.table, self.board, self.ns, self.ew


@dataclass(frozen=True)
class Disqualification:
    team: int
    after_final: bool


@dataclass(frozen=True)
class TeamRoster:
    """The teams as given, and their canonical numbering (natural order of the ids)."""

    raw: tuple[Any, ...]
    ids: tuple[TeamId, ...]  # index = canonical team number
    index: Mapping[TeamId, int]

    def lookup(self, value: Any, where: str, name: str, role: str) -> int:
        """The canonical number of the team id ``value`` given in field ``where.name``."""
        if value is None:
            raise fail(f"{where}.{name}", f"required: the id of {role}")
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise fail(
                f"{where}.{name}", f"must be a team id (text or whole number), not {value!r}"
            )
        number = self.index.get(value)
        if number is None:
            raise fail(where, f"team {value!r} is not in teams")
        return number


@dataclass(frozen=True)
class Scoring:
    """How a results object's board records are scored: its game (a game of pairs) and the
    settings the game's scores read, as given or by default."""

    game: Game
    settings: Mapping[str, Any]

    def table_results(self, record: Any, where: str) -> tuple[float, float]:
        """The two sides' table results of a board record; NaN for a side the game ranks worst
        (e.g. a passed-out board under a ruleset that ranks it so)."""
        try:
            score = self.game.score(record, self.settings)
        except RecordError as exc:
            raise fail(f"{where}.record", str(exc)) from None
        first, second = self.game.side_results(score)
        return (
            math.nan if first is None else float(first),
            math.nan if second is None else float(second),
        )

    def to_data(self) -> dict[str, Any]:
        """The results object's fields that name the game and its settings."""
        named = {} if self.game.id == DEFAULT_GAME else {"game": self.game.id}
        return {**named, **self.settings}


@dataclass(frozen=True)
class Tournament:
    scoring: Scoring
    ties: str
    teams: TeamRoster
    matches: tuple[MatchEntry, ...]
    disqualified: tuple[Disqualification, ...]
    # Team number: the last round it played before it withdrew (no place, results stand).
    withdrawn: Mapping[int, int] = field(default_factory=dict)


def _whole(raw: Mapping[str, Any], name: str, where: str, default: int | None = None) -> int:
    value = raw.get(name, default)
    if value is None:
        raise fail(f"{where}.{name}", "required: a whole number ≥ 1")
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise fail(f"{where}.{name}", f"must be a whole number ≥ 1, not {value!r}")
    return value


def _unknown_fields(raw: Mapping[str, Any], known: frozenset[str], where: str) -> None:
    if raw.keys() <= known:  # the usual case, checked without a loop in Python
        return
    unknown = sorted(str(name) for name in raw if name not in known)
    if unknown:
        prefix = f"{where}." if where else ""
        raise RankingInputError(f"{prefix}{unknown[0]}: unknown field")


def read_teams(raw: Any) -> TeamRoster:
    if not isinstance(raw, list):
        raise fail("teams", 'required: a list of teams like {"id": "T1", "name": "..."}')
    first_seen: dict[str, int] = {}
    ids: list[TeamId] = []
    for i, team in enumerate(raw):
        where = f"teams[{i}]"
        team_id = _team_id(team, where)
        # 1 and "1" would print alike in every export: one of them is a mistake.
        text = str(team_id)
        if text in first_seen:
            raise fail(
                f"{where}.id", f"duplicate team id {team_id!r} (also teams[{first_seen[text]}])"
            )
        first_seen[text] = i
        ids.append(team_id)
    canonical = tuple(sorted(ids, key=team_sort_key))
    return TeamRoster(tuple(raw), canonical, {team_id: n for n, team_id in enumerate(canonical)})


def _team_id(team: Any, where: str) -> TeamId:
    """The id of one team object: text or a whole number."""
    if not isinstance(team, dict):
        raise fail(where, 'must be an object like {"id": "T1", "name": "..."}')
    team_id = team.get("id")
    if team_id is None:
        raise fail(f"{where}.id", "required")
    if isinstance(team_id, bool) or not isinstance(team_id, str | int) or team_id == "":
        raise fail(f"{where}.id", f"must be text or a whole number, not {team_id!r}")
    return team_id


def _score_value(scores: Mapping[str, Any], side: str, where: str) -> float:
    value = scores[side]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise fail(f"{where}.scores.{side}", f"must be a number, not {value!r}")
    if not math.isfinite(value) or abs(value) > SCORE_LIMIT:
        raise fail(f"{where}.scores.{side}", f"{value!r} is out of range (±{SCORE_LIMIT:,})")
    return float(value)


def _given_scores(scores: Any, where: str) -> tuple[float, float]:
    if not isinstance(scores, dict):
        raise fail(f"{where}.scores", 'must be an object {"ns": number, "ew": number}')
    if set(scores) != {"ns", "ew"}:
        raise fail(f"{where}.scores", f"keys must be ns and ew, not {sorted(map(str, scores))}")
    return _score_value(scores, "ns", where), _score_value(scores, "ew", where)


def read_match(raw: Any, where: str, teams: TeamRoster, scoring: Scoring) -> MatchEntry:
    """Check one match object on its own (clashes with other matches: ``ScheduleIndex``)."""
    if not isinstance(raw, dict):
        raise fail(where, "must be an object with round, table, ns and ew")
    _unknown_fields(raw, MATCH_FIELDS, where)
    round_, table = _whole(raw, "round", where), _whole(raw, "table", where)
    board = _whole(raw, "board", where, default=1)
    ns = teams.lookup(raw.get("ns"), where, "ns", "the NS team")
    ew = teams.lookup(raw.get("ew"), where, "ew", "the EW team")
    if ns == ew:
        raise fail(where, f"team {teams.ids[ns]!r} cannot play against itself")
    results = _table_results(raw, where, scoring)
    if results is None:
        return MatchEntry(round_, table, board, ns, ew, False, math.nan, math.nan, raw)
    return MatchEntry(round_, table, board, ns, ew, True, *results, raw)


def _table_results(raw: dict, where: str, scoring: Scoring) -> tuple[float, float] | None:
    """The NS and EW table results of a match, from its record or its scores (None: no result
    yet)."""
    record, scores = raw.get("record"), raw.get("scores")
    if record is not None and scores is not None:
        raise fail(where, "has both a record and scores: give one of them")
    if record is not None:
        return scoring.table_results(record, where)
    if scores is not None:
        return _given_scores(scores, where)
    return None


class ScheduleIndex:
    """Who plays where and when, to reject a match that clashes with another one.

    A table hosts one match per round and board; a team plays one match per round (that
    match may have several boards: same table, same opponents, same sides).
    """

    def __init__(self, teams: TeamRoster):
        self.teams = teams
        self.at_place: dict[tuple[int, int, int], int] = {}
        self.team_rounds: dict[tuple[int, int], set[int]] = {}

    def check(self, entry: MatchEntry, where: str, matches: Sequence[MatchEntry], skip: int = -1):
        """A match (other than ``matches[skip]``) at the entry's table, board and round, or
        another match of one of its teams that round, is refused."""
        other = self.at_place.get(entry.place)
        if other is not None and other != skip:
            raise fail(
                where,
                f"table {entry.table} board {entry.board} already has a match in round "
                f"{entry.round} (matches[{other}])",
            )
        self._check_teams_free(entry, where, matches, skip)

    def _check_teams_free(
        self, entry: MatchEntry, where: str, matches: Sequence[MatchEntry], skip: int
    ) -> None:
        """Neither team plays another match that round (the same match's other boards are
        the same table, opponents and sides)."""
        for team in (entry.ns, entry.ew):
            for j in sorted(self.team_rounds.get((team, entry.round), ())):
                earlier = matches[j]
                if j != skip and (earlier.table, earlier.ns, earlier.ew) != (
                    entry.table,
                    entry.ns,
                    entry.ew,
                ):
                    raise fail(
                        where,
                        f"team {self.teams.ids[team]!r} plays twice in round {entry.round} "
                        f"(also in matches[{j}])",
                    )

    def add(self, entry: MatchEntry, index: int) -> None:
        round_ = entry.round
        self.at_place[(round_, entry.table, entry.board)] = index
        team_rounds = self.team_rounds
        for key in ((entry.ns, round_), (entry.ew, round_)):
            found = team_rounds.get(key)
            if found is None:  # not setdefault: that makes a new set on every call
                team_rounds[key] = {index}
            else:
                found.add(index)

    def remove(self, entry: MatchEntry, index: int) -> None:
        del self.at_place[entry.place]
        for team in (entry.ns, entry.ew):
            rounds = self.team_rounds[(team, entry.round)]
            rounds.discard(index)
            if not rounds:
                del self.team_rounds[(team, entry.round)]

    def find(self, place: tuple[int, int, int]) -> int | None:
        return self.at_place.get(place)


def read_disqualified(raw: Any, teams: TeamRoster) -> tuple[Disqualification, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise fail("disqualified", 'must be a list like [{"team": "T4", "after_final": false}]')
    found: dict[int, int] = {}
    result = []
    for i, item in enumerate(raw):
        where = f"disqualified[{i}]"
        if not isinstance(item, dict):
            raise fail(where, 'must be an object like {"team": "T4", "after_final": false}')
        _unknown_fields(item, DISQUALIFICATION_FIELDS, where)
        team = teams.lookup(item.get("team"), where, "team", "the disqualified team")
        after_final = item.get("after_final", False)
        if not isinstance(after_final, bool):
            raise fail(f"{where}.after_final", f"must be true or false, not {after_final!r}")
        if team in found:
            raise fail(
                where,
                f"team {teams.ids[team]!r} is already disqualified (disqualified[{found[team]}])",
            )
        found[team] = i
        result.append(Disqualification(team, after_final))
    return tuple(result)


def read_withdrawn(raw: Any, known: set[Any] | None, key: str) -> dict[Any, int]:
    """``[{key: id, "after_round": r}]`` as ``{id: r}``: entrants who left for good after
    round r (0: before the first). ``known``: the ids allowed (None: the caller checks)."""
    if raw is None:
        return {}
    shape = f'a list like [{{"{key}": "T4", "after_round": 3}}]'
    if not isinstance(raw, list):
        raise fail("withdrawn", f"must be {shape}")
    found: dict[Any, int] = {}
    for i, item in enumerate(raw):
        where = f"withdrawn[{i}]"
        entrant, after = _read_withdrawal(item, where, known, key)
        if entrant in found:
            raise fail(where, f"{entrant!r} withdraws twice")
        found[entrant] = after
    return found


def _read_withdrawal(item: Any, where: str, known: set[Any] | None, key: str) -> tuple[Any, int]:
    """One withdrawal: the entrant and the round after which he left."""
    if not isinstance(item, dict) or set(item) != {key, "after_round"}:
        raise fail(where, f"must be an object of {key} and after_round")
    entrant, after = item[key], item["after_round"]
    if known is not None and entrant not in known:
        raise fail(where, f"must name a known {'team' if key == 'team' else 'player'}")
    if isinstance(after, bool) or not isinstance(after, int) or after < 0:
        raise fail(f"{where}.after_round", f"must be a whole number from 0, not {after!r}")
    return entrant, after


def read_game(data: Mapping[str, Any]) -> Game:
    """The game of a results object: its ``game``, the default game when it names none; a
    game of pairs."""
    game_id = data.get("game", DEFAULT_GAME)
    try:
        game = get_game(game_id) if isinstance(game_id, str) else None
    except UnknownGame as exc:
        raise fail("game", str(exc)) from None
    if game is None or not game.of_pairs:
        raise fail("game", f"{game_id!r} is not a game of pairs (players: rank_individuals)")
    return game


def read_scoring(data: Mapping[str, Any], game: Game) -> Scoring:
    """The game's score settings, each as given at the top level or by default."""
    settings = {}
    for name in game.score_settings:
        setting = game.setting_field(name)
        value = data.get(name, setting.default)
        try:
            settings[name] = setting.check(value)
        except SettingsError:
            known = ", ".join(sorted(choice for choice, _label in setting.choices))
            raise fail(name, f"unknown {name} {value!r} (known: {known})") from None
    return Scoring(game, settings)


def read_settings(data: Mapping[str, Any]) -> tuple[Scoring, str]:
    game = read_game(data)
    _unknown_fields(data, TOURNAMENT_FIELDS | set(game.score_settings), "")
    scoring = read_scoring(data, game)
    ties = data.get("ties", DEFAULT_TIES)
    if not isinstance(ties, str) or ties not in TIE_POLICIES:
        raise fail("ties", f"unknown ties policy {ties!r} (min, average or max)")
    return scoring, ties


def read_tournament(data: Any) -> Tournament:
    """Check the whole tournament results object; raises ``RankingInputError``."""
    return read_tournament_indexed(data)[0]


def read_tournament_indexed(data: Any) -> tuple[Tournament, ScheduleIndex]:
    """``read_tournament``, and the schedule index it checked the matches with (the ranking
    state keeps it rather than building it again)."""
    if not isinstance(data, dict):
        raise fail("tournament results", "must be a JSON object with teams and matches")
    scoring, ties = read_settings(data)
    teams = read_teams(data.get("teams"))
    raw_matches = data.get("matches")
    if not isinstance(raw_matches, list):
        raise fail("matches", "required: a list of matches")
    schedule = ScheduleIndex(teams)
    matches: list[MatchEntry] = []
    for i, raw in enumerate(raw_matches):
        where = f"matches[{i}]"
        entry = read_match(raw, where, teams, scoring)
        schedule.check(entry, where, matches)
        schedule.add(entry, i)
        matches.append(entry)
    disqualified = read_disqualified(data.get("disqualified"), teams)
    withdrawn = {
        teams.lookup(team, "withdrawn", "team", "the withdrawn team"): after
        for team, after in read_withdrawn(data.get("withdrawn"), None, "team").items()
    }
    return Tournament(scoring, ties, teams, tuple(matches), disqualified, withdrawn), schedule
