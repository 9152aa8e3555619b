"""From a recorder's card to the broadcast page: how long the server takes.

Builds a Pymtheg tournament with a featured table in a scratch database (SQLite in memory by
default; PostgreSQL with ``DATABASE_URL``), signs a recorder in, and plays a whole board card
by card through the recorder's endpoint while a press account polls the broadcast's state as
the page does (``If-None-Match``). Prints, per card: the recorder's POST, the poll that brings
the card (200) and a poll with nothing new (304); and the card-to-screen latency the page sees
(POST + the page's poll interval + the poll), worst and on average. With ``--analysis`` it
also times the double-dummy count of a Pyramid board, position by position.

Run: .venv/bin/python bench/broadcast.py [--boards 3] [--analysis]
Target: every card on the broadcast page within 2 s.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
POLL_SECONDS = 1.0  # static/broadcast/broadcast.js
TARGET_SECONDS = 2.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def line(name: str, values: list[float]) -> str:
    ms = [value * 1000 for value in values]
    return (
        f"{name:<28} median {statistics.median(ms):7.1f} ms   p95 {percentile(ms, 0.95):7.1f} ms"
        f"   max {max(ms):7.1f} ms   ({len(ms)} actions)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=2)
    parser.add_argument("--seed", default="bench-broadcast")
    parser.add_argument("--analysis", action="store_true")
    args = parser.parse_args()

    import django
    from django.conf import settings

    settings.BROADCAST_ANALYSIS = "off"
    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        run(args)
    finally:
        connection.creation.destroy_test_db(connection.settings_dict["NAME"], verbosity=0)


def run(args: argparse.Namespace) -> None:
    from django.contrib.auth.models import Group, User
    from django.test import Client

    from scoring.visibility import PRESS_GROUP
    from tests.broadcast.helpers import act, choose, featured_event, recorder_client, state

    rng = random.Random(args.seed)
    print("seed", args.seed)
    tournament, featured = featured_event("pymtheg", "bench-broadcast")
    recorder = recorder_client(tournament, featured)
    journalist = User.objects.create_user("bench-press", password="x")
    journalist.groups.add(Group.objects.get_or_create(name=PRESS_GROUP)[0])
    press = Client()
    press.force_login(journalist)
    address = f"/tournaments/{tournament.slug}/broadcast/1/state/"
    posts: list[float] = []
    polls: list[float] = []
    unchanged: list[float] = []
    etag = press.get(address)["ETag"]
    boards = [
        (slot["match"], slot["board"])
        for slot in recorder.get(f"/tournaments/{tournament.slug}/record/state/").json()["slots"]
    ][: args.boards]
    for match, number in boards:
        board = state(recorder, tournament, match=match, board=number)
        taken = 0
        while not board["over"]:
            action = choose(board, rng, taken)
            start = time.perf_counter()
            answer = act(recorder, tournament, board, action)
            posts.append(time.perf_counter() - start)
            board = answer.json()["board"]
            taken += 1
            start = time.perf_counter()
            seen = press.get(address, HTTP_IF_NONE_MATCH=etag)
            polls.append(time.perf_counter() - start)
            assert seen.status_code == 200 and seen.json()["board"]["step"] == board["step"]
            etag = seen["ETag"]
            start = time.perf_counter()
            assert press.get(address, HTTP_IF_NONE_MATCH=etag).status_code == 304
            unchanged.append(time.perf_counter() - start)
    print(f"database: {tournament._state.db} ({os.environ.get('DATABASE_URL', 'SQLite')})")
    print(line("recorder's POST", posts))
    print(line("poll bringing the card (200)", polls))
    print(line("poll, nothing new (304)", unchanged))
    worst = max(p + POLL_SECONDS + q for p, q in zip(posts, polls, strict=True))
    mean = statistics.mean(p + POLL_SECONDS / 2 + q for p, q in zip(posts, polls, strict=True))
    verdict = "met" if worst <= TARGET_SECONDS else "NOT met"
    print(
        f"card to broadcast page: worst {worst:.2f} s, mean {mean:.2f} s "
        f"(poll every {POLL_SECONDS:.0f} s; target {TARGET_SECONDS:.0f} s: {verdict})"
    )
    if args.analysis:
        analysis_figures(rng)


def analysis_figures(rng: random.Random) -> None:
    from django.core.cache import cache

    from broadcast import analysis
    from engine.games import get_game

    if not analysis.solver_available():
        print("analysis: the solver is not built")
        return
    game = get_game("pyramid")
    deal = game.seeded_deal("bench", 1, 1, 4)
    base = game.table_play(deal, settings=game.settings({}), table=1, players=4, dealer="N")
    actions: list[str] = []
    times = []
    while not base.over:
        action = rng.choice(base.options())["action"]
        base.apply(action)
        actions.append(action)
        if action.startswith("card:"):
            cache.clear()
            start = time.perf_counter()
            analysis.value(
                lambda: game.table_play(
                    deal, settings=game.settings({}), table=1, players=4, dealer="N"
                ),
                actions,
            )
            times.append(time.perf_counter() - start)
    print(line("Pyramid count after a card", times))


if __name__ == "__main__":
    main()
