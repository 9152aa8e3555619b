"""How fast can access codes be guessed (scoring/api/access.py)? Guessers send wrong codes to
the API's /me/ for SECONDS with the server's waits on (CODE_GUESS_SECONDS = 1): one
connection from one address, then 8 connections from 8 addresses at once (the tournament's
ceiling); meanwhile a table signs in with its right code from a clean address, and a
signed-in table calls. Prints the codes sent, the codes checked (guesses) a second, and how
long the tables waited. Figures only.
Run: .venv/bin/python bench/code_guessing.py [SECONDS]
(A throw-away SQLite database and the in-process cache; no server needed.)
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup() -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    for name in ("CELERY_BROKER_URL", "REDIS_CACHE_URL"):
        os.environ.pop(name, None)
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/guessing.sqlite3"
    os.environ["CODE_GUESS_SECONDS"] = "1.0"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def main() -> int:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 12.0
    setup()
    from django.db import connection
    from rest_framework.test import APIClient

    from scoring.api import access
    from tests.scoring.conftest import build_cup

    cup = build_cup(slug="guessing")
    lookups = [0]
    lookup = access.entrant_by_code

    def counted(slug, code):
        lookups[0] += 1
        return lookup(slug, code)

    access.entrant_by_code = counted
    me = f"/api/v1/tournaments/{cup.tournament.slug}/me/"
    stop = threading.Event()

    def guesser(address: str, counts: list[int], statuses: dict) -> None:
        client = APIClient()
        n = 0
        while not stop.is_set():
            client.credentials(HTTP_X_TEAM_CODE=f"G{address[-3:]}{n:07d}")
            status = client.get(me, REMOTE_ADDR=address).status_code
            statuses[status] = statuses.get(status, 0) + 1
            counts[0] += 1
            n += 1
        connection.close()

    def table(code: str, address: str) -> float:
        client = APIClient()
        client.credentials(HTTP_X_TEAM_CODE=code)
        started = time.perf_counter()
        status = client.get(me, REMOTE_ADDR=address).status_code
        while status == 429:  # the phone tries again as told
            time.sleep(1)
            status = client.get(me, REMOTE_ADDR=address).status_code
        return time.perf_counter() - started

    known = cup.entrants[0].access_code
    table(known, "203.0.113.7")  # signed in before the guessing starts

    for label, addresses in (
        ("1 connection, 1 address", ["203.0.113.7"]),
        ("8 connections, 8 addresses", [f"198.51.100.{n}" for n in range(8)]),
    ):
        stop.clear()
        counts: list[list[int]] = [[0] for _ in addresses]
        statuses: dict = {}
        threads = [
            threading.Thread(target=guesser, args=(address, count, statuses))
            for address, count in zip(addresses, counts, strict=True)
        ]
        started = time.perf_counter()
        looked_up = lookups[0]
        for thread in threads:
            thread.start()
        time.sleep(seconds / 2)
        new_table = table(cup.entrants[len(addresses) % 3 + 1].access_code, "192.0.2.77")
        known_table = table(known, "203.0.113.7")
        time.sleep(seconds / 2)
        stop.set()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
        sent = sum(count[0] for count in counts)
        guesses = lookups[0] - looked_up - 2  # codes checked, less the two tables'
        print(
            f"{label}: {sent} wrong codes sent, {guesses} checked in {elapsed:.1f} s = "
            f"{guesses / elapsed:.2f} guesses/s (answers {dict(sorted(statuses.items()))}); "
            f"a table signing in meanwhile waited {new_table:.2f} s, a signed-in table "
            f"{known_table * 1000:.0f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
