"""``{{ text|game_words }}``: a game's words (its settings' labels and choices, its deal
notation's help) in the page's language (``tournaments.forms.game_words``)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.forms import game_words as _game_words

register = template.Library()


@register.filter(name="game_words")
def game_words(text: Any) -> Any:
    return _game_words(text)
