"""Who is calling: a team by its access code (header ``X-Team-Code``), an organiser by token
or session.

Wrong codes are counted per address and per address and code, and throttled with a growing
wait, so that codes cannot be guessed; **a right code always passes**. A venue's tables share
one address, and a prankster (or one phone with a mistyped code) behind it must not stop the
other tables. The check is made on the code, not on the address: a right code is found first,
so what a guesser learns from a refusal is no more than before (a code has some 10^15 values,
and his wrong ones wait longer and longer)."""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.core.cache import cache
from rest_framework import exceptions, permissions, throttling
from rest_framework.request import Request

from config.cache import count_hit
from scoring.selectors import team_by_code
from tournaments.models import Team, Tournament

TEAM_CODE_HEADER = "HTTP_X_TEAM_CODE"
BAD_CODES_ALLOWED = 10  # wrong codes an address may send per window before they wait
SAME_BAD_CODE_ALLOWED = 3  # tries of one wrong code (a phone re-sending a typo) before it waits
BAD_CODE_WINDOW = 600  # seconds
FIRST_WAIT = 2  # seconds; doubles with every wrong code beyond the allowance


def client_address(request) -> str | None:
    return request.META.get("REMOTE_ADDR") or None


def _bad_code_key(request) -> str:
    return f"bad-team-code:{client_address(request)}"


def _same_code_key(request, code: str) -> str:
    digest = hashlib.blake2s(code.strip().upper().encode(), digest_size=8).hexdigest()
    return f"bad-team-code:{client_address(request)}:{digest}"


def backoff_wait(failures: int, allowed: int) -> int:
    """Seconds a wrong code waits once ``failures`` passed ``allowed``: 2, 4, 8, ... at most
    the window."""
    excess = failures - allowed - 1
    return 0 if excess < 0 else min(BAD_CODE_WINDOW, FIRST_WAIT << min(excess, 20))


def refuse_guess(request, code: str) -> None:
    """A wrong code: counted, and refused with 429 and a growing wait once its address, or the
    same code from it, has been wrong too often (401/403 until then, by the caller)."""
    address_failures = count_hit(cache, _bad_code_key(request), BAD_CODE_WINDOW)
    same_failures = count_hit(cache, _same_code_key(request, code), BAD_CODE_WINDOW)
    wait = max(
        backoff_wait(address_failures, BAD_CODES_ALLOWED),
        backoff_wait(same_failures, SAME_BAD_CODE_ALLOWED),
    )
    if wait:
        raise exceptions.Throttled(
            wait=wait, detail="too many wrong access codes from this address; check the code"
        )


def team_from_request(request: Request, slug: str) -> Team:
    """The team whose access code the request carries (with its tournament loaded), or
    401/403/404/429."""
    code = request.META.get(TEAM_CODE_HEADER, "")
    if not code:
        raise exceptions.NotAuthenticated("send the team's access code in the X-Team-Code header")
    team = team_by_code(slug, code)
    if team is None:
        if not Tournament.objects.filter(slug=slug).exists():
            raise exceptions.NotFound("no such tournament")
        refuse_guess(request, code)
        raise exceptions.AuthenticationFailed("unknown access code for this tournament")
    return team


def code_team_or_none(request, tournament: Tournament, code: str) -> Team | None:
    """For the scorer pages: the team of a typed code, wrong ones counted like the API's
    (``Throttled`` once they come too often)."""
    team = team_by_code(tournament.slug, code)
    if team is None and code:
        refuse_guess(request, code)
    return team


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
        return count_hit(cache, key, seconds) <= limit

    def wait(self) -> float:
        return self.seconds_left
