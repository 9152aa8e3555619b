"""The engine's words for people, to be given in the reader's language by the web layer.

The engine knows no language machinery (it never imports Django). A sentence it hands to the
pages is made with ``words``: a ``Words`` is the English sentence itself (a ``str``, so every
caller that only shows or compares it is unchanged) that also keeps its message, the English
pattern with ``%(name)s`` places, and the values put in them. The web layer looks the message
up in its catalogue and fills in the values, each translated in turn when it is a ``Words``
itself (``tournaments.templatetags.languages``). The catalogue's extraction reads the first
argument of every ``words(...)`` call, as it reads ``gettext(...)``.
"""

from __future__ import annotations

from typing import Any


class Words(str):
    """An English sentence of the engine with its message and values, for translation."""

    message: str
    values: dict[str, Any]

    def __new__(cls, message: str, values: dict[str, Any] | None = None) -> Words:
        # Called with the English text alone when a Words is unpickled or copied; its message
        # and values come back with its state.
        text = super().__new__(cls, message % values if values else message)
        text.message = message
        text.values = values or {}
        return text


def words(message: str, **values: Any) -> Words:
    """``message`` (English, with ``%(name)s`` places) filled with ``values``: the English
    sentence, kept translatable."""
    return Words(message, values)


def joined(parts: list[Any] | tuple[Any, ...], between: str) -> str:
    """``parts`` joined by ``between`` (``" · "``, ``"; "``), each part translated on its own
    by the pages; the joined pattern itself is no message of the catalogue (no parts: "")."""
    if not parts:
        return ""
    places = between.join(f"%(p{index})s" for index in range(len(parts)))
    return Words(places, {f"p{index}": part for index, part in enumerate(parts)})


def grouped(value: int) -> str:
    """A whole number with its thousands grouped as the reader writes them: ``12,000`` in
    English, ``12 000`` in French (each group joined by the catalogue's ``%(high)s,%(low)s``)."""
    digits = str(abs(value))
    sign = "-" if value < 0 else ""
    if len(digits) <= 3:
        return f"{sign}{digits}"
    head = len(digits) % 3 or 3
    number: str = digits[:head]
    for start in range(head, len(digits), 3):
        number = words("%(high)s,%(low)s", high=number, low=digits[start : start + 3])
    return Words("%(sign)s%(number)s", {"sign": sign, "number": number}) if sign else number
