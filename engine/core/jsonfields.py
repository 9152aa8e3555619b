"""What every game's record reader checks first, in the same order and words."""

from __future__ import annotations

from collections.abc import Set
from typing import Any

from engine.core.errors import RecordError


def record_object(record: Any, game_id: str, fields: Set[str]) -> dict[str, Any]:
    """The record as a dict, once it is a JSON object of this game (``game`` may be left
    out) with no field but ``fields``; a field set to ``null`` counts as absent, an unknown
    one too. ``RecordError`` names the first fault."""
    if not isinstance(record, dict):
        raise RecordError("object", f"a record must be a JSON object, not {type(record).__name__}")
    checked: dict[str, Any] = record if type(record) is dict else dict(record)
    game = checked.get("game")
    if game is not None and game != game_id:
        raise RecordError("game", f"{game!r} is not {game_id!r}")
    if not checked.keys() <= fields:
        for key, value in checked.items():
            if key not in fields and value is not None:
                raise RecordError(str(key), "unknown field")
    return checked
