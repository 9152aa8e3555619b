"""The pyramid sheet: the quota of each declaration, the legal calls, and the ``sheet``
command's output (docs/games/pyramid.md).

A player's declarations are numbered from 1 over a whole tournament; numbers 1-16 fill his
first sheet, 17-32 his second, and so on. A quota is never scaled, only never exceeded.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core.errors import RecordError
from engine.core.messages import words
from engine.games.pyramid.scoring import points_for

#: Places on the sheet for each declaration 0..6.
QUOTA = (1, 2, 3, 4, 3, 2, 1)
SHEET_SIZE = sum(QUOTA)  # 16
DECLARATIONS = tuple(range(len(QUOTA)))
SHEET_FIELDS = frozenset({"calls", "player"})


def sheet_of(declaration_index: int) -> int:
    """The sheet (from 1) of a player's declaration number ``declaration_index`` (from 1)."""
    if declaration_index < 1:
        raise ValueError(f"declarations are numbered from 1, not {declaration_index}")
    return (declaration_index - 1) // SHEET_SIZE + 1


def place_on_sheet(declaration_index: int) -> int:
    """Which of his sheet's 16 declarations (1..16) declaration ``declaration_index`` is."""
    if declaration_index < 1:
        raise ValueError(f"declarations are numbered from 1, not {declaration_index}")
    return (declaration_index - 1) % SHEET_SIZE + 1


def counts_of(declared_numbers: Iterable[int]) -> list[int]:
    """How many times each number 0..6 was declared."""
    counts = [0] * len(QUOTA)
    for value in declared_numbers:
        if type(value) is not int or not 0 <= value <= 6:
            raise ValueError(f"{value!r} is not a declaration (0 to 6)")
        counts[value] += 1
    return counts


def legal_declarations(declared_numbers_on_current_sheet: Iterable[int]) -> list[int]:
    """The numbers that still have a free place, given those declared on the sheet so far."""
    return _free(counts_of(declared_numbers_on_current_sheet))


def _free(counts: list[int]) -> list[int]:
    """The numbers that still have a free place, given how many times each was declared."""
    return [value for value in DECLARATIONS if counts[value] < QUOTA[value]]


def quota_error(
    seat_or_name: str, sheet_number: int, declared_numbers_on_sheet: Iterable[int], declared: int
) -> str | None:
    """Why ``declared`` has no place on the sheet (None when it has), naming the player, the
    number, the sheet and what is left:
    ``E has no declaration of 5 left on sheet 1 (2 of 2 used); legal: 0, 1, 2, 3, 4``."""
    if type(declared) is not int or not 0 <= declared <= 6:
        return words(
            "%(seat)s cannot declare %(value)s: a declaration is 0 to 6",
            seat=seat_or_name,
            value=repr(declared),
        )
    counts = counts_of(declared_numbers_on_sheet)
    if counts[declared] < QUOTA[declared]:
        return None
    legal = _free(counts)
    left = ", ".join(map(str, legal)) if legal else words("none, the sheet is complete")
    return words(
        "%(seat)s has no declaration of %(value)s left on sheet %(sheet)s "
        "(%(used)s of %(quota)s used); legal: %(left)s",
        seat=seat_or_name,
        value=declared,
        sheet=sheet_number,
        used=counts[declared],
        quota=QUOTA[declared],
        left=left,
    )


def _call_number(call: Any, name: str, number: int) -> int:
    value = call.get(name)
    if value is None:
        raise RecordError(name, f"call {number}: missing (an integer 0 to 6)")
    if type(value) is not int or not 0 <= value <= 6:
        raise RecordError(name, f"call {number}: {value!r} is not an integer 0 to 6")
    return value


def _check_known_fields(obj: dict[str, Any]) -> None:
    """No field but a sheet line's (a null one is absent)."""
    for key, value in obj.items():
        if key not in SHEET_FIELDS and value is not None:
            raise RecordError(str(key), "unknown field")


def _sheet_fields(obj: Any) -> tuple[list[Any], str | None]:
    """``(calls, player)`` of a sheet line: an object of no other field, ``calls`` a list."""
    if not isinstance(obj, dict):
        raise RecordError("object", f"a sheet line must be a JSON object, not {type(obj).__name__}")
    _check_known_fields(obj)
    calls = obj.get("calls")
    if calls is None:
        raise RecordError("calls", "missing (a list of calls, each {declared, won})")
    if type(calls) is not list:
        raise RecordError("calls", f"must be a list of calls, not {calls!r}")
    player = obj.get("player")
    if player is not None and type(player) is not str:
        raise RecordError("player", f"{player!r} is not a string")
    return calls, player


def _read_call(call: Any, number: int, counts: list[int]) -> tuple[int, int]:
    """``(declared, won)`` of the sheet's call ``number``, within the quota of ``declared``."""
    if not isinstance(call, dict):
        raise RecordError(
            f"call {number}", f"must be an object with declared and won, not {call!r}"
        )
    declared = _call_number(call, "declared", number)
    won = _call_number(call, "won", number)
    if counts[declared] >= QUOTA[declared]:
        raise RecordError(
            "quota",
            f"call {number}: declared {declared}, quota full "
            f"({counts[declared]} of {QUOTA[declared]} used)",
        )
    return declared, won


def sheet_output(obj: Any) -> dict[str, Any]:
    """The ``sheet`` command: one player's calls on one sheet, in the order made, to his
    pyramid sheet. ``RecordError`` names the field (``calls``, ``call 3``, ``declared``,
    ``won``, ``player``, ``quota`` or an unknown field)."""
    calls, player = _sheet_fields(obj)
    counts = [0] * 7
    won_by: list[list[int]] = [[] for _ in DECLARATIONS]
    points_by: list[list[int]] = [[] for _ in DECLARATIONS]
    total = tens = 0
    for number, call in enumerate(calls, 1):
        declared, won = _read_call(call, number, counts)
        counts[declared] += 1
        points = points_for(declared, won)
        won_by[declared].append(won)
        points_by[declared].append(points)
        total += points
        tens += declared == won
    out: dict[str, Any] = {"game": "pyramid"}
    if player is not None:
        out["player"] = player
    out.update(
        declarations=len(calls),
        quota=list(QUOTA),
        counts=counts,
        remaining=[q - c for q, c in zip(QUOTA, counts, strict=True)],
        legal=_free(counts),
        won=won_by,
        points=points_by,
        total=total,
        tens=tens,
        complete=len(calls) == SHEET_SIZE,
    )
    return out
