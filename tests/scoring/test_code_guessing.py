"""Guessing access codes costs time (scoring/api/access.py): a wrong code waits on the server
before its answer; under pressure (an address or the whole tournament sending too many wrong
codes) a code not known to be right is checked only in the tournament's turn, one a second,
so an early hang-up tells nothing; known codes pass at once; a scorer's typo is never told
to wait more than a few seconds. The server's waits are recorded on a fake clock here, never
timed; bench/code_guessing.py measures the guesses a second."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.api import access
from scoring.api.access import (
    BAD_CODES_ALLOWED,
    LONGEST_WAIT_SHOWN,
    MAX_WAITING,
    TOURNAMENT_BAD_CODES_PER_MINUTE,
)

STEP = 1.0


class Clock:
    """``time`` for the access module: sleeping moves the clock on and is written down, in
    order with the code lookups."""

    def __init__(self) -> None:
        self.now = 1_900_000_020.0  # a minute's start: 31,666,667 minutes
        self.events: list[str] = []

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.events.append(f"sleep {seconds:.2f}")
        self.now += seconds


@pytest.fixture
def clock(monkeypatch, settings):
    settings.CODE_GUESS_SECONDS = STEP
    clock = Clock()
    monkeypatch.setattr(access, "time", clock)
    lookup = access.entrant_by_code

    def recorded(slug, code):
        clock.events.append("lookup")
        return lookup(slug, code)

    monkeypatch.setattr(access, "entrant_by_code", recorded)
    return clock


def me(cup) -> str:
    return f"/api/v1/tournaments/{cup.tournament.slug}/me/"


def ask(cup, code: str, address: str = "203.0.113.7"):
    client = APIClient()
    client.credentials(HTTP_X_TEAM_CODE=code)
    return client.get(me(cup), REMOTE_ADDR=address)


def test_a_wrong_code_waits_on_the_server_and_a_right_one_does_not(cup, clock):
    assert ask(cup, "WRONGCODE1").status_code in (401, 403)
    assert clock.events == ["lookup", f"sleep {STEP:.2f}"]  # the answer comes after the wait
    clock.events.clear()
    assert ask(cup, cup.entrants[0].access_code).status_code == 200
    assert clock.events == ["lookup"]


def test_under_pressure_a_code_is_checked_only_in_its_turn(cup, clock):
    for n in range(BAD_CODES_ALLOWED):
        ask(cup, f"WRONG{n:05d}")
    clock.events.clear()
    # Another request took this second's turn: this one waits for the next, then is checked.
    clock.now = (int(clock.now) // 1) + 0.25
    assert access.cache.add(f"team-code-turn:{cup.tournament.slug}:{int(clock.now)}", 1, 5)
    answer = ask(cup, "WRONG99999")
    assert answer.status_code == 429 and int(answer["Retry-After"]) <= LONGEST_WAIT_SHOWN
    assert clock.events == ["sleep 0.75", "lookup"]  # no extra wait after the check
    # A right code never seen before from the pressed address waits its turn too ...
    clock.events.clear()
    clock.now = int(clock.now) + 1.5
    assert access.cache.add(f"team-code-turn:{cup.tournament.slug}:{int(clock.now)}", 1, 5)
    assert ask(cup, cup.entrants[1].access_code).status_code == 200
    assert clock.events == ["sleep 0.50", "lookup"]
    # ... and, known now, passes at once whatever the pressure.
    clock.events.clear()
    for _ in range(3):
        assert ask(cup, cup.entrants[1].access_code).status_code == 200
    assert clock.events == ["lookup"] * 3


def test_too_many_waiting_are_answered_at_once_without_a_check(cup, clock):
    for n in range(BAD_CODES_ALLOWED):
        ask(cup, f"WRONG{n:05d}")
    clock.events.clear()
    for _ in range(MAX_WAITING):
        access.count_hit(access.cache, f"team-code-waiting:{cup.tournament.slug}", 30)
    answer = ask(cup, cup.entrants[2].access_code)
    assert answer.status_code == 429 and answer["Retry-After"] == "2"
    assert clock.events == []  # neither a wait nor a lookup: the worker is free at once


def test_the_tournament_has_a_ceiling_across_addresses(cup, clock):
    addresses = [f"198.51.100.{n}" for n in range(TOURNAMENT_BAD_CODES_PER_MINUTE // 3)]
    for n in range(TOURNAMENT_BAD_CODES_PER_MINUTE):
        answer = ask(cup, f"WRONG{n:05d}", address=addresses[n % len(addresses)])
        assert answer.status_code in (401, 403)
    clock.events.clear()
    # The tournament is under pressure: a guessing address's next check waits for its turn.
    assert access.cache.add(f"team-code-turn:{cup.tournament.slug}:{int(clock.now)}", 1, 5)
    ask(cup, "WRONG77777", address=addresses[0])
    assert clock.events[0].startswith("sleep") and clock.events[1] == "lookup"
    # A clean address (a table signing in elsewhere) is not held up by the others' guesses.
    clock.events.clear()
    assert ask(cup, cup.entrants[3].access_code, address="192.0.2.200").status_code == 200
    assert clock.events == ["lookup"]
    # The next minute the count starts again.
    clock.now += 61
    clock.events.clear()
    ask(cup, "WRONG88888", address=addresses[1])
    assert clock.events == ["lookup", f"sleep {STEP:.2f}"]


def test_a_scorers_typo_after_a_prankster_waits_a_few_seconds(client, cup, clock):
    for n in range(40):
        ask(cup, f"PRANK{n:05d}")
    typo = cup.entrants[0].access_code[:-1] + (
        "X" if cup.entrants[0].access_code[-1] != "X" else "Y"
    )
    url = reverse("scorer-entry", kwargs={"slug": cup.tournament.slug})
    page = client.get(url, {"code": typo}, REMOTE_ADDR="203.0.113.7")
    assert page.status_code == 429
    text = page.content.decode()
    seconds = int(text.split("try again in ")[1].split(" second")[0])
    assert 1 <= seconds <= LONGEST_WAIT_SHOWN and "minute" not in text
    # The code typed right passes (after its turn).
    assert client.get(url, {"code": cup.entrants[0].access_code}).status_code == 302


def test_codes_are_never_kept_in_the_cache_in_clear(cup, clock):
    code = cup.entrants[0].access_code
    ask(cup, code)
    ask(cup, "WRONGCODE1")
    assert access.code_digest(code) == access.code_digest(code.lower())
    assert code not in access._known_key(cup.tournament.slug, code)
    assert "WRONGCODE1" not in access._same_code_key(type("R", (), {"META": {}})(), "WRONGCODE1")


def test_held_answers_never_take_every_web_worker(cup, clock):
    from scoring.api.access import MAX_HELD

    for _ in range(MAX_HELD):
        access.count_hit(access.cache, "team-code-held", 30)
    assert ask(cup, "WRONGCODE1").status_code in (401, 403)
    assert clock.events == ["lookup"]  # answered at once: the held ones are enough
