"""Final standings: a frozen snapshot, and disqualification after finalisation.

Once the organiser approves the standings as final, table results and ranking points are
frozen. A team disqualified afterwards is taken off the table: it is listed with the
disqualified teams (no place), every team below it moves up one place, and nobody's points
change. Below it means more points; in provisional standings (placed by percentage) a later
place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from engine.ranking.inputs import RankingInputError, team_sort_key

ROW_FIELDS = ("place", "team", "points", "matches", "status")


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({key: _freeze(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return tuple(_freeze(item) for item in value)
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _thaw(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [_thaw(item) for item in value]
    return value


def _same_team(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _with(row: Mapping[str, Any], **changes: Any) -> Mapping[str, Any]:
    return MappingProxyType({**row, **changes})


@dataclass(frozen=True)
class FinalStandings:
    """Standings approved as final. Immutable: every change returns a new snapshot."""

    provisional: bool
    groups: tuple[Mapping[str, Any], ...]
    rows: tuple[Mapping[str, Any], ...]

    def as_dict(self) -> dict[str, Any]:
        """The standings object (interchange formats, section 4), as new plain data."""
        return {
            "provisional": self.provisional,
            "groups": _thaw(self.groups),
            "standings": _thaw(self.rows),
        }

    def row(self, team: Any) -> Mapping[str, Any]:
        for row in self.rows:
            if _same_team(row["team"], team):
                return row
        raise RankingInputError(f"team {team!r} is not in the standings")

    def disqualify_after_final(self, team: Any) -> FinalStandings:
        """Take ``team`` off the final table; the teams below it move up one place."""
        target = self.row(team)
        if target["status"] == "disqualified":
            raise RankingInputError(f"team {team!r} is already disqualified")
        if target["place"] is None:  # withdrawn: no place to give up, nobody moves
            rows = [
                _with(row, status="disqualified") if row is target else row for row in self.rows
            ]
            return FinalStandings(self.provisional, self.groups, tuple(rows))
        kept, out = self._without(target)
        disqualified = [_with(target, place=None, status="disqualified"), *out]
        disqualified.sort(key=lambda row: (row["points"], team_sort_key(row["team"])))
        return FinalStandings(self.provisional, self.groups, tuple(kept + disqualified))

    def _without(self, target: Mapping[str, Any]) -> tuple[list, list]:
        """The other rows: those in play, moved up one place when below ``target``, and those
        out of play (withdrawn or disqualified)."""
        kept, out = [], []
        for row in self.rows:
            if row is target:
                continue
            if row["status"] != "ok":
                out.append(row)
            elif self._below(row, target):
                kept.append(_with(row, place=row["place"] - 1))
            else:
                kept.append(row)
        return kept, out

    def _below(self, row: Mapping[str, Any], target: Mapping[str, Any]) -> bool:
        """Whether ``row`` is placed below ``target``: more points (least wins); in
        provisional standings, placed by percentage, a later place."""
        if self.provisional:
            return row["place"] > target["place"]
        return row["points"] > target["points"]


def _check_rows(rows: list | tuple) -> None:
    """Every row has the fields of a standings row."""
    for i, row in enumerate(rows):
        missing = [name for name in ROW_FIELDS if not isinstance(row, Mapping) or name not in row]
        if missing:
            raise RankingInputError(f"standings[{i}]: missing {', '.join(missing)}")


def finalise(standings: Mapping[str, Any]) -> FinalStandings:
    """Freeze standings made by ``rank_results`` (or ``RankingState.to_standings``)."""
    rows = standings.get("standings") if isinstance(standings, Mapping) else None
    if not isinstance(rows, list | tuple):
        raise RankingInputError("standings: must be the standings object made by rank_results")
    _check_rows(rows)
    return FinalStandings(
        provisional=bool(standings.get("provisional", False)),
        groups=_freeze(standings.get("groups", [])),
        rows=_freeze(rows),
    )
