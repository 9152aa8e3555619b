"""The double-dummy analysis of a recorded board: after every card, how many tricks the
declarer's side can still take with best play by all (counting those it has), and which cards
cost a trick.

The one way in is ``analyse``: the broadcast asks it for a board's positions and shows what it
answers. Each count, at the start of a trick or in its middle (the cards already on the table
given to the solver as ``played``), is one search of the engine's solver (``engine.solver``) on
the game's ``TablePlay.solver_position``; for a game whose position is None in the middle of a
trick the remaining players' legal cards are tried, each side choosing its best. A card cost a
trick when the count after it is worse for its player's side than the count before it.

Counting takes time (a full deal of a game of 60 cards takes seconds), so it never holds up
a page: values are computed one position at a time by a worker thread of the web process
(``BROADCAST_ANALYSIS = "background"``, the default), kept in the cache, and the page shows
what is ready and says what is still being analysed. ``"inline"`` counts during the request
(for tests of fast games), ``"off"`` not at all. Without the solver the page says the analysis
is not available yet.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext, gettext_noop

from engine.games.base import TablePlay

logger = logging.getLogger(__name__)

NOT_AVAILABLE = gettext_noop("Analysis not available yet.")
CACHE_SECONDS = 7 * 24 * 3600
#: The solver's table in each web process (MiB).
SOLVER_MEMORY_MIB = 64

_executor: ThreadPoolExecutor | None = None
_pending: set[str] = set()
_lock = threading.Lock()
_local = threading.local()


def solver_available() -> bool:
    try:
        import engine.solver  # noqa: F401
    except ImportError:
        return False
    return True


def _mode() -> str:
    return getattr(settings, "BROADCAST_ANALYSIS", "background")


def _key(start: Callable[[], TablePlay], actions: list[str]) -> str:
    view = start().view()
    seed = repr((view["hands"], view["seats"], view["rules"], actions))
    return "broadcast:dd:" + hashlib.sha1(seed.encode()).hexdigest()


def _solver() -> Any:
    solver = getattr(_local, "solver", None)
    if solver is None:
        from engine.solver import Solver

        solver = _local.solver = Solver(SOLVER_MEMORY_MIB)
    return solver


def _replay(start: Callable[[], TablePlay], actions: list[str]) -> TablePlay:
    play = start()
    for action in actions:
        play.apply(action)
    return play


def value(start: Callable[[], TablePlay], actions: list[str]) -> int | None:
    """The tricks the declarer's side ends with, all playing their best from the position
    after ``actions``; None before the play."""
    key = _key(start, actions)
    found = cache.get(key)
    if found is not None:
        return int(found)
    play = _replay(start, actions)
    view = play.view()
    if play.over:
        result = int(view["side_won"]) if view["phase"] == "over" else None
    elif view["phase"] != "play":
        return None
    else:
        result = _value_in_play(start, actions, play, view)
    if result is not None:
        cache.set(key, result, CACHE_SECONDS)
    return result


def _value_in_play(
    start: Callable[[], TablePlay], actions: list[str], play: TablePlay, view: dict[str, Any]
) -> int | None:
    position = play.solver_position()
    if position is not None:
        from engine.solver import PlayRules

        rules = PlayRules(
            trump=position["trump"],
            must_trump=position["must_trump"],
            undertrump=position["undertrump"],
        )
        tricks = _solver().side_tricks(
            position["hands"],
            position["side"],
            leader=0,
            rules=rules,
            played=[tuple(card) for card in position.get("played", ())],
        )
        return int(position["taken"]) + int(tricks)
    values = []
    for option in play.options():
        found = value(start, [*actions, option["action"]])
        if found is None:  # the game offers no count of this position: none of the trick
            return None
        values.append(found)
    if not values:
        return None
    return max(values) if view["to_act"] in view["declarer_side"] else min(values)


def _card_steps(start: Callable[[], TablePlay], actions: list[str]) -> list[tuple[int, str]]:
    """``(step, seat)`` of every card among ``actions`` (step: actions up to and with it),
    and ``(first, "")`` for the position before the first card."""
    play = start()
    steps: list[tuple[int, str]] = []
    for index, action in enumerate(actions, 1):
        seat = play.view()["to_act"]
        play.apply(action)
        if action.startswith("card:"):
            if not steps:
                steps.append((index - 1, ""))
            steps.append((index, seat or ""))
    if not steps and play.view()["phase"] == "play":
        steps.append((len(actions), ""))
    return steps


def _compute(start: Callable[[], TablePlay], prefixes: list[list[str]], token: str) -> None:
    try:
        for prefix in prefixes:
            value(start, prefix)
    except Exception:  # a failed count leaves the position unanalysed, never a wrong number
        logger.exception("double-dummy analysis failed")
    finally:
        with _lock:
            _pending.discard(token)


def _submit(start: Callable[[], TablePlay], prefixes: list[list[str]]) -> None:
    global _executor
    token = _key(start, prefixes[-1]) if prefixes else ""
    with _lock:
        if token in _pending:
            return
        _pending.add(token)
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="double-dummy")
    _executor.submit(_compute, start, prefixes, token)


def analyse(start: Callable[[], TablePlay], actions: list[str]) -> dict[str, Any]:
    """The analysis of a board after ``actions`` (``start`` makes the board's play before
    any): ``available``, ``note``, ``counts`` (step → the declarer's side's tricks with best
    play from the position after that many actions), ``cost`` (steps whose card cost its side a
    trick) and ``pending`` (positions still being counted)."""
    mode = _mode()
    if mode == "off" or not solver_available():
        return {
            "available": False,
            "note": gettext(NOT_AVAILABLE),
            "counts": {},
            "cost": [],
            "pending": 0,
        }
    steps = _card_steps(start, actions)
    counts: dict[int, int] = {}
    missing: list[int] = []
    for step, _seat in steps:
        found = _count_known(start, actions[:step], mode)
        if found is None:
            missing.append(step)
        else:
            counts[step] = found
    if missing and mode == "background":
        # The newest position first: it is the one being watched.
        _submit(start, [actions[:step] for step in reversed(missing)])
    note = (
        "" if not missing else gettext("Analysing %(count)s position(s)…") % {"count": len(missing)}
    )
    return {
        "available": True,
        "note": note,
        "counts": {str(step): count for step, count in counts.items()},
        "cost": _costly_steps(start, actions, steps, counts),
        "pending": len(missing),
    }


def _count_known(start: Callable[[], TablePlay], prefix: list[str], mode: str) -> int | None:
    """A position's count: counted now in ``"inline"`` mode, else as the cache holds it
    (None: not counted yet)."""
    if mode == "inline":
        return value(start, prefix)
    cached = cache.get(_key(start, prefix))
    return int(cached) if cached is not None else None


def _costly_steps(
    start: Callable[[], TablePlay],
    actions: list[str],
    steps: list[tuple[int, str]],
    counts: dict[int, int],
) -> list[int]:
    """The steps whose card cost its side a trick, among those counted before and after."""
    cost = []
    for (before, _), (after, seat) in itertools.pairwise(steps):
        if before in counts and after in counts:
            declarer_side = seat in _replay(start, actions[:after]).view()["declarer_side"]
            if _worse(counts[before], counts[after], for_declarer=declarer_side):
                cost.append(after)
    return cost


def _worse(before: int, after: int, *, for_declarer: bool) -> bool:
    """Whether a count (the declarer's side's tricks) went the wrong way for a side."""
    return after < before if for_declarer else after > before
