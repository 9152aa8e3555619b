"""The engine's words in the page's language (``engine.core.messages``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext

from engine.core.messages import Words
from engine.core.seats import seat_mark

register = template.Library()


def translated(text: Any) -> Any:
    """A ``Words`` in the active language, its values translated too; anything else as is."""
    if not isinstance(text, Words):
        return text
    message = gettext(text.message)
    if not text.values:
        return message
    return message % {name: translated(value) for name, value in text.values.items()}


def translated_tree(value: Any) -> Any:
    """``value`` (dicts, lists, tuples of the engine, e.g. an entry form) with every ``Words``
    in it translated, for a page that hands it to a script as JSON."""
    if isinstance(value, dict):
        return {key: translated_tree(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [translated_tree(item) for item in value]
    return translated(value)


@register.filter(name="in_language")
def in_language(text: Any) -> Any:
    """``{{ label|in_language }}``: the engine's words in the reader's language."""
    return translated(text)


@register.filter(name="seat_letter")
def seat_letter(seat: Any) -> Any:
    """``{{ seat|seat_letter }}``: a seat's letter as the reader writes it (West is "O" in
    French); what is not a seat's letter as is."""
    return translated(seat_mark(seat)) if isinstance(seat, str) else seat


@register.filter(name="seat_letters")
def seat_letters(seats: Any, between: str = ", ") -> str:
    """``{{ tournament.seats|seat_letters }}``: the seats' letters as the reader writes them,
    joined by ``between``."""
    return between.join(str(seat_letter(seat)) for seat in seats)
