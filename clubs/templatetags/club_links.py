"""``{% club_links tournament %}``: on a tournament's entrants page, the way to its club's
page of who played (``clubs:event_links``), for an organiser of that club; for a tournament
of no club yet, one link per club the organiser runs. The tournaments app knows nothing of
clubs: its template only loads this tag."""

from __future__ import annotations

from typing import Any

from django import template

from clubs import selectors
from clubs.permissions import organises

register = template.Library()


@register.inclusion_tag("clubs/includes/event_club_links.html", takes_context=True)
def club_links(context: dict[str, Any], tournament: Any) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not getattr(user, "is_authenticated", False):
        return {"clubs": [], "tournament": tournament}
    owner = selectors.club_of_event(tournament)
    if owner is not None:
        clubs = [owner] if organises(user, owner) else []
    else:
        clubs = selectors.clubs_of(user)
    return {"clubs": clubs, "owned": owner is not None, "tournament": tournament}
