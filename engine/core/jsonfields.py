"""Strict reading of JSON fields shared by every game's record reader.

A JSON integer is an ``int`` that is not a ``bool``: ``3``, never ``3.0``, ``"3"`` or ``true``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import RecordError


def is_json_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def present(record: Mapping[str, Any], name: str) -> bool:
    """A field set to ``null`` counts as absent."""
    return record.get(name) is not None


def int_field(record: Mapping[str, Any], name: str, low: int, high: int) -> int:
    value = record[name]
    if not is_json_int(value) or not low <= value <= high:
        raise RecordError(name, f"{value!r} is not an integer {low} to {high}")
    return value


def reject_unknown(record: Mapping[str, Any], known: frozenset[str]) -> None:
    unknown = sorted(set(record) - known, key=str)
    if unknown:
        raise RecordError(str(unknown[0]), "unknown field")
