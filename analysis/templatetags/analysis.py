"""The analysis on the organiser's deal pages: ``{% load analysis %}``, then
``{% analysis_progress tournament %}`` once and ``{% board_analysis tournament table board %}``
beside each board (the organiser sees every deal, so every table)."""

from __future__ import annotations

from typing import Any

from django import template

from analysis import selectors

register = template.Library()


@register.inclusion_tag("analysis/progress.html", takes_context=True)
def analysis_progress(context: Any, tournament: Any, allowed: bool = True) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "progress": selectors.progress(tournament),
        "csrf_token": context.get("csrf_token"),
        "allowed": allowed,
    }


@register.inclusion_tag("analysis/board.html", takes_context=True)
def board_analysis(context: Any, tournament: Any, table: int, board: int) -> dict[str, Any]:
    cache = context.render_context
    key = ("analysis", tournament.pk)
    if key not in cache:
        offered = tournament.game_rules.offers_analysis(tournament.rules)
        cache[key] = selectors.by_table_and_board(tournament) if offered else {}
    return {"analysis": cache[key].get((int(table), int(board)))}
