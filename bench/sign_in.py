"""How many passwords can be tried against an organiser's account (config/sign_in.py)? A
guesser posts wrong passwords to the sign-in page for SECONDS, as fast as the answers come,
from one address, then rotating over 64 addresses; it prints the attempts sent, the passwords
actually checked, and how long the organiser then waits before her right password signs in
from the venue's address. Figures only.
Run: .venv/bin/python bench/sign_in.py [SECONDS]
(A throw-away SQLite database and the in-process cache; no server needed.)
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup() -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    for name in ("CELERY_BROKER_URL", "REDIS_CACHE_URL"):
        os.environ.pop(name, None)
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/sign-in.sqlite3"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def main() -> int:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 30.0
    setup()
    from django.contrib.auth import get_user_model
    from django.test import Client

    from config import sign_in

    checked = [0]
    check = sign_in.ModelBackend.authenticate

    def counted(self, *args, **kwargs):
        checked[0] += 1
        return check(self, *args, **kwargs)

    sign_in.ModelBackend.authenticate = counted
    password = "correct-horse-battery"
    for round_number, (label, addresses) in enumerate(
        (
            ("1 address", ["203.0.113.7"]),
            ("64 rotating addresses", [f"127.0.{n}.1" for n in range(64)]),
        )
    ):
        username = f"olga{round_number}"
        get_user_model().objects.create_user(username, password=password)
        client = Client()
        sent, before = 0, checked[0]
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            client.post(
                "/accounts/login/",
                {"username": username, "password": f"guess-{sent}"},
                REMOTE_ADDR=addresses[sent % len(addresses)],
            )
            sent += 1
        guesses = checked[0] - before
        stopped = time.perf_counter()
        organiser = Client()
        while (
            organiser.post(
                "/accounts/login/",
                {"username": username, "password": password},
                REMOTE_ADDR="203.0.113.7",
            ).status_code
            != 302
        ):
            time.sleep(0.5)
        waited = time.perf_counter() - stopped
        print(
            f"{label}: {sent} attempts in {seconds:g} s, {guesses} passwords checked "
            f"({guesses / seconds * 60:.1f} a minute); the organiser signed in {waited:.1f} s "
            "after the guesser stopped"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
