"""The engine's words in the page's language (``engine.core.messages``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext

from engine.core.messages import Words

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
