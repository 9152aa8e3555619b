"""The words and shape checks both schedule validators use (``engine.schedule.check`` for
teams, ``engine.schedule.individual_check`` for individual players): how a JSON value is named
in a message, whole numbers in range, an object's keys, lists of numbers written as ranges,
and the keys that come more than once."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from engine.core.messages import words

LIST_LIMIT = 12
# No real schedule comes near this; it keeps every number a message prints short.
MAX_NUMBER = 1_000_000


# --- shape -----------------------------------------------------------------------------------


def check_header_keys(
    data: dict, required: Iterable[str], known: Iterable[str], problems: list[str]
) -> None:
    """Every ``required`` key is there, and no key outside ``known``."""
    problems += [words("missing key '%(key)s'", key=key) for key in required if key not in data]
    problems += [
        words("unknown key %(key)s", key=describe(key)) for key in data if key not in known
    ]


def read_list(data: dict, key: str, problems: list[str]) -> list | None:
    """The list under ``key`` ([] when absent); None, and a message, when it is no list."""
    items = data.get(key, [])
    if not isinstance(items, list):
        problems.append(words("'%(key)s' must be a list, not %(kind)s", key=key, kind=kind(items)))
        return None
    return items


def is_object(item: Any, label: str, problems: list[str]) -> bool:
    """Whether ``item`` is a JSON object; a message when it is not."""
    if isinstance(item, dict):
        return True
    problems.append(
        words("%(label)s must be an object, not %(kind)s", label=label, kind=kind(item))
    )
    return False


def check_keys(item: dict, label: str, fields: tuple[str, ...], problems: list[str]) -> None:
    """``item`` has exactly the keys ``fields``: the missing ones and the unknown ones reported."""
    missing = [f"'{field}'" for field in fields if field not in item]
    if missing:
        problems.append(words("%(label)s: missing %(keys)s", label=label, keys=", ".join(missing)))
    problems += [
        words("%(label)s: unknown key %(key)s", label=label, key=describe(key))
        for key in item
        if key not in fields
    ]


def whole_number(
    mapping: dict, key: str, label: str, low: int, high: int, problems: list[str]
) -> int | None:
    """The value under ``key`` if it is a whole number in low..high; else None (and a message)."""
    if key not in mapping:
        return None
    value = mapping[key]
    if not isinstance(value, int) or isinstance(value, bool):
        problems.append(
            words(
                "%(label)s must be a whole number, not %(value)s",
                label=label,
                value=describe(value),
            )
        )
        return None
    if not low <= value <= high:
        problems.append(
            words(
                "%(label)s must be between %(low)s and %(high)s, not %(value)s",
                label=label,
                low=low,
                high=high,
                value=describe(value),
            )
        )
        return None
    return value


def first_and_clashes(items: Iterable[tuple[Any, int]]) -> tuple[dict, dict[Any, list[int]]]:
    """(key -> its first value, key -> all its values for the keys that come more than once)."""
    first: dict = {}
    clashes: dict[Any, list[int]] = {}
    for key, value in items:
        if key in first:
            clashes.setdefault(key, [first[key]]).append(value)
        else:
            first[key] = value
    return first, clashes


# --- wording ---------------------------------------------------------------------------------


# What sort of JSON value a Python value is, in the order they are tried (a bool is an int).
_KINDS: tuple[tuple[type | tuple[type, ...], str], ...] = (
    (type(None), "null"),
    (bool, "true/false"),
    ((int, float), words("a number")),
    (str, words("a string")),
    (list, words("a list")),
    (dict, words("an object")),
)
_TIMES = {1: words("once"), 2: words("twice")}


def kind(value: Any) -> str:
    """What sort of JSON value ``value`` is: "a number", "a list"."""
    return next((name for types, name in _KINDS if isinstance(value, types)), type(value).__name__)


def describe(value: Any) -> str:
    """A short rendering of a JSON value for a message."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)  # null, true, false
    if isinstance(value, int):
        return str(value) if value.bit_length() <= 64 else words("a number too large to print")
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return _quoted(value)
    return kind(value)


def _quoted(text: str) -> str:
    """A string in double quotes, its quotes and backslashes escaped, cut short after 37
    characters when longer than 40."""
    if len(text) > 40:
        text = text[:37] + "..."
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def times(count: int) -> str:
    """ "once", "twice", "3 times"."""
    return _TIMES.get(count) or words("%(count)s times", count=count)


def count_of(numbers: list) -> int:
    """How many numbers a list of ints or (first, last) ranges stands for."""
    spans = (n if isinstance(n, tuple) else (n, n) for n in numbers)
    return sum(last - first + 1 for first, last in spans)


def complement(present: list[int], low: int, high: int) -> list[tuple[int, int]]:
    """The ranges of low..high missing from the sorted list ``present``."""
    gaps, expected = [], low
    for value in present:
        if value > expected:
            gaps.append((expected, min(value - 1, high)))
        expected = max(expected, value + 1)
        if expected > high:
            break
    if expected <= high:
        gaps.append((expected, high))
    return gaps


def _runs(numbers: Iterable[int | tuple[int, int]]) -> list[tuple[int, int]]:
    """The sorted numbers or (first, last) ranges as (first, last) runs, adjacent ones joined."""
    spans: list[tuple[int, int]] = []
    for item in numbers:
        first, last = item if isinstance(item, tuple) else (item, item)
        if spans and first == spans[-1][1] + 1:
            spans[-1] = (spans[-1][0], last)
        else:
            spans.append((first, last))
    return spans


def _run_parts(first: int, last: int) -> list[str]:
    """A run as a list shows it: "5"; "5", "6"; "5-8"."""
    if first == last:
        return [str(first)]
    if last == first + 1:
        return [str(first), str(last)]
    return [f"{first}-{last}"]


def ranges(numbers: Iterable[int | tuple[int, int]]) -> str:
    """ "1-3, 5, 8": numbers or (first, last) ranges, sorted, runs joined; long lists cut short."""
    parts = [part for first, last in _runs(numbers) for part in _run_parts(first, last)]
    if len(parts) > LIST_LIMIT:
        return words(
            "%(list)s and %(more)s more",
            list=", ".join(parts[:LIST_LIMIT]),
            more=len(parts) - LIST_LIMIT,
        )
    return ", ".join(parts)
