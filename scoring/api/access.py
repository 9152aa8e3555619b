"""Who is calling: a team by its access code (header ``X-Team-Code``), an organiser by token
or session.

Guessing codes costs time, and a venue's tables, which share one address, go on:

- **A wrong code waits** ``CODE_GUESS_SECONDS`` (1 s) on the server before its answer, so a
  guesser on one connection makes at most one guess a second (at most ``MAX_HELD`` answers
  are held at once across the site, so that a flood cannot take every web worker).
- **Pressure**: once an address has sent ``BAD_CODES_ALLOWED`` wrong codes in
  ``BAD_CODE_WINDOW``, or the tournament has had ``TOURNAMENT_BAD_CODES_PER_MINUTE`` wrong codes
  this minute from anywhere (then for addresses with ``CLEAN_ADDRESS_FAILURES`` wrong codes
  or more), a code not known to be right is checked only in its turn: one
  check a ``CODE_GUESS_SECONDS`` for the tournament, with at most ``MAX_WAITING`` requests of
  it waiting on the server (the web workers are few; the others are answered 429 at once,
  unchecked); the answer comes after the check, right or wrong, so an early hang-up tells
  nothing. Beyond the ceiling, a guesser with any number of connections gets one guess a
  second per tournament, plus a few slowed ones for each fresh address.
- **Known codes pass at once**: a code that was right in this tournament in the last 12 hours
  (its phone sends it with every request) is never held up, so the tables that have signed
  in see nothing of a prankster.
- **A scorer's typo waits a few seconds at most**: a 429 says to try again in 2 to
  ``LONGEST_WAIT_SHOWN`` (5) seconds, never minutes; one phone re-sending the same wrong code
  is answered from the count, without a lookup.

Codes are looked up by their keyed digest in the cache (HMAC with the site's secret; the
counters never hold a code), and the right one by the database's index on the normalised
code, whose timing does not depend on how much of a guess is right; every wrong answer is
held to the same server-side wait.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import math
import time

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework import exceptions, permissions, throttling
from rest_framework.request import Request

from config.cache import count_hit
from scoring.selectors import entrant_by_code
from tournaments.models import Entrant, Tournament

TEAM_CODE_HEADER = "HTTP_X_TEAM_CODE"
BAD_CODES_ALLOWED = 10  # wrong codes an address may send per window before pressure
SAME_BAD_CODE_ALLOWED = 3  # tries of one wrong code (a phone re-sending a typo) before it waits
BAD_CODE_WINDOW = 600  # seconds
TOURNAMENT_BAD_CODES_PER_MINUTE = 30  # wrong codes of a tournament, from anywhere, per minute
FIRST_WAIT = 2  # seconds; doubles with every wrong code beyond the allowance ...
LONGEST_WAIT_SHOWN = 5  # ... up to this: a scorer is never told to wait longer
MAX_WAITING = 2  # requests of one tournament waiting for their turn on the server
# An address with fewer wrong codes than this is clean: the tournament's ceiling does not hold
# it up (a table signing in while others guess from elsewhere); its own wrong codes still wait.
CLEAN_ADDRESS_FAILURES = 3
MAX_HELD = 4  # wrong codes' answers held on the server at once, across the site
KNOWN_CODE_SECONDS = 12 * 3600


def guess_seconds() -> float:
    """Seconds a wrong code waits, and between two checks under pressure (settings)."""
    return float(getattr(settings, "CODE_GUESS_SECONDS", 1.0))


def client_address(request) -> str | None:
    """The caller's address; an IPv6 one by its /64 (one client usually holds it whole)."""
    from config.sign_in import address_of

    return address_of(request) if request.META.get("REMOTE_ADDR") else None


def normalise_code(code: str) -> str:
    """Codes are read off paper: case, spaces and dashes do not matter."""
    return (code or "").strip().upper().replace("-", "").replace(" ", "")


def code_digest(code: str) -> str:
    key = settings.SECRET_KEY.encode()
    return hmac.new(key, normalise_code(code).encode(), hashlib.sha256).hexdigest()[:32]


def _bad_code_key(request) -> str:
    return f"bad-team-code:{client_address(request)}"


def _same_code_key(request, code: str) -> str:
    return f"bad-team-code:{client_address(request)}:{code_digest(code)}"


def _tournament_key(slug: str) -> str:
    return f"bad-team-code:t:{slug}:{int(time.time() // 60)}"


def _known_key(slug: str, code: str) -> str:
    return f"good-team-code:{slug}:{code_digest(code)}"


def backoff_wait(failures: int, allowed: int) -> int:
    """Seconds a wrong code is told to wait once ``failures`` passed ``allowed``: 2, 4, then
    ``LONGEST_WAIT_SHOWN``."""
    excess = failures - allowed - 1
    return 0 if excess < 0 else min(LONGEST_WAIT_SHOWN, FIRST_WAIT << min(excess, 20))


def _throttled(wait: float) -> exceptions.Throttled:
    return exceptions.Throttled(
        wait=max(1, min(LONGEST_WAIT_SHOWN, round(wait))),
        detail="too many wrong access codes; check the code",
    )


def _wait_for_turn(slug: str) -> None:
    """Under pressure: wait on the server for the tournament's next check (one each
    ``guess_seconds()``), or 429 when too many already wait or the turn does not come."""
    step = guess_seconds()
    if step <= 0:
        return
    waiting_key = f"team-code-waiting:{slug}"
    if count_hit(cache, waiting_key, 30) > MAX_WAITING:
        _release(waiting_key)
        raise _throttled(2)
    try:
        deadline = time.monotonic() + 3 * step
        while True:
            slot = int(time.time() / step)
            if cache.add(f"team-code-turn:{slug}:{slot}", 1, int(3 * step) + 1):
                return
            if time.monotonic() >= deadline:
                raise _throttled(2)
            time.sleep(max(0.01, (slot + 1) * step - time.time()))
    finally:
        _release(waiting_key)


def _release(key: str) -> None:
    # Expired, or the cache is down: the count lapses by itself.
    with contextlib.suppress(Exception):
        cache.decr(key)


def _hold(seconds: float) -> None:
    """Hold a wrong code's answer, unless ``MAX_HELD`` answers are held already across the
    site (sync web workers are few: a flood of wrong codes must not take them all)."""
    held_key = "team-code-held"
    try:
        if count_hit(cache, held_key, 30) <= MAX_HELD:
            time.sleep(seconds)
    finally:
        _release(held_key)


def refuse_guess(request, code: str, slug: str = "", pressure: bool = False) -> None:
    """A wrong code: counted (address, address and code, tournament), held for
    ``guess_seconds()`` unless it already waited its turn, and refused with 429 once its
    address, or the same code from it, has been wrong too often (401/403 until then, by the
    caller)."""
    address_failures = count_hit(cache, _bad_code_key(request), BAD_CODE_WINDOW)
    same_failures = count_hit(cache, _same_code_key(request, code), BAD_CODE_WINDOW)
    if slug:
        count_hit(cache, _tournament_key(slug), 120)
    if not pressure and guess_seconds() > 0:
        _hold(guess_seconds())
    wait = max(
        backoff_wait(address_failures, BAD_CODES_ALLOWED),
        backoff_wait(same_failures, SAME_BAD_CODE_ALLOWED),
    )
    if wait:
        raise _throttled(wait)


def check_code(request, slug: str, code: str) -> Entrant | None:
    """The team of ``code`` in the tournament ``slug`` (its tournament loaded), or None for a
    wrong one (counted); ``Throttled`` when it must wait. See the module's doc."""
    if not normalise_code(code):
        return None
    known, address, same, tournament = (
        _known_key(slug, code),
        _bad_code_key(request),
        _same_code_key(request, code),
        _tournament_key(slug),
    )
    found = cache.get_many([known, address, same, tournament])
    if found.get(known):
        entrant = entrant_by_code(slug, code)
        if entrant is not None:
            return entrant
    if (found.get(same) or 0) >= SAME_BAD_CODE_ALLOWED:  # the same typo again: no lookup
        refuse_guess(request, code, slug, pressure=True)
        raise _throttled(FIRST_WAIT)
    pressure = _under_pressure(found.get(address) or 0, found.get(tournament) or 0)
    if pressure:
        _wait_for_turn(slug)
    entrant = entrant_by_code(slug, code)
    if entrant is not None:
        cache.set(known, 1, KNOWN_CODE_SECONDS)
        return entrant
    if not Tournament.objects.filter(slug=slug).exists():
        return None
    refuse_guess(request, code, slug, pressure=pressure)
    return None


def _under_pressure(address_failures: int, tournament_failures: int) -> bool:
    """Whether a code is checked only in its turn (the module's doc, "Pressure"): the address
    has been wrong too often, or the tournament sees many wrong codes this minute and the
    address has some of them."""
    return address_failures >= BAD_CODES_ALLOWED or (
        address_failures >= CLEAN_ADDRESS_FAILURES
        and tournament_failures >= TOURNAMENT_BAD_CODES_PER_MINUTE
    )


def entrant_from_request(request: Request, slug: str) -> Entrant:
    """The team whose access code the request carries (with its tournament loaded), or
    401/403/404/429."""
    code = request.META.get(TEAM_CODE_HEADER, "")
    if not code:
        raise exceptions.NotAuthenticated("send the team's access code in the X-Team-Code header")
    entrant = check_code(request, slug, code)
    if entrant is None:
        if not Tournament.objects.filter(slug=slug).exists():
            raise exceptions.NotFound("no such tournament")
        raise exceptions.AuthenticationFailed("unknown access code for this tournament")
    return entrant


def code_entrant_or_none(request, tournament: Tournament, code: str) -> Entrant | None:
    """For the scorer pages: the team of a typed code, wrong ones counted and held like the
    API's (``Throttled`` once they come too often)."""
    return check_code(request, tournament.slug, code)


PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"600/minute"`` → ``(600, 60)``; the period's first letter counts (s, m, h, d)."""
    count, _, period = rate.partition("/")
    if not count.isdigit() or period[:1] not in PERIODS:
        raise ValueError(f"a rate is '<count>/<second|minute|hour|day>', not {rate!r}")
    return int(count), PERIODS[period[0]]


def count_write(name: str, rate: str) -> tuple[bool, int, float]:
    """Count one write against ``rate`` on the counter ``scorer-write:<name>``, one per fixed
    window, bumped in one cache round trip: ``(allowed, limit, seconds left in the window)``."""
    limit, seconds = parse_rate(rate)
    now = time.time()
    key = f"scorer-write:{name}:{int(now // seconds)}"
    return count_hit(cache, key, seconds) <= limit, limit, seconds - now % seconds


class ScorerWriteThrottle(throttling.BaseThrottle):
    """Writes by scorers, per address (``SCORER_WRITE_RATE``): one counter per address and
    fixed window, bumped in one cache round trip, so its cost does not grow with the rate.
    The writes on a board are counted again once the team is known (``limit_board_write``)."""

    def allow_request(self, request, view) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        allowed, _limit, self.seconds_left = count_write(
            self.get_ident(request), settings.SCORER_WRITE_RATE
        )
        return allowed

    def wait(self) -> float:
        return self.seconds_left


class WriteLimited(exceptions.Throttled):
    """429 with ``Retry-After`` and a sentence for the scorer (DRF's Throttled would append
    "Expected available in N seconds")."""

    def __init__(self, wait: float, detail: str):
        exceptions.APIException.__init__(self, detail)
        self.wait = max(1, math.ceil(wait))


def in_words(seconds: float) -> str:
    seconds = max(1, math.ceil(seconds))
    if seconds < 90:
        return ngettext("%(count)s second", "%(count)s seconds", seconds) % {"count": seconds}
    minutes = math.ceil(seconds / 60)
    return ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes}


def limit_board_write(request, entrant: Entrant, match_id: int, board: int) -> None:
    """A write on a board (an entry, East's accept or reject, a call for the director) by a
    team whose code was checked: counted per access code (``SCORER_PHONE_WRITE_RATE``) and
    per board of the match and team (``SCORER_BOARD_WRITE_RATE``), after the address's own
    counter (``ScorerWriteThrottle``). Per team, so one side's flood never holds up the other;
    counted only once the code is right, so nobody without it can use up a table's allowance.
    ``WriteLimited`` (429) when one is used up.

    The defaults (60 a minute per team, 20 an hour per board and team) are far above what a
    table sends: a board's entry, East's check, perhaps a rejection and a new entry, or a call
    for the director, a few more with re-sends over a bad connection."""
    allowed, limit, left = count_write(f"team:{entrant.pk}", settings.SCORER_PHONE_WRITE_RATE)
    if not allowed:
        raise WriteLimited(
            left,
            _(
                "Your team has sent more than %(limit)s results and checks in a short time, "
                "more than any table needs. Wait %(wait)s, then send again."
            )
            % {"limit": limit, "wait": in_words(left)},
        )
    allowed, limit, left = count_write(
        f"board:{match_id}:{board}:{entrant.pk}",
        settings.SCORER_BOARD_WRITE_RATE,
    )
    if not allowed:
        raise WriteLimited(
            left,
            _(
                "Your team has sent board %(board)s more than %(limit)s times, more than any "
                "table needs. Wait %(wait)s, or ask the director to enter it."
            )
            % {"board": board, "limit": limit, "wait": in_words(left)},
        )
