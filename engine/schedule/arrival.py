"""Seating a late arrival in a drawn schedule (GAMES.md, "Real rooms"; docs/organiser.md).

An entrant registered after play has begun takes a phantom's place from the first round not
yet started: where a round leaves a table idle and entrants sitting out who could fill it
with the newcomer, the newcomer sits there with them. The rounds it is not seated in are byes
for it, as they are for the entrants who faced the phantom. The movement's rules hold: the
newcomer and its opponents visit no table twice, nobody plays twice in a round, and with
fixed sides the newcomer keeps one side, facing pairs of the other.

``seat_pair`` seats a pair in a schedule of pairs, ``seat_player`` a player in a movement of
individuals (the newcomer and ``size - 1`` players sitting out fill an idle table of that
size). Both seat the newcomer in as many rounds as can be, then with the fewest repeated
opponents, and raise ``ArrivalError`` saying what must change when no round has a place.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.messages import words
from engine.core.seats import SEAT_LETTERS

# Stands for the newcomer in a placement's seats (the schedule's entrants are numbers).
NEWCOMER = "new"
# Bounds the search over rounds (the options of a round are few: idle tables × entrants out).
SEARCH_NODES = 200_000


class ArrivalError(ValueError):
    """No round not yet started has a place for the newcomer; the message says why."""


@dataclass(frozen=True)
class Placement:
    """The newcomer's match in one round: the table, who sits where (seat letter or ``ns``/
    ``ew`` for pairs: entrant), and the newcomer's own seat or side."""

    round: int
    table: int
    seats: Mapping[str, Any]
    own: str
    # Displacement only: the entrant whose place the newcomer takes in a match already
    # drawn (it sits out that round instead); None for a place at a free table.
    replaces: Any = None

    @property
    def opponents(self) -> list[Any]:
        return [entrant for place, entrant in self.seats.items() if place != self.own]


@dataclass
class _Room:
    """What the schedule says of each round: who plays, where everyone has been."""

    busy_tables: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    playing: dict[int, set[Any]] = field(default_factory=lambda: defaultdict(set))
    visited: dict[Any, set[int]] = field(default_factory=lambda: defaultdict(set))
    sides: dict[Any, set[str]] = field(default_factory=lambda: defaultdict(set))
    byes: Counter = field(default_factory=Counter)

    def add(self, round_: int, table: int, seats: Mapping[str, Any]) -> None:
        self.busy_tables[round_].add(table)
        for place, entrant in seats.items():
            self.playing[round_].add(entrant)
            self.visited[entrant].add(table)
            self.sides[entrant].add(place)


def seat_pair(
    matches: Iterable[tuple[int, int, Any, Any]],
    entrants: Iterable[Any],
    tables: Iterable[int],
    rounds: Sequence[int],
    sides: str = "fixed",
) -> list[Placement]:
    """The newcomer's matches in ``rounds``: ``matches`` are the schedule's ``(round, table,
    ns, ew)``, ``entrants`` those who may face it (not withdrawn, not disqualified),
    ``tables`` those with boards."""
    room = _Room()
    for round_, table, ns, ew in matches:
        room.add(round_, table, {"ns": ns, "ew": ew})
    pool, hosts = list(entrants), sorted(set(tables))
    best = _best_of_sides(
        sides, lambda own: [_pair_options(room, pool, hosts, r, own) for r in rounds]
    )
    if not best:
        raise ArrivalError(_nothing_free(rounds, "pair"))
    return best


def _pair_options(
    room: _Room, pool: list[Any], hosts: list[int], round_: int, own: str | None
) -> list[Placement]:
    free = [t for t in hosts if t not in room.busy_tables[round_]]
    out = [e for e in pool if e not in room.playing[round_]]
    options = []
    for table in free:
        for other in out:
            if table not in room.visited[other]:
                options += _facing(room, round_, table, other, own)
    return options


def _facing(room: _Room, round_: int, table: int, other: Any, own: str | None) -> list[Placement]:
    """The newcomer against ``other`` at ``table``: on his own side when he keeps one (and
    ``other`` has only ever sat the other), else on either."""
    options = []
    for side in _sides_to_take(own):
        their = _OTHER_SIDE[side]
        if own and room.sides[other] - {their}:
            continue  # fixed sides: the opponent must sit the other side
        options.append(Placement(round_, table, {side: NEWCOMER, their: other}, side))
    return options


_OTHER_SIDE = {"ns": "ew", "ew": "ns"}


def _sides_to_take(own: str | None) -> tuple[str, ...]:
    """The sides the newcomer may take: his own when he keeps one, else either."""
    return (own,) if own else ("ns", "ew")


def seat_player(
    seatings: Iterable[tuple[int, int, Mapping[str, Any]]],
    entrants: Iterable[Any],
    tables: Mapping[int, int],
    rounds: Sequence[int],
) -> list[Placement]:
    """The newcomer's matches in ``rounds`` of a movement of individuals: ``seatings`` are
    ``(round, table, {seat: player})``, ``entrants`` the players who may join it, ``tables``
    each table's size (the tables with boards)."""
    pool = list(entrants)
    room = _movement_room(seatings, pool)
    options = [_player_options(room, pool, tables, r) for r in rounds]
    best = _search(options)
    if not best:
        raise ArrivalError(_nothing_free(rounds, "player"))
    return [_rotated(placement, index) for index, placement in enumerate(best)]


def _movement_room(
    seatings: Iterable[tuple[int, int, Mapping[str, Any]]], pool: list[Any]
) -> _Room:
    """The room of a movement's seatings, with the rounds each player of ``pool`` sits out."""
    room = _Room()
    rounds_drawn: set[int] = set()
    for round_, table, seats in seatings:
        room.add(round_, table, seats)
        rounds_drawn.add(round_)
    for player in pool:
        room.byes[player] = sum(player not in room.playing[r] for r in rounds_drawn)
    return room


def _player_options(
    room: _Room, pool: list[Any], tables: Mapping[int, int], round_: int
) -> list[Placement]:
    out = [p for p in pool if p not in room.playing[round_]]
    options = []
    for table, size in sorted(tables.items()):
        if table in room.busy_tables[round_]:
            continue
        free = _free_for(room, out, table)
        if len(free) < size - 1:
            continue
        group = [*free[: size - 1], NEWCOMER]
        seats = dict(zip(SEAT_LETTERS, group, strict=False))
        options.append(Placement(round_, table, seats, NEWCOMER))
    return options


def _free_for(room: _Room, out: list[Any], table: int) -> list[Any]:
    """The players of ``out`` who have not played ``table``. Those who have sat out most join
    first: the newcomer takes byes off them."""
    return sorted((p for p in out if table not in room.visited[p]), key=lambda p: -room.byes[p])


def _rotated(placement: Placement, index: int) -> Placement:
    """The newcomer moves round the table from match to match (its seats even out)."""
    players = list(placement.seats.values())
    size = len(players)
    mine = index % size
    players.remove(NEWCOMER)
    players.insert(mine, NEWCOMER)
    seats = dict(zip(SEAT_LETTERS, players, strict=False))
    return Placement(placement.round, placement.table, seats, SEAT_LETTERS[mine])


def _search(options: list[list[Placement]]) -> list[Placement]:
    """The most rounds seated, then the fewest repeated opponents: a depth-first search over
    the rounds (a round may stay a bye), the newcomer never at a table twice."""
    best: tuple[int, int, list[Placement]] = (0, 0, [])
    budget = [SEARCH_NODES]

    def walk(index: int, chosen: list[Placement], tables: set[int], met: Counter) -> None:
        nonlocal best
        displaced = {p.replaces for p in chosen}
        seated, repeats = len(chosen), sum(n - 1 for n in met.values() if n > 1)
        if (seated, -repeats) > (best[0], -best[1]):
            best = (seated, repeats, list(chosen))
        if index == len(options) or budget[0] <= 0:
            return
        reach = seated + sum(1 for o in options[index:] if o)
        if reach < best[0] or (reach == best[0] and repeats >= best[1]):
            return
        budget[0] -= 1
        for placement in options[index]:
            if placement.table in tables:
                continue
            if placement.replaces is not None and placement.replaces in displaced:
                continue  # a different entrant sits out each round: byes even out
            met.update(placement.opponents)
            walk(index + 1, [*chosen, placement], tables | {placement.table}, met)
            met.subtract(placement.opponents)
        walk(index + 1, chosen, tables, met)

    walk(0, [], set(), Counter())
    return best[2]


def _better(found: list[Placement], best: list[Placement]) -> bool:
    return len(found) > len(best)


def _best_of_sides(
    sides: str, options_at: Callable[[str | None], list[list[Placement]]]
) -> list[Placement]:
    """A pair's best placements (``_search``) over the sides it may keep: NS or EW under
    fixed sides (the first found of the most rounds), either under balanced ones."""
    best: list[Placement] = []
    for own in ("ns", "ew") if sides == "fixed" else (None,):
        found = _search(options_at(own))
        if _better(found, best):
            best = found
    return best


def _nothing_free(rounds: Sequence[int], noun: str) -> str:
    """Why no phantom's place is left, and what can be done: two sentences, the first (its
    ``reason``) quoted alone by the room's offer to take a place in a match."""
    if not rounds:
        return _ALL_STARTED
    span = _span(rounds)
    if noun == "pair":
        reason = words(
            "no phantom's place in %(span)s: no round has a table free and a pair sitting out "
            "who has not played that table",
            span=span,
        )
        advice = words(
            "Redraw the rounds not yet started (%(span)s) with the new pair, or seat the pair "
            "in the next event.",
            span=span,
        )
    else:
        reason = words(
            "no phantom's place in %(span)s: no round has a table free and enough players "
            "sitting out to fill it who has not played that table",
            span=span,
        )
        advice = words(
            "Redraw the rounds not yet started (%(span)s) with the new player, or seat the "
            "player in the next event.",
            span=span,
        )
    return words("%(reason)s. %(advice)s", reason=reason, advice=advice)


def _span(rounds: Sequence[int]) -> str:
    """ "round 3", "rounds 3-5": the rounds not yet started."""
    if len(rounds) == 1:
        return words("round %(round)s", round=rounds[0])
    return words("rounds %(first)s-%(last)s", first=rounds[0], last=rounds[-1])


# --- displacement: no phantom's place -----------------------------------------------------------


def displace_pair(
    matches: Iterable[tuple[int, int, Any, Any]],
    entrants: Iterable[Any],
    rounds: Sequence[int],
    sides: str = "fixed",
) -> list[Placement]:
    """Where no table is free: in each round of ``rounds`` the newcomer takes the place of
    one pair in a match already drawn, and that pair sits out the round instead (a bye).
    A different pair sits out each round, those with the fewest byes first; the newcomer
    visits no table twice, keeps one side with fixed sides, and meets as few pairs twice
    as can be. ``entrants`` are the pairs that may be met or displaced."""
    room = _Room()
    rows = list(matches)
    for round_, table, ns, ew in rows:
        room.add(round_, table, {"ns": ns, "ew": ew})
    pool = set(entrants)
    byes = _byes(((r, {ns, ew}) for r, _t, ns, ew in rows), pool)
    best = _best_of_sides(
        sides,
        lambda own: [
            _fewest_byes(_displace_pair_options(rows, pool, r, own), byes) for r in rounds
        ],
    )
    if not best:
        raise ArrivalError(_nothing_to_displace(rounds, "pair"))
    return best


def _displace_pair_options(
    rows: list[tuple[int, int, Any, Any]], pool: set[Any], round_: int, own: str | None
) -> list[Placement]:
    options = []
    for r, table, ns, ew in rows:
        if r != round_ or ns not in pool or ew not in pool:
            continue
        seated = {"ns": ns, "ew": ew}
        for side in _sides_to_take(own):
            their = _OTHER_SIDE[side]
            options.append(
                Placement(
                    round_,
                    table,
                    {side: NEWCOMER, their: seated[their]},
                    side,
                    replaces=seated[side],
                )
            )
    return options


def displace_player(
    seatings: Iterable[tuple[int, int, Mapping[str, Any]]],
    entrants: Iterable[Any],
    rounds: Sequence[int],
) -> list[Placement]:
    """Where no table is free in a movement of individuals: in each round the newcomer takes
    one player's seat at a table already drawn, and that player sits out the round instead.
    A different player sits out each round; the newcomer visits no table twice."""
    rows = list(seatings)
    pool = set(entrants)
    byes = _byes(((r, set(seats.values())) for r, _t, seats in rows), pool)
    options = [_fewest_byes(_displace_player_options(rows, pool, r), byes) for r in rounds]
    best = _search(options)
    if not best:
        raise ArrivalError(_nothing_to_displace(rounds, "player"))
    return best


def _displace_player_options(
    rows: list[tuple[int, int, Mapping[str, Any]]], pool: set[Any], round_: int
) -> list[Placement]:
    """Every seat of round ``round_`` the newcomer may take (every player at the table still
    in play), its player sitting out."""
    return [
        Placement(round_, table, {**seats, seat: NEWCOMER}, seat, replaces=player)
        for r, table, seats in rows
        if r == round_ and set(seats.values()) <= pool
        for seat, player in seats.items()
    ]


def _byes(rounds: Iterable[tuple[int, set[Any]]], pool: set[Any]) -> Counter:
    """How many drawn rounds each entrant of ``pool`` sits out."""
    playing: dict[int, set[Any]] = defaultdict(set)
    for round_, entrants in rounds:
        playing[round_] |= entrants
    return Counter({e: sum(e not in seated for seated in playing.values()) for e in pool})


def _fewest_byes(options: list[Placement], byes: Counter) -> list[Placement]:
    """The search takes the first of equal choices: those who have sat out least go first."""
    return sorted(options, key=lambda p: (byes[p.replaces], p.table))


def _nothing_to_displace(rounds: Sequence[int], noun: str) -> str:
    if not rounds:
        return _ALL_STARTED
    if noun == "pair":
        return words(
            "no match left to join: the rounds not yet started have no match of pairs still "
            "in play. Seat the pair in the next event, or name it a substitute for an "
            "absent pair's player."
        )
    return words(
        "no match left to join: the rounds not yet started have no match of players still "
        "in play. Seat the player in the next event, or name it a substitute for an "
        "absent player's player."
    )


_ALL_STARTED = words("every round has started: there is no round left to seat a late arrival in")
