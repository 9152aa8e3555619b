"""What a page asks of a tournament's game: the files of its own entry."""

from __future__ import annotations

from django import template

from tournaments.models import Tournament, entry_style

register = template.Library()


@register.filter(name="entry_style")
def entry_style_of(tournament: Tournament) -> str | None:
    """The static path of the style sheet of the tournament's game's entry, if any."""
    return entry_style(tournament.game_rules)
