"""A tournament described in JSON or YAML, for ``manage.py create_tournament`` and the demo.

```yaml
name: Spring cup            # required
slug: spring-cup            # required: letters, digits, - and _
game: <game id>             # default: the default game (engine.games.DEFAULT_GAME)
settings: {}                # the game's own settings by name (docs/games.md)
<setting>: <value>          # any of the game's settings may also stand at the top level
options: {<setting>: 0}     # the game's whole-number settings (house rules' points)
<shorthand>: <value>        # a key the game reads as several settings (Game.shorthand)
boards_per_table: 1
sides: fixed                # or balanced
ties: min                   # or average, max
table_size: 4               # games of individuals: players at a table (2, 3 or 4)
ranking: duplicate          # games of individuals: or totals
tables: 7                   # a count, or a list of labels ("" for none), one a table
teams:                      # optional; "players:" for games of individuals, same entries
  - {number: 1, name: Marrilona + Jake, players: [Marrilona, Jake]}
```
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from engine.games import DEFAULT_GAME, Game, UnknownGame, get_game
from tournaments.imports import EntrantRow

KNOWN_KEYS = {
    "name",
    "slug",
    "game",
    "settings",
    "options",
    "boards_per_table",
    "sides",
    "ties",
    "tables",
    "teams",
    "table_size",
    "ranking",
    "players",
}


class DescriptionError(ValueError):
    def __init__(self, messages: list[str]):
        self.messages = messages
        super().__init__("; ".join(messages))


@dataclass
class TournamentDescription:
    name: str
    slug: str
    tables: int
    table_labels: list[str] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    entrants: list[EntrantRow] = field(default_factory=list)


def load_description_file(path: Path) -> TournamentDescription:
    """Read a .json, .yaml or .yml description; errors name the file and the problem."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DescriptionError([f"{path}: {exc.strerror or exc}"]) from None
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        raise DescriptionError(
            [f"{path}: not valid {path.suffix.lstrip('.').upper()}: {exc}"]
        ) from None
    return parse_description(data)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _settings(data: dict[str, Any], errors: list[str]) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    game_settings = data.get("settings", {})
    if isinstance(game_settings, dict):
        settings.update(game_settings)
    else:
        errors.append("settings: must be a mapping of the game's settings to their values")
    for key, target in (
        ("game", "game"),
        ("sides", "side_mode"),
        ("ties", "ties"),
        ("boards_per_table", "boards_per_table"),
        ("table_size", "table_size"),
        ("ranking", "ranking"),
    ):
        if key in data:
            settings[target] = data[key]
    game = _game_of(data)
    if game is not None:
        settings.update(_game_keys(game, data, errors))
    settings.update(_house_rule_settings(data.get("options", {}), game, errors))
    return settings


def _house_rule_settings(options: Any, game: Game | None, errors: list[str]) -> dict[str, Any]:
    """The description's ``options``: the game's house rules, each a whole number of points."""
    if not isinstance(options, dict):
        errors.append("options: must be a mapping of house rules to points")
        return {}
    known = _house_rules(game)
    settings = {}
    for name, value in options.items():
        if name not in known:
            errors.append(f"options: unknown house rule {name!r} (known: {', '.join(known)})")
        elif not _whole(value) or value < 0:
            errors.append(f"options.{name}: must be a whole number of points, 0 or more")
        else:
            settings[name] = value
    return settings


def _game_of(data: dict[str, Any]) -> Game | None:
    game_id = data.get("game", DEFAULT_GAME)
    try:
        return get_game(game_id) if isinstance(game_id, str) else None
    except UnknownGame:
        return None  # the game itself is refused where it is read


def _game_keys(game: Game, data: dict[str, Any], errors: list[str]) -> dict[str, Any]:
    """The game's settings given at the top level, by name or by one of its shorthands."""
    settings = {field.name: data[field.name] for field in game.setting_fields if field.name in data}
    for key in game.shorthand_keys:
        if key in data:
            try:
                settings.update(game.shorthand(key, data[key]))
            except ValueError as exc:
                errors.append(str(exc))
    return settings


def _game_key_names(data: dict[str, Any]) -> set[str]:
    game = _game_of(data)
    if game is None:
        return set()
    return {field.name for field in game.setting_fields} | set(game.shorthand_keys)


def _house_rules(game: Game | None) -> list[str]:
    """The game's settings that ``options`` may give: its whole numbers of points."""
    if game is None:
        return []
    return [field.name for field in game.setting_fields if not field.choices]


def _tables(value: Any, errors: list[str]) -> tuple[int, list[str]]:
    if _whole(value):
        return value, []
    if isinstance(value, list) and value:
        return len(value), ["" if label is None else str(label) for label in value]
    errors.append("tables: give the number of tables, or a list of their labels")
    return 0, []


def _entrants(value: Any, errors: list[str]) -> list[EntrantRow]:
    if value is None:
        return []
    if not isinstance(value, list):
        errors.append("teams: must be a list")
        return []
    rows: list[EntrantRow] = []
    seen: dict[int, int] = {}
    for index, entry in enumerate(value, start=1):
        row = _entrant_row(index, entry, seen, errors)
        if row is not None:
            rows.append(row)
    return rows


def _entrant_row(
    index: int, entry: Any, seen: dict[int, int], errors: list[str]
) -> EntrantRow | None:
    """One entry of the list: a name alone, or a mapping of a name, a number and players;
    ``seen``: the entry of each number given so far."""
    where = f"teams entry {index}"
    if isinstance(entry, str):
        entry = {"name": entry}
    if not isinstance(entry, dict):
        errors.append(f"{where}: must be a mapping with at least a name")
        return None
    name = str(entry.get("name") or "").strip()
    if not name:
        errors.append(f"{where}: the name is missing")
    number = _entrant_number(entry.get("number"), index, seen, errors)
    players = _entrant_players(entry.get("players", []), where, errors)
    return EntrantRow(index, number, name, players[0], players[1])


def _entrant_number(number: Any, index: int, seen: dict[int, int], errors: list[str]) -> int | None:
    """An entry's number: none, or a whole number from 1 up that no entry before it holds."""
    where = f"teams entry {index}"
    if number is None:
        return None
    if not _whole(number) or number < 1:
        errors.append(f"{where}: number must be a whole number from 1 up")
        return None
    if number in seen:
        errors.append(f"{where}: team number {number} is also entry {seen[number]}")
    seen.setdefault(number, index)
    return number


def _entrant_players(players: Any, where: str, errors: list[str]) -> list[str]:
    """An entry's two players' names, "" for a player not named: a list of at most two."""
    if not isinstance(players, list) or len(players) > 2:
        errors.append(f"{where}: players must be a list of at most two names")
        players = []
    return [str(player).strip() for player in players] + ["", ""]


def parse_description(data: Any) -> TournamentDescription:
    if not isinstance(data, dict):
        raise DescriptionError(["the description must be a mapping (name, slug, tables, ...)"])
    errors: list[str] = []
    known = KNOWN_KEYS | _game_key_names(data)
    unknown = sorted(set(data) - known)
    if unknown:
        errors.append(f"unknown keys: {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    for key in ("name", "slug", "tables"):
        if key not in data:
            errors.append(f"{key}: required")
    tables, labels = _tables(data.get("tables"), errors) if "tables" in data else (0, [])
    description = TournamentDescription(
        name=str(data.get("name", "")),
        slug=str(data.get("slug", "")),
        tables=tables,
        table_labels=labels,
        settings=_settings(data, errors),
        entrants=_entrants(data.get("teams", data.get("players")), errors),
    )
    if errors:
        raise DescriptionError(errors)
    return description
