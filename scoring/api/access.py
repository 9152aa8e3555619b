"""Who is calling: a team by its access code (header ``X-Team-Code``), an organiser by token
or session. Wrong codes are counted per address and throttled, so codes cannot be guessed."""

from __future__ import annotations

from django.core.cache import cache
from rest_framework import exceptions, permissions, throttling
from rest_framework.request import Request

from scoring.selectors import team_by_code
from tournaments.models import Team, Tournament
from tournaments.permissions import is_organiser

TEAM_CODE_HEADER = "HTTP_X_TEAM_CODE"
BAD_CODES_ALLOWED = 10  # per address and window
BAD_CODE_WINDOW = 600  # seconds


def client_address(request) -> str | None:
    return request.META.get("REMOTE_ADDR") or None


def _bad_code_key(request) -> str:
    return f"bad-team-code:{client_address(request)}"


def check_guessing(request) -> None:
    """Refuse an address that has sent too many wrong codes lately."""
    failures = cache.get(_bad_code_key(request), 0)
    if failures >= BAD_CODES_ALLOWED:
        raise exceptions.Throttled(
            wait=BAD_CODE_WINDOW, detail="too many wrong access codes from this address"
        )


def note_bad_code(request) -> None:
    key = _bad_code_key(request)
    if cache.add(key, 1, BAD_CODE_WINDOW):
        return
    try:
        cache.incr(key)
    except ValueError:
        cache.set(key, 1, BAD_CODE_WINDOW)


def team_from_request(request: Request, slug: str) -> Team:
    """The team whose access code the request carries (with its tournament loaded), or
    401/403/404/429."""
    check_guessing(request)
    code = request.META.get(TEAM_CODE_HEADER, "")
    if not code:
        raise exceptions.NotAuthenticated("send the team's access code in the X-Team-Code header")
    team = team_by_code(slug, code)
    if team is None:
        if not Tournament.objects.filter(slug=slug).exists():
            raise exceptions.NotFound("no such tournament")
        note_bad_code(request)
        raise exceptions.AuthenticationFailed("unknown access code for this tournament")
    return team


def code_team_or_none(request, tournament: Tournament, code: str) -> Team | None:
    """For the scorer pages: the team of a typed code, counting wrong ones like the API."""
    check_guessing(request)
    team = team_by_code(tournament.slug, code)
    if team is None and code:
        note_bad_code(request)
    return team


class IsOrganiser(permissions.BasePermission):
    message = "only organisers may do this"

    def has_permission(self, request, view) -> bool:
        return is_organiser(request.user)


class ScorerWriteThrottle(throttling.SimpleRateThrottle):
    """Writes by scorers: per address, generous enough for a whole venue behind one NAT."""

    scope = "scorer_write"

    def get_cache_key(self, request, view):
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
