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


@register.filter(name="in_language")
def in_language(text: Any) -> Any:
    """``{{ label|in_language }}``: the engine's words in the reader's language."""
    return translated(text)
