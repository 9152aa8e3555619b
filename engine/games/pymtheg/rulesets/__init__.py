"""Rulesets are data: one JSON file each, loaded and validated when the engine starts.

An organiser's house rules are a new file, not a code change: put it beside the shipped ones,
or in a folder named by the ``PYMTHEG_RULESETS_DIR`` environment variable.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GAM_LEVELS = 7
DEFAULT_RULESET = "manual-2016"
OPTION_NAMES = ("all_tricks_bonus", "heavy_failure_penalty", "illegal_trump_penalty")


class RulesetError(ValueError):
    """A ruleset file that is missing a value or holds a wrong one."""


@dataclass(frozen=True)
class LonValues:
    value: int
    announced_during_bonus: int
    per_opponent_trick: int


@dataclass(frozen=True)
class RyValues:
    value: int
    partner_trick: int


@dataclass(frozen=True)
class Ruleset:
    name: str
    title: str
    # gam_base[kind][announced][level], kind "trump"/"nt", announced "after"/"during"
    gam_base: dict[str, dict[str, tuple[int, ...]]]
    gam_trick_unit: dict[str, int]
    ry: dict[str, RyValues]
    lon: dict[str, LonValues]
    second_auction: bool
    first_passed_out_charge: int
    second_passed_out_result: int
    revoke_ry_offender_factor: float
    revoke_extra: int
    undertrump_allowed: bool

    def describe(self) -> dict[str, Any]:
        """The values as plain data, for exports and the API."""
        return {
            "name": self.name,
            "title": self.title,
            "gam_base": {k: {a: list(v) for a, v in d.items()} for k, d in self.gam_base.items()},
            "gam_trick_unit": dict(self.gam_trick_unit),
            "ry": {k: vars(v) for k, v in self.ry.items()},
            "lon": {k: vars(v) for k, v in self.lon.items()},
            "second_auction": self.second_auction,
            "first_passed_out_charge": self.first_passed_out_charge,
            "second_passed_out_result": self.second_passed_out_result,
            "revoke_ry_offender_factor": self.revoke_ry_offender_factor,
            "revoke_extra": self.revoke_extra,
            "undertrump_allowed": self.undertrump_allowed,
        }


def _get(data: Any, path: str) -> Any:
    node = data
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            raise RulesetError(f"missing value {path!r}")
        node = node[key]
    return node


def _integer(data: Any, path: str) -> int:
    value = _get(data, path)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesetError(f"{path!r} must be a whole number, not {value!r}")
    return value


def _number(data: Any, path: str) -> float:
    value = _get(data, path)
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise RulesetError(f"{path!r} must be a positive number, not {value!r}")
    return value


def _flag(data: Any, path: str) -> bool:
    value = _get(data, path)
    if not isinstance(value, bool):
        raise RulesetError(f"{path!r} must be true or false, not {value!r}")
    return value


def _gam_row(data: Any, path: str) -> tuple[int, ...]:
    row = _get(data, path)
    if not isinstance(row, list) or len(row) != GAM_LEVELS:
        raise RulesetError(f"{path!r} must list {GAM_LEVELS} base scores (Gâm to Gâm +6)")
    for level in range(GAM_LEVELS):
        value = row[level]
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise RulesetError(f"{path}[{level}] must be a positive whole number, not {value!r}")
    return tuple(row)


def ruleset_from_data(data: Any) -> Ruleset:
    """Build and validate a ruleset from its JSON data."""
    name = _get(data, "name")
    if not isinstance(name, str) or not name:
        raise RulesetError("'name' must be a non-empty string")
    return Ruleset(
        name=name,
        title=str(data.get("title", name)),
        gam_base={
            kind: {when: _gam_row(data, f"gam.base.{kind}.{when}") for when in ("after", "during")}
            for kind in ("trump", "nt")
        },
        gam_trick_unit={kind: _integer(data, f"gam.trick_unit.{kind}") for kind in ("trump", "nt")},
        ry={
            code: RyValues(
                _integer(data, f"ry.{code}.value"), _integer(data, f"ry.{code}.partner_trick")
            )
            for code in ("R", "R2", "R3")
        },
        lon={
            kind: LonValues(
                _integer(data, f"lon.{kind}.value"),
                _integer(data, f"lon.{kind}.announced_during_bonus"),
                _integer(data, f"lon.{kind}.per_opponent_trick"),
            )
            for kind in ("trump", "nt")
        },
        second_auction=_flag(data, "passed_out.second_auction"),
        first_passed_out_charge=_integer(data, "passed_out.first_charge"),
        second_passed_out_result=_integer(data, "passed_out.second_result"),
        revoke_ry_offender_factor=_number(data, "revoke.ry_offender_factor"),
        revoke_extra=_integer(data, "revoke.extra"),
        undertrump_allowed=_flag(data, "play.undertrump_allowed"),
    )


def load_ruleset_file(path: Path) -> Ruleset:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise RulesetError(f"{path.name}: {exc}") from exc
    try:
        ruleset = ruleset_from_data(data)
    except RulesetError as exc:
        raise RulesetError(f"{path.name}: {exc}") from exc
    if ruleset.name != path.stem:
        raise RulesetError(f"{path.name}: 'name' is {ruleset.name!r}, the file is {path.stem!r}")
    return ruleset


def _ruleset_dirs() -> list[Path]:
    dirs = [Path(__file__).parent]
    extra = os.environ.get("PYMTHEG_RULESETS_DIR")
    if extra:
        dirs.append(Path(extra))
    return dirs


def load_all() -> dict[str, Ruleset]:
    found: dict[str, Ruleset] = {}
    for folder in _ruleset_dirs():
        for path in sorted(folder.glob("*.json")):
            ruleset = load_ruleset_file(path)
            found[ruleset.name] = ruleset
    if DEFAULT_RULESET not in found:
        raise RulesetError(f"the default ruleset {DEFAULT_RULESET!r} is missing")
    return found


RULESETS: dict[str, Ruleset] = load_all()


def get_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(RULESETS))
        raise KeyError(f"unknown ruleset {name!r} (known: {known})") from None
