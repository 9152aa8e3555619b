"""Who is calling: a team by its access code (header ``X-Team-Code``), an organiser by token
or session. Wrong codes are counted per address and throttled, so codes cannot be guessed."""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from rest_framework import exceptions, permissions, throttling
from rest_framework.request import Request

from config.cache import count_hit, count_hit_and_read
from scoring.selectors import team_by_code
from tournaments.models import Team, Tournament
from tournaments.permissions import is_organiser

TEAM_CODE_HEADER = "HTTP_X_TEAM_CODE"
BAD_CODES_ALLOWED = 10  # per address and window
BAD_CODE_WINDOW = 600  # seconds


# The write throttle reads the address's wrong-code count with its own counter, in one round
# trip, and leaves it on the request for ``check_guessing``.
BAD_CODES_READ = "scorer_bad_codes"


def client_address(request) -> str | None:
    return request.META.get("REMOTE_ADDR") or None


def _bad_code_key(request) -> str:
    return f"bad-team-code:{client_address(request)}"


def check_guessing(request) -> None:
    """Refuse an address that has sent too many wrong codes lately."""
    failures = getattr(request, BAD_CODES_READ, None)
    if failures is None:
        failures = cache.get(_bad_code_key(request), 0)
    if failures >= BAD_CODES_ALLOWED:
        raise exceptions.Throttled(
            wait=BAD_CODE_WINDOW, detail="too many wrong access codes from this address"
        )


def note_bad_code(request) -> None:
    count_hit(cache, _bad_code_key(request), BAD_CODE_WINDOW)


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


PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"600/minute"`` → ``(600, 60)``; the period's first letter counts (s, m, h, d)."""
    count, _, period = rate.partition("/")
    if not count.isdigit() or period[:1] not in PERIODS:
        raise ValueError(f"a rate is '<count>/<second|minute|hour|day>', not {rate!r}")
    return int(count), PERIODS[period[0]]


class ScorerWriteThrottle(throttling.BaseThrottle):
    """Writes by scorers, per address (``SCORER_WRITE_RATE``): one counter per address and
    fixed window, bumped in one cache round trip, so its cost does not grow with the rate."""

    def allow_request(self, request, view) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        limit, seconds = parse_rate(settings.SCORER_WRITE_RATE)
        now = time.time()
        self.seconds_left = seconds - now % seconds
        key = f"scorer-write:{self.get_ident(request)}:{int(now // seconds)}"
        hits, bad_codes = count_hit_and_read(cache, key, seconds, _bad_code_key(request))
        setattr(request, BAD_CODES_READ, bad_codes or 0)
        return hits <= limit

    def wait(self) -> float:
        return self.seconds_left
