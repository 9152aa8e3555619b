"""Proposals before a draw: the ways to seat a field (GAMES.md, "Real rooms"; docs/schedule.md).

``propose(game, entrants, tables=None)`` lists, best first, the ways to seat ``entrants``
entrants of a game (pairs or players, as the game seats them) at no more than ``tables``
tables: how many tables of which sizes, the rounds, how many entrants sit out each round and
how often each one does, the idle tables, the most times two entrants meet and how many
couples meet that often, and for tables of several sizes how many rounds a player spends at
each size. Each proposal is drawn (``draw``) to know its figures, so every figure is the
drawn movement's own, and ``check_proposal`` recounts them from the movement.

Which ways are offered:

- pairs (one table seats two pairs): ⌈T/2⌉ tables, every pair at every table once, a phantom
  when T is odd (its table is idle, the pair facing it has a bye); for an odd T also (T-1)/2
  tables, every table busy every round and one pair out a round (sides balanced: a fixed-side
  schedule would leave three pairs out in most rounds); with fewer tables in the room, the
  room's tables with byes;
- players, for each table size the game allows: P // n tables of n, the P mod n left over
  sitting out in turn; and, under duplicate ranking, tables of several sizes that seat
  everyone (the most even split of P over K tables, for each K that gives one);
- no proposal leaves a table idle or an entrant out more often than another proposal of the
  same number of rounds: such a proposal is dropped.

Best first: fewest entrants out a round, fewest idle tables, tables nearest the game's largest,
fewest meetings of the worst couple and fewest couples meeting that often, more rounds.
A field nobody can seat gets ``problem``: a sentence saying why and what would work.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.games import PLAYERS, get_game
from engine.schedule.check import check_schedule
from engine.schedule.generate import (
    MAX_TEAMS,
    ScheduleError,
    balance_sides,
    generate_schedule,
    max_meetings,
)
from engine.schedule.individual import MAX_PLAYERS, generate_individual_schedule
from engine.schedule.individual_check import check_individual_schedule
from engine.schedule.individual_construct import construct
from engine.schedule.mixed import default_sizes, generate_mixed_schedule, most_rounds

# The most proposals offered for a field (after the dominated ones are dropped).
SHOWN = 5
# The search's work for a proposal's movement (engine.schedule.individual_search; its own
# default is 2,000,000): a page lists several proposals at once (bench/movement.py).
SEARCH_WORK = 300_000
# One pair out a round at K tables without a construction: the search's reach.
ONE_OUT_SEARCHED = 74
MAX_ROUNDS = 12
# Sizes where nobody visiting a table twice forces players to meet more often than counting
# shows: 3 tables for 3 rounds (docs/movement.md, exhaustive search): (players, per table).
_FORCED_THREE = {(9, 3), (10, 3), (12, 4), (13, 4), (14, 4)}
WORDS = {1: "once", 2: "twice"}
NUMBERS = {
    1: "one",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
}


def propose(
    game: str,
    entrants: int,
    tables: int | None = None,
    ranking: str = "duplicate",
    sides: str = "fixed",
    one_size: bool = False,
) -> dict[str, Any]:
    """The proposals for ``entrants`` entrants of ``game`` (JSON object, docs/schedule.md);
    pairs' schedules keep ``sides`` where they can; ``one_size`` leaves out tables of several
    sizes (and so keeps the proposals of one size that those would beat)."""
    rules = get_game(game)
    of_players = rules.entrants == PLAYERS
    out: dict[str, Any] = {
        "game": game,
        "entrants": entrants,
        "entrant": "player" if of_players else "pair",
        "tables_available": tables,
        "ranking": ranking,
        "proposals": [],
        "problem": None,
    }
    problem = _field_problem(rules, entrants, tables, ranking, sides)
    if problem:
        out["problem"] = problem
        return out
    if of_players:
        candidates = _player_candidates(
            rules.table_sizes, entrants, tables, "totals" if one_size else ranking
        )
    else:
        candidates = _pair_candidates(entrants, tables, sides)
    proposals = _drawn_proposals(game, entrants, candidates)
    for proposal in proposals:
        if tables is not None:
            proposal["unused_tables"] = tables - proposal["tables"]
        proposal["sentence"] = sentence(proposal, of_players)
    out["proposals"] = proposals
    return out


def _drawn_proposals(game: str, entrants: int, candidates: list[str]) -> list[dict[str, Any]]:
    """The candidates drawn and counted, the uneven and the dominated ones dropped, best
    first."""
    proposals = [_figures(game, entrants, key, draw(game, entrants, key)) for key in candidates]
    # Every entrant sits out as evenly as possible: at most one bye more than another.
    proposals = [p for p in proposals if p["byes"][1] - p["byes"][0] <= 1]
    return sort_proposals(_undominated(proposals), game)


# --- the field -----------------------------------------------------------------------------


def _field_problem(rules: Any, entrants: Any, tables: Any, ranking: str, sides: str) -> str | None:
    problem = _request_problem(entrants, tables, ranking, sides)
    if problem:
        return problem
    if rules.entrants == PLAYERS:
        return _players_problem(rules, entrants, tables)
    return _pairs_problem(rules, entrants)


def _request_problem(entrants: Any, tables: Any, ranking: str, sides: str) -> str | None:
    """What is wrong with the numbers and words asked for, whatever the game."""
    for name, value in (("entrants", entrants), ("tables", tables)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            return f"{name} must be a whole number, not {value!r}"
    if tables is not None and tables < 1:
        return "a room needs at least one table"
    if ranking not in ("duplicate", "totals"):
        return f"ranking must be duplicate or totals, not {ranking!r}"
    if sides not in ("fixed", "balanced"):
        return f"sides must be fixed or balanced, not {sides!r}"
    return None


def _pairs_problem(rules: Any, entrants: int) -> str | None:
    """Too few pairs for a table, or more than a schedule holds."""
    if entrants < 2:
        return (
            f"{_count(entrants, 'pair')} cannot play: {rules.title} needs two pairs at a "
            "table; register at least 2 pairs"
        )
    if entrants > MAX_TEAMS:
        return f"{entrants} pairs are more than the {MAX_TEAMS} a schedule can hold"
    return None


def _players_problem(rules: Any, entrants: int, tables: int | None) -> str | None:
    """Too few players for a table, more than a movement holds, or more than the room seats
    with one fewer than a table sitting out."""
    least, most = min(rules.table_sizes), max(rules.table_sizes)
    if entrants < least:
        return (
            f"{_count(entrants, 'player')} cannot play: {rules.title} is played by "
            f"{_sizes_words(rules.table_sizes)} players at a table; register at least {least} "
            "players"
        )
    if entrants > MAX_PLAYERS:
        return f"{entrants} players are more than the {MAX_PLAYERS} a movement can hold"
    if tables is not None and entrants > tables * most + (most - 1):
        need = entrants // most
        return (
            f"{entrants} players need at least {need} tables of {most} (the rest sitting out "
            f"in turn), but the room has {_count(tables, 'table')}: add "
            f"{_count(need - tables, 'table')}, or split the field into two sections"
        )
    return None


def _pair_candidates(teams: int, room: int | None, sides: str) -> list[str]:
    """Keys: "mitchell:K:sides" (every pair at every table, a phantom for an odd number),
    "one-out:K" (an odd number: one pair out a round, every table busy, sides balanced),
    "room:K:sides" (the room's K tables, too few for everyone, with byes)."""
    keys = []
    limit = math.inf if room is None else room
    full = (teams + 1) // 2
    if full <= limit:
        keys.append(f"mitchell:{full}:{sides}")
    if teams % 2 and teams >= 3 and teams // 2 <= limit and one_out_drawable(teams // 2):
        keys.append(f"one-out:{teams // 2}")
    if limit < teams // 2:
        keys.append(f"room:{room}:{sides}")
    return keys


def _player_candidates(
    table_sizes: tuple[int, ...], players: int, room: int | None, ranking: str
) -> list[str]:
    """Keys "players:4x3" (3 tables of 4, the rest sitting out) and "players:4-3-3" (tables of
    several sizes), the dominated ones dropped and the best SHOWN kept before drawing."""
    options = _tables_of_one_size(table_sizes, players, room)
    if len(table_sizes) > 1 and ranking == "duplicate":
        options += _tables_of_several_sizes(table_sizes, players, room)
    kept = sorted(_fewest_out(options), key=lambda o: (o[2], o[3], -o[1]))
    return [option[0] for option in kept[:SHOWN]]


def _fewest_out(options: list[_Option]) -> list[_Option]:
    """The options that no other of the same rounds beats on players out a round."""
    return [
        option
        for option in options
        if not any(o[1] == option[1] and o[2] < option[2] for o in options)
    ]


#: A way to seat players before it is drawn: (key, rounds, players out a round, seats short of
#: the largest table).
_Option = tuple[str, int, int, int]


def _tables_of_one_size(
    table_sizes: tuple[int, ...], players: int, room: int | None
) -> list[_Option]:
    """For each size, as many full tables as the players fill (and the room holds), the rest
    sitting out in turn."""
    options = []
    largest = max(table_sizes)
    for size in sorted(table_sizes, reverse=True):
        count = players // size
        if count >= 1 and (room is None or count <= room):
            rounds = min(count, MAX_ROUNDS)
            short = (largest - size) * count
            options.append((f"players:{size}x{count}", rounds, players - size * count, short))
    return options


def _tables_of_several_sizes(
    table_sizes: tuple[int, ...], players: int, room: int | None
) -> list[_Option]:
    """For each number of tables, tables of mixed sizes that seat every player at once."""
    options = []
    largest = max(table_sizes)
    low = -(-players // largest)
    high = players // min(table_sizes)
    for count in range(low, min(high, room if room is not None else high) + 1):
        sizes = default_sizes(players, count)
        if len(set(sizes)) == 1 or any(s not in table_sizes for s in sizes):
            continue
        rounds = min(most_rounds(sizes), MAX_ROUNDS)
        short = sum(largest - s for s in sizes)
        options.append(("players:" + "-".join(map(str, sizes)), rounds, 0, short))
    return options


# --- drawing -------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1024)
def _drawn(entrants: int, key: str) -> dict[str, Any]:
    """The drawing of a valid key, kept: the page that lists the proposals and the draw that
    follows (and games sharing table sizes) draw each once."""
    kind, shape, *rest = key.split(":")
    if kind == "players":
        if "x" in shape:
            size = int(shape.split("x")[0])
            return generate_individual_schedule(entrants, size, work=SEARCH_WORK)
        return generate_mixed_schedule(entrants, [int(x) for x in shape.split("-")])
    if kind == "one-out":
        return _one_pair_out(entrants, int(shape))
    return generate_schedule(entrants, int(shape), sides=rest[0])


def draw(game: str, entrants: int, key: str) -> dict[str, Any]:
    """The schedule (pairs) or movement (players) of the proposal ``key``; ScheduleError for a
    key that is not one of the field's proposals."""
    valid = _valid_key(game, entrants, key)
    if not valid:
        raise ScheduleError(f"{key!r} is not a way to seat {entrants} entrants of {game}")
    return _copy(_drawn(entrants, key))


def _valid_key(game: str, entrants: int, key: Any) -> bool:
    if not isinstance(key, str) or key.count(":") not in (1, 2):
        return False
    rules = get_game(game)
    kind, shape, *rest = key.split(":")
    try:
        if rules.entrants == PLAYERS:
            return (
                kind == "players"
                and not rest
                and _valid_players_shape(rules.table_sizes, entrants, shape)
            )
        return 2 <= entrants <= MAX_TEAMS and _valid_pairs_key(kind, int(shape), rest, entrants)
    except ValueError:
        return False


def _valid_players_shape(table_sizes: Iterable[int], entrants: int, shape: str) -> bool:
    """``4x3`` (three tables of 4) or ``4-3-3`` (tables of several sizes, largest first)."""
    allowed = set(table_sizes)
    if "x" in shape:
        size, count = (int(x) for x in shape.split("x"))
        return size in allowed and count == entrants // size >= 1
    sizes = [int(x) for x in shape.split("-")]
    return (
        set(sizes) <= allowed
        and sum(sizes) == entrants
        and sizes == sorted(sizes, reverse=True)
        and len(set(sizes)) > 1
    )


def _valid_pairs_key(kind: str, tables: int, rest: list[str], entrants: int) -> bool:
    if kind == "one-out" and not rest:
        return entrants % 2 == 1 and tables == entrants // 2 >= 1 and one_out_drawable(tables)
    if kind not in ("mitchell", "room") or rest not in (["fixed"], ["balanced"]):
        return False
    if kind == "room":
        return 1 <= tables < entrants // 2
    return tables == (entrants + 1) // 2


def _copy(data: dict[str, Any]) -> dict[str, Any]:
    """A copy deep enough that callers may change the lists without touching the cache."""
    return {
        key: [dict(item) if isinstance(item, dict) else item for item in value]
        if isinstance(value, list)
        else value
        for key, value in data.items()
    }


def one_out_drawable(tables: int) -> bool:
    """Whether 2K + 1 pairs at K tables, one out a round, can be drawn: a construction (for
    most K) or the search, which finds one up to K = ONE_OUT_SEARCHED (bench/movement.py)."""
    return tables <= ONE_OUT_SEARCHED or construct(2 * tables + 1, 2, tables) is not None


def _one_pair_out(teams: int, tables: int) -> dict[str, Any]:
    """An odd number of pairs at (T-1)/2 tables: a movement of "players" two to a table, so
    every table is busy every round and exactly one pair sits out, nobody twice; each pair
    then sits NS at half its tables (balanced sides)."""
    movement = generate_individual_schedule(teams, 2, tables, work=SEARCH_WORK)
    rows = [
        (s["round"], s["table"], s["seats"]["N"], s["seats"]["E"]) for s in movement["seatings"]
    ]
    first = np.array([row[2] for row in rows], dtype=np.int64)
    second = np.array([row[3] for row in rows], dtype=np.int64)
    ns, ew = balance_sides(first, second)
    matches = [
        {"round": r, "table": t, "ns": a, "ew": b}
        for (r, t, _, _), a, b in zip(rows, ns.tolist(), ew.tolist(), strict=True)
    ]
    return {
        "teams": teams,
        "tables": tables,
        "rounds": tables,
        "sides": "balanced",
        "matches": matches,
        "byes": [{"round": b["round"], "team": b["player"]} for b in movement["byes"]],
        "max_meetings": max_meetings(ns, ew),
    }


# --- figures -------------------------------------------------------------------------------


def _figures(game: str, entrants: int, key: str, drawn: dict[str, Any]) -> dict[str, Any]:
    """The proposal's claims, counted from its drawn schedule or movement."""
    counted = count_figures(drawn, entrants)
    proposal = {"key": key, **counted}
    if "seatings" not in drawn:
        proposal["sides"] = drawn["sides"]
    proposal["least_possible"] = least_possible(drawn, entrants, counted["max_meetings"])
    return proposal


def count_figures(drawn: dict[str, Any], entrants: int) -> dict[str, Any]:
    """Tables, sizes, rounds, who sits out, idle tables and meetings of a schedule or movement,
    counted from its matches or seatings (nothing taken from its own figures)."""
    rounds, tables = drawn["rounds"], drawn["tables"]
    sizes, groups = _sizes_and_groups(drawn)
    tally = _Tally.of(groups, sizes, rounds)
    everyone = range(1, entrants + 1)
    most = max(tally.meetings.values(), default=0)
    figures: dict[str, Any] = {
        "tables": tables,
        "sizes": list(sizes),
        "rounds": rounds,
        **_sitting_out(tally, entrants, rounds),
        "idle_tables": sum(tables - tally.busy[r] for r in range(1, rounds + 1)),
        "max_meetings": most,
        "pairs_at_most": sum(1 for count in tally.meetings.values() if count == most),
    }
    if "seatings" in drawn:
        figures["rounds_at_size"] = _rounds_at_size(tally, everyone)
    return figures


def _sitting_out(tally: _Tally, entrants: int, rounds: int) -> dict[str, list[int]]:
    """The fewest and most entrants out a round, and the fewest and most rounds an entrant
    sits out."""
    everyone = range(1, entrants + 1)
    out_counts = [entrants - len(tally.playing[r]) for r in range(1, rounds + 1)]
    byes = Counter(e for r in range(1, rounds + 1) for e in everyone if e not in tally.playing[r])
    return {
        "sitting_out": [min(out_counts), max(out_counts)],
        "byes": [min(byes.get(e, 0) for e in everyone), max(byes.values(), default=0)],
    }


def _rounds_at_size(tally: _Tally, everyone: range) -> dict[str, list[int]]:
    """The fewest and most rounds an entrant plays at each table size, largest first."""
    return {
        str(size): [min(counts.get(p, 0) for p in everyone), max(counts.values())]
        for size, counts in sorted(tally.at_size.items(), reverse=True)
    }


Group = tuple[int, int, tuple[int, ...]]


def _sizes_and_groups(drawn: dict[str, Any]) -> tuple[list[int], list[Group]]:
    """Each table's size, and ``(round, table, entrants)`` of every match or seating."""
    if "seatings" in drawn:
        sizes = drawn.get("sizes") or [drawn["per_table"]] * drawn["tables"]
        groups = [(s["round"], s["table"], tuple(s["seats"].values())) for s in drawn["seatings"]]
        return list(sizes), groups
    groups = [(m["round"], m["table"], (m["ns"], m["ew"])) for m in drawn["matches"]]
    return [4] * drawn["tables"], groups


@dataclass
class _Tally:
    """Who plays each round, busy tables a round, meetings of each couple, and rounds each
    entrant plays at each table size."""

    playing: dict[int, set[int]]
    busy: Counter[int]
    meetings: Counter[tuple[int, int]]
    at_size: dict[int, Counter[int]]

    @classmethod
    def of(cls, groups: list[Group], sizes: list[int], rounds: int) -> _Tally:
        """The tally of these tables (round, table number, members), each count made by
        Counter in one pass: proposals tally every movement they offer."""
        playing: dict[int, set[int]] = {r: set() for r in range(1, rounds + 1)}
        seated: dict[int, list[int]] = {size: [] for size in sizes}
        for round_, table, members in groups:
            playing[round_].update(members)
            seated[sizes[table - 1]] += members
        pairs = (itertools.combinations(sorted(members), 2) for _r, _t, members in groups)
        return cls(
            playing=playing,
            busy=Counter(round_ for round_, _table, _members in groups),
            meetings=Counter(itertools.chain.from_iterable(pairs)),
            at_size={size: Counter(members) for size, members in seated.items()},
        )


def least_possible(drawn: dict[str, Any], entrants: int, most: int) -> bool:
    """Whether no movement of the same tables and rounds can keep the worst couple's meetings
    below ``most`` (only what is proven is claimed: counting, and the known forced sizes)."""
    if most <= 1:
        return True
    if "seatings" not in drawn:
        # Fixed sides at 2 or 6 tables: no orthogonal pair of Latin squares; 2 is the least.
        tables = drawn["tables"]
        return (
            drawn["sides"] == "fixed" and tables in (2, 6) and entrants == 2 * tables and most == 2
        )
    return most <= _least_meetings(drawn, entrants)


def _least_meetings(drawn: dict[str, Any], entrants: int) -> int:
    """The meetings of the worst couple that no movement of these tables and rounds can go
    below: by counting, and for the known forced sizes."""
    rounds, tables = drawn["rounds"], drawn["tables"]
    sizes = drawn.get("sizes") or [drawn["per_table"]] * tables
    smallest = min(sizes)
    bound = math.ceil(rounds * (smallest - 1) / max(entrants - 1, 1))
    if len(set(sizes)) == 1:
        bound = max(bound, _forced_at_one_size(tables, rounds, entrants, sizes[0]))
    return bound


def _forced_at_one_size(tables: int, rounds: int, entrants: int, size: int) -> int:
    """The meetings the known small movements force when every table has ``size`` seats
    (0: none known)."""
    spare = entrants - size * tables
    if tables == rounds == 3 and (entrants, size) in _FORCED_THREE:
        return 3
    if tables == rounds == 2 and size - spare >= 2:
        return 2  # round 2 seats again most of a round-1 table
    return 0


def _undominated(proposals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Without the proposals that another of the same rounds beats on idle tables and on
    entrants out (and equals on the rest)."""

    def worse(p: dict, q: dict) -> bool:
        if p["rounds"] != q["rounds"]:
            return False
        mine = (p["idle_tables"], p["byes"][1], sum(p["sitting_out"]))
        theirs = (q["idle_tables"], q["byes"][1], sum(q["sitting_out"]))
        return all(t <= m for t, m in zip(theirs, mine, strict=True)) and theirs != mine

    return [p for p in proposals if not any(worse(p, q) for q in proposals)]


def sort_proposals(proposals: list[dict[str, Any]], game: str) -> list[dict[str, Any]]:
    """Best first (the module's docstring says how)."""
    largest = max(get_game(game).table_sizes)
    return sorted(proposals, key=lambda p: _order(p, largest))


def _order(proposal: dict[str, Any], largest: int) -> tuple:
    return (
        proposal["sitting_out"][1],
        proposal["idle_tables"] / proposal["rounds"],
        sum(largest - s for s in proposal["sizes"]),
        proposal["max_meetings"],
        proposal["pairs_at_most"],
        -proposal["rounds"],
        proposal["key"],
    )


def check_proposal(proposal: dict[str, Any], drawn: dict[str, Any], entrants: int) -> list[str]:
    """Every rule the drawn schedule or movement breaks, and every claim of the proposal that
    it does not bear out ([] when the proposal tells the truth)."""
    problems = check_individual_schedule(drawn) if "seatings" in drawn else check_schedule(drawn)
    counted = count_figures(drawn, entrants)
    for name, value in counted.items():
        if proposal.get(name) != value:
            problems.append(f"the proposal says {name} {proposal.get(name)!r}, the draw {value!r}")
    if proposal.get("least_possible") and not least_possible(
        drawn, entrants, counted["max_meetings"]
    ):
        problems.append("the proposal calls its meetings the least possible, which is not shown")
    return problems


# --- words ---------------------------------------------------------------------------------


def sentence(proposal: dict[str, Any], of_players: bool) -> str:
    """One sentence an organiser understands (the pages word it in their own templates)."""
    noun, nouns = ("player", "players") if of_players else ("pair", "pairs")
    parts = [f"{_tables_words(proposal, of_players)}, {_count(proposal['rounds'], 'round')}"]
    parts.append(_sitting_out_words(proposal, noun, nouns))
    if proposal["idle_tables"]:
        parts.append(f"{_count(proposal['idle_tables'], 'table-round')} without a match")
    if proposal.get("unused_tables"):
        parts.append(_unused_words(proposal["unused_tables"]))
    if "rounds_at_size" in proposal and len(proposal["rounds_at_size"]) > 1:
        parts.append(_rounds_at_size_words(proposal["rounds_at_size"]))
    parts.append(meeting_words(proposal, nouns))
    if not of_players and proposal.get("sides") == "balanced":
        parts.append("each pair sits NS at half its tables")
    text = "; ".join(parts) + "."
    return text[0].upper() + text[1:]


def _unused_words(unused: int) -> str:
    if unused == 1:
        return f"{_count(unused, 'table')} of the room stays unused"
    return f"{_count(unused, 'table')} of the room stay unused"


def _sitting_out_words(proposal: dict[str, Any], noun: str, nouns: str) -> str:
    """How many sit out a round, and how often one entrant does at most."""
    low, high = proposal["sitting_out"]
    if high == 0:
        return f"every {noun} plays every round"
    per = _number(high) if low == high else f"{_number(low)} to {_number(high)}"
    outs = f"{per} {noun if high == 1 else nouns} {'sits' if high == 1 else 'sit'} out each round"
    most = proposal["byes"][1]
    return outs + f" (nobody more than {WORDS.get(most, f'{most} times')})"


def _rounds_at_size_words(rounds_at_size: dict[str, Any]) -> str:
    spans = [
        f"{_span(low, high)} at tables of {size}" for size, (low, high) in rounds_at_size.items()
    ]
    return "each player spends " + " and ".join(spans)


def meeting_words(proposal: dict[str, Any], nouns: str) -> str:
    most, count = proposal["max_meetings"], proposal["pairs_at_most"]
    if most <= 1:
        return f"no two {nouns} meet twice"
    couples_meet = _COUPLES_MEET[nouns == "players", count == 1]
    times = WORDS.get(most, f"{most} times")
    if most == proposal["rounds"]:
        times += ", in every round"
    least = ", the least possible" if proposal.get("least_possible") else ""
    return f"{_number(count)} {couples_meet} {times}{least}"


# (of players, one couple): the couples that meet most often, and their verb.
_COUPLES_MEET = {
    (True, True): "pair of players meets",
    (True, False): "pairs of players meet",
    (False, True): "couple of pairs meets",
    (False, False): "couples of pairs meet",
}


def _tables_words(proposal: dict[str, Any], of_players: bool) -> str:
    sizes = proposal["sizes"]
    if not of_players:
        return _count(len(sizes), "table")
    if len(set(sizes)) == 1:
        return f"{_count(len(sizes), 'table')} of {sizes[0]}"
    counts = Counter(sizes)
    words = [f"{_number(counts[s])} of {s}" for s in sorted(counts, reverse=True)]
    return f"{_count(len(sizes), 'table')} ({' and '.join(words)} players)"


def _span(low: int, high: int) -> str:
    if low == high:
        return _count(low, "round")
    return f"{low} to {high} rounds"


def _number(value: int) -> str:
    return NUMBERS.get(value, str(value))


def _count(value: int, noun: str) -> str:
    return f"{_number(value)} {noun}" + ("" if value == 1 else "s")


def _sizes_words(sizes: tuple[int, ...]) -> str:
    words = [str(s) for s in sizes]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
