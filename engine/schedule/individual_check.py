"""The movement validator: ``check_individual_schedule(data)`` lists every broken rule of a
movement for individual players (``engine.schedule.individual``, docs/movement.md).

An organiser may edit a movement by hand, so the validator takes any JSON value and answers
with readable messages, one per broken rule, and never raises. What it checks:

- the shape: a JSON object with the keys players, per_table, tables, rounds, seatings and byes
  (max_meetings, repeated_pairs and rounds_at_size optional, no others); whole numbers in range
  (true and false are not numbers); per_table 2, 3 or 4; tables = players // per_table;
  rounds ≤ tables. Tables of several sizes give ``sizes`` (one size a table, larger first)
  instead of per_table: then tables = the number of sizes, the sizes seat at most the players,
  and rounds ≤ players // the largest size (a table never sees a player twice);
  ``seatings`` a list of objects with exactly round, table and seats, ``seats`` an object with
  exactly the first per_table of N, E, S, W, each holding a player 1..players; ``byes`` a list
  of objects with exactly round and player. Items are named by their place in the list,
  counted from 0 as in a JSON path: ``seatings[3]``, ``byes[0]``;
- tables: no table listed twice in a round, every table of every round listed, nobody at two
  seats of one table;
- players: nobody plays twice in a round, nobody visits a table twice, everybody either plays
  or is listed as sitting out in every round, nobody listed as sitting out plays that round,
  nobody sits out twice;
- ``max_meetings`` and ``repeated_pairs``, when given, are the real figures: the most times two
  players share a table, and the number of pairs sharing one more than once; so is
  ``rounds_at_size``, for each table size the fewest and the most rounds a player spends at it.

Numbers that are out of range (and later listings of a round's table) are reported once and
left out of the later checks. Whether every table and player of every round is there is only
checked when players, per_table, tables and rounds agree with each other.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from engine.core.messages import Words, joined, words
from engine.schedule.individual import SEATS, TABLE_SIZES
from engine.schedule.rules import (
    MAX_NUMBER,
    check_header_keys,
    check_keys,
    complement,
    count_of,
    describe,
    first_and_clashes,
    is_object,
    kind,
    ranges,
    read_list,
    times,
    whole_number,
)

REQUIRED_KEYS = ("players", "per_table", "tables", "rounds", "seatings", "byes")
FIGURE_KEYS = ("max_meetings", "repeated_pairs")
KEYS = (*REQUIRED_KEYS, *FIGURE_KEYS, "sizes", "rounds_at_size")
SEATING_KEYS = ("round", "table", "seats")
BYE_KEYS = ("round", "player")
# Seatings named in one message before "and N more".
SHOWN_SEATINGS = 4


@dataclass(frozen=True)
class _Header:
    players: int | None
    per_table: int | None
    tables: int | None
    rounds: int | None
    max_meetings: int | None
    repeated_pairs: int | None
    # players, per_table, tables and rounds all valid and in agreement: the completeness of
    # every round can be checked.
    complete: bool
    # Tables of several sizes: the players of each table (table 1 first).
    sizes: tuple[int, ...] | None = None

    def size(self, table: int | None) -> int | None:
        """The players of a table (None when unknown)."""
        if self.sizes is None:
            return self.per_table
        if table is None or not 1 <= table <= len(self.sizes):
            return None
        return self.sizes[table - 1]


@dataclass(frozen=True, slots=True)
class _Seating:
    index: int
    round: int
    table: int
    players: tuple[int, ...]  # the valid players, each once, in seat order


@dataclass(frozen=True, slots=True)
class _Bye:
    index: int
    round: int
    player: int


def check_individual_schedule(data: Any) -> list[str]:
    """Every broken rule of ``data`` (a parsed JSON value), one message each; [] when fine."""
    if not isinstance(data, dict):
        return [words("a movement must be a JSON object, not %(kind)s", kind=kind(data))]
    problems: list[str] = []
    header = _read_header(data, problems)
    seatings = _read_seatings(data, header, problems)
    byes = _read_byes(data, header, problems)
    seatings = _drop_repeated_tables(seatings, problems)
    table_of = _check_rounds(seatings, problems)
    _check_tables(seatings, problems)
    _check_byes(byes, table_of, problems)
    if header.complete:
        _check_complete(seatings, byes, header, problems)
    _check_figures(seatings, header, problems)
    if "rounds_at_size" in data:
        _check_rounds_at_size(data["rounds_at_size"], seatings, header, problems)
    return problems


# --- shape -------------------------------------------------------------------------------------


def _read_header(data: dict, problems: list[str]) -> _Header:
    if "sizes" in data:
        return _read_sized_header(data, problems)
    check_header_keys(data, REQUIRED_KEYS, KEYS, problems)
    players = whole_number(data, "players", "'players'", 2, MAX_NUMBER, problems)
    per_table = _read_per_table(data, problems)
    tables = whole_number(data, "tables", "'tables'", 1, MAX_NUMBER, problems)
    rounds = whole_number(data, "rounds", "'rounds'", 1, MAX_NUMBER, problems)
    figures = _read_figures(data, problems)
    agree, most_rounds = _tables_filled(players, per_table, tables, problems)
    if rounds is not None and most_rounds:
        _check_rounds_allowed(rounds, most_rounds, problems)
    return _Header(
        players=players,
        per_table=per_table,
        tables=tables,
        rounds=rounds,
        complete=agree and rounds is not None,
        **figures,
    )


def _check_rounds_allowed(rounds: int, most_rounds: int, problems: list[str]) -> None:
    """No more rounds than tables: nobody may visit a table twice."""
    if rounds > most_rounds:
        problems.append(
            words(
                "'rounds' is %(rounds)s, but nobody may visit a table twice, so %(tables)s allow "
                "at most %(most)s",
                rounds=rounds,
                tables=_table_count(most_rounds),
                most=_round_count(most_rounds),
            )
        )


def _read_per_table(data: dict, problems: list[str]) -> int | None:
    per_table = data.get("per_table")
    if "per_table" in data and (type(per_table) is not int or per_table not in TABLE_SIZES):
        problems.append(
            words("'per_table' must be 2, 3 or 4, not %(value)s", value=describe(per_table))
        )
        return None
    return per_table


def _read_figures(data: dict, problems: list[str]) -> dict[str, Any]:
    """The figures a movement claims of itself (``FIGURE_KEYS``), each a whole number."""
    return {
        key: whole_number(data, key, f"'{key}'", 0, MAX_NUMBER, problems) for key in FIGURE_KEYS
    }


def _tables_filled(
    players: int | None, per_table: int | None, tables: int | None, problems: list[str]
) -> tuple[bool, int | None]:
    """Whether the players at tables of ``per_table`` fill exactly ``tables``, and the most
    rounds the field allows (nobody visits a table twice: at most one round per table)."""
    if players is None or per_table is None:
        return False, tables
    filled = players // per_table
    if players < per_table:
        problems.append(
            words(
                "'players' is %(players)s, too few for one table of %(size)s",
                players=players,
                size=per_table,
            )
        )
        return False, filled
    if tables is not None and tables != filled:
        problems.append(
            words(
                "'tables' is %(tables)s, but %(players)s players at tables of %(size)s fill "
                "%(filled)s",
                tables=tables,
                players=players,
                size=per_table,
                filled=_table_count(filled),
            )
        )
        return False, filled
    return tables is not None, filled


def _read_sized_header(data: dict, problems: list[str]) -> _Header:
    """The header of a movement at tables of several sizes (``sizes`` for ``per_table``)."""
    check_header_keys(data, [key for key in REQUIRED_KEYS if key != "per_table"], KEYS, problems)
    if "per_table" in data:
        problems.append(words("give 'per_table' or 'sizes', not both"))
    players = whole_number(data, "players", "'players'", 2, MAX_NUMBER, problems)
    tables = whole_number(data, "tables", "'tables'", 1, MAX_NUMBER, problems)
    rounds = whole_number(data, "rounds", "'rounds'", 1, MAX_NUMBER, problems)
    figures = _read_figures(data, problems)
    sizes = _read_sizes(data["sizes"], problems)
    agree = sizes is not None and _check_sizes(sizes, players, tables, rounds, problems)
    return _Header(
        players=players,
        per_table=None,
        tables=tables,
        rounds=rounds,
        complete=agree and rounds is not None,
        sizes=sizes,
        **figures,
    )


def _check_sizes(
    sizes: tuple[int, ...],
    players: int | None,
    tables: int | None,
    rounds: int | None,
    problems: list[str],
) -> bool:
    """Whether ``sizes`` agrees with the header (``_sizes_agree``); too many rounds for them
    are reported."""
    agree = _sizes_agree(sizes, players, tables, problems)
    if players is not None and rounds is not None:
        _check_sized_rounds(sizes, players, rounds, problems)
    return agree


def _read_sizes(raw: Any, problems: list[str]) -> tuple[int, ...] | None:
    if not isinstance(raw, list) or not raw:
        problems.append(
            words("'sizes' must be a list of table sizes, not %(value)s", value=describe(raw))
        )
        return None
    wrong = [size for size in raw if type(size) is not int or size not in TABLE_SIZES]
    if wrong:
        problems.append(
            words(
                "'sizes': every table seats 2, 3 or 4 players, not %(value)s",
                value=describe(wrong[0]),
            )
        )
        return None
    return tuple(raw)


def _sizes_agree(
    sizes: tuple[int, ...], players: int | None, tables: int | None, problems: list[str]
) -> bool:
    """Whether ``sizes`` lists the header's tables and seats no more than its players."""
    if tables is not None and tables != len(sizes):
        problems.append(
            words(
                "'tables' is %(tables)s, but 'sizes' lists %(count)s",
                tables=tables,
                count=_table_count(len(sizes)),
            )
        )
        return False
    if players is not None and sum(sizes) > players:
        problems.append(
            words(
                "'sizes' seat %(seated)s players, but there are only %(players)s",
                seated=sum(sizes),
                players=players,
            )
        )
        return False
    return tables is not None and players is not None


def _check_sized_rounds(
    sizes: tuple[int, ...], players: int, rounds: int, problems: list[str]
) -> None:
    most = min(len(sizes), players // max(sizes))
    if rounds > most:
        problems.append(
            words(
                "'rounds' is %(rounds)s, but nobody may visit a table twice, so %(players)s "
                "players at %(tables)s of up to %(size)s allow at most %(most)s",
                rounds=rounds,
                players=players,
                tables=_table_count(len(sizes)),
                size=max(sizes),
                most=_round_count(most),
            )
        )


def _read_seatings(data: dict, header: _Header, problems: list[str]) -> list[_Seating]:
    items = read_list(data, "seatings", problems)
    if items is None:
        return []
    seatings = []
    unused: dict[str, list[str]] = defaultdict(list)  # seat -> the seatings that fill it
    for index, item in enumerate(items):
        seating = _read_seating(index, item, header, unused, problems)
        if seating is not None:
            seatings.append(seating)
    _report_unused_seats(unused, header, problems)
    return seatings


def _read_seating(
    index: int, item: Any, header: _Header, unused: dict[str, list[str]], problems: list[str]
) -> _Seating | None:
    """One seating, or None when it names no round or no table."""
    label = f"seatings[{index}]"
    if not is_object(item, label, problems):
        return None
    check_keys(item, label, SEATING_KEYS, problems)
    round_ = whole_number(item, "round", f"{label}.round", 1, header.rounds or MAX_NUMBER, problems)
    table = whole_number(item, "table", f"{label}.table", 1, header.tables or MAX_NUMBER, problems)
    players: tuple[int, ...] = ()
    if "seats" in item:
        place = _place(round_, table)
        size = header.size(table)
        players = _read_seats(item["seats"], label, place, header, size, unused, problems)
    if round_ is None or table is None:
        return None
    return _Seating(index, round_, table, players)


def _place(round_: int | None, table: int | None) -> str | None:
    """ "round 2, table 3": where a seating is, for its messages (None when not known)."""
    if round_ and table:
        return words("round %(round)s, table %(table)s", round=round_, table=table)
    return None


def _report_unused_seats(
    unused: dict[str, list[str]], header: _Header, problems: list[str]
) -> None:
    """Seats that tables of ``per_table`` lack, filled all the same: usually a wrong
    ``per_table``, so one message a seat, not one a seating."""
    for name, labels in unused.items():
        if len(labels) > SHOWN_SEATINGS:
            more = words("%(count)s more", count=len(labels) - SHOWN_SEATINGS)
            labels = [*labels[:SHOWN_SEATINGS], more]
        values = {
            "seat": name,
            "size": header.per_table,
            "used": ", ".join(SEATS[: header.per_table]),
            "list": _and(labels),
        }
        problems.append(
            words(
                "seat %(seat)s is not used at tables of %(size)s (only %(used)s), but %(list)s "
                "fills it",
                **values,
            )
            if len(labels) == 1
            else words(
                "seat %(seat)s is not used at tables of %(size)s (only %(used)s), but %(list)s "
                "fill it",
                **values,
            )
        )


def _read_seats(
    seats: Any,
    label: str,
    place: str | None,
    header: _Header,
    size: int | None,
    unused: dict[str, list[str]],
    problems: list[str],
) -> tuple[int, ...]:
    """The valid players of one seating's seats, each once, in seat order."""
    players = _plain_seats(seats, header, size)
    if players is not None:
        return players
    where: str = Words(" (%(place)s)", {"place": place}) if place else ""
    if not isinstance(seats, dict):
        problems.append(
            words(
                "%(label)s.seats%(where)s must be an object, not %(kind)s",
                label=label,
                where=where,
                kind=kind(seats),
            )
        )
        return ()
    seat_names = SEATS[:size] if size else SEATS
    _check_seat_names(seats, label, where, seat_names, header, size, unused, problems)
    held = _seats_held(seats, label, where, seat_names, header.players, problems)
    _check_one_seat_each(held, place or label, problems)
    return tuple(held)


def _check_one_seat_each(held: dict[int, list[str]], place: str, problems: list[str]) -> None:
    """Nobody sits at two seats of one table (``held``: player -> his seats)."""
    for player, names in held.items():
        if len(names) > 1:
            problems.append(
                words(
                    "%(place)s: player %(player)s sits at %(seats)s",
                    place=place,
                    player=player,
                    seats=_and(names),
                )
            )


def _seats_held(
    seats: dict,
    label: str,
    where: str,
    seat_names: tuple[str, ...] | str,
    players: int | None,
    problems: list[str],
) -> dict[int, list[str]]:
    """Each valid player of the seats -> the seats he holds, in seat order."""
    held: dict[int, list[str]] = {}
    for name in seat_names:
        path = Words(
            "%(label)s.seats.%(name)s%(where)s", {"label": label, "name": name, "where": where}
        )
        player = whole_number(seats, name, path, 1, players or MAX_NUMBER, problems)
        if player is not None:
            held.setdefault(player, []).append(name)
    return held


def _check_seat_names(
    seats: dict,
    label: str,
    where: str,
    seat_names: tuple[str, ...] | str,
    header: _Header,
    size: int | None,
    unused: dict[str, list[str]],
    problems: list[str],
) -> None:
    """Seats a table of its size lacks, or no seat at all; seats of its size left empty."""
    for name in seats:
        path = Words("%(label)s.seats%(where)s", {"label": label, "where": where})
        _check_seat_name(name, path, seat_names, header, size, problems)
        if name in SEATS and name not in seat_names and not header.sizes:
            unused[name].append(label)  # tables of fewer players: one message for them all
    if size:
        _check_empty_seats(seats, label, where, seat_names, problems)


def _check_empty_seats(
    seats: dict, label: str, where: str, seat_names: tuple[str, ...] | str, problems: list[str]
) -> None:
    """Every seat of the table's size is taken."""
    empty = [name for name in seat_names if name not in seats]
    if empty:
        problems.append(
            words(
                "%(label)s.seats%(where)s: nobody sits at %(seats)s",
                label=label,
                where=where,
                seats=", ".join(empty),
            )
        )


def _check_seat_name(
    name: Any,
    where: str,
    seat_names: tuple[str, ...] | str,
    header: _Header,
    size: int | None,
    problems: list[str],
) -> None:
    """A seat a table of its size lacks (tables of several sizes), or no seat at all."""
    if name in SEATS and name not in seat_names and header.sizes:
        problems.append(
            words(
                "%(where)s: a table of %(size)s has no seat %(seat)s (only %(seats)s)",
                where=where,
                size=size,
                seat=name,
                seats=", ".join(seat_names),
            )
        )
    elif name not in SEATS and name not in seat_names:
        problems.append(
            words(
                "%(where)s: unknown seat %(seat)s (seats are %(seats)s)",
                where=where,
                seat=describe(name),
                seats=", ".join(seat_names),
            )
        )


def _plain_seats(seats: Any, header: _Header, size: int | None) -> tuple[int, ...] | None:
    """The players of well-formed seats (the usual case, checked quickly), else None."""
    if type(seats) is not dict or not size or len(seats) != size:
        return None
    highest = header.players or MAX_NUMBER
    players = []
    for name in SEATS[:size]:
        player = seats.get(name)
        if type(player) is not int or not 1 <= player <= highest:
            return None
        players.append(player)
    return tuple(players) if len(set(players)) == len(players) else None


def _read_byes(data: dict, header: _Header, problems: list[str]) -> list[_Bye]:
    items = read_list(data, "byes", problems)
    if items is None:
        return []
    byes: list[_Bye] = []
    first: dict[tuple[int, int], int] = {}
    for index, item in enumerate(items):
        bye = _read_bye(index, item, header, problems)
        if bye is None:
            continue
        key = (bye.round, bye.player)
        if key in first:
            problems.append(
                words(
                    "%(label)s repeats byes[%(first)s] (round %(round)s, player %(player)s)",
                    label=f"byes[{index}]",
                    first=first[key],
                    round=bye.round,
                    player=bye.player,
                )
            )
            continue
        first[key] = index
        byes.append(bye)
    return byes


def _read_bye(index: int, item: Any, header: _Header, problems: list[str]) -> _Bye | None:
    """One bye, or None when it names no round or no player."""
    label = f"byes[{index}]"
    if not is_object(item, label, problems):
        return None
    check_keys(item, label, BYE_KEYS, problems)
    round_ = whole_number(item, "round", f"{label}.round", 1, header.rounds or MAX_NUMBER, problems)
    player = whole_number(
        item, "player", f"{label}.player", 1, header.players or MAX_NUMBER, problems
    )
    if round_ is None or player is None:
        return None
    return _Bye(index, round_, player)


# --- rules -------------------------------------------------------------------------------------


def _drop_repeated_tables(seatings: list[_Seating], problems: list[str]) -> list[_Seating]:
    """The first listing of each round's table; the others reported and left out."""
    listed: dict[tuple[int, int], list[int]] = defaultdict(list)
    kept = []
    for seating in seatings:
        key = (seating.round, seating.table)
        if not listed[key]:
            kept.append(seating)
        listed[key].append(seating.index)
    _report_repeated_listings(listed, problems)
    return kept


def _report_repeated_listings(
    listed: dict[tuple[int, int], list[int]], problems: list[str]
) -> None:
    """A round's table listed more than once (``listed``: (round, table) -> its seatings)."""
    for (round_, table), indexes in sorted(listed.items()):
        if len(indexes) > 1:
            problems.append(
                words(
                    "round %(round)s: table %(table)s is listed %(times)s (%(list)s)",
                    round=round_,
                    table=table,
                    times=times(len(indexes)),
                    list=_and([f"seatings[{i}]" for i in indexes]),
                )
            )


def _check_rounds(seatings: list[_Seating], problems: list[str]) -> dict[tuple[int, int], int]:
    """Nobody plays twice in a round. Returns (round, player) -> the (first) table he plays at."""
    table_of, clashes = first_and_clashes(
        ((seating.round, player), seating.table)
        for seating in seatings
        for player in seating.players
    )
    for (round_, player), tables in sorted(clashes.items()):
        problems.append(
            words(
                "round %(round)s: player %(player)s plays at tables %(list)s",
                round=round_,
                player=player,
                list=_and(sorted(tables)),
            )
        )
    return table_of


def _check_tables(seatings: list[_Seating], problems: list[str]) -> None:
    """Nobody visits a table twice."""
    _, clashes = first_and_clashes(
        ((player, seating.table), seating.round)
        for seating in seatings
        for player in seating.players
    )
    for (player, table), rounds in sorted(clashes.items()):
        problems.append(
            words(
                "player %(player)s visits table %(table)s %(times)s (rounds %(list)s)",
                player=player,
                table=table,
                times=times(len(rounds)),
                list=_and(sorted(rounds)),
            )
        )


def _check_byes(byes: list[_Bye], table_of: dict, problems: list[str]) -> None:
    """A player listed as sitting out does not play; nobody sits out twice."""
    sat_out: dict[int, list[int]] = defaultdict(list)
    for bye in byes:
        table = table_of.get((bye.round, bye.player))
        if table is not None:
            problems.append(
                words(
                    "round %(round)s: player %(player)s is listed as sitting out but plays "
                    "at table %(table)s",
                    round=bye.round,
                    player=bye.player,
                    table=table,
                )
            )
        else:
            sat_out[bye.player].append(bye.round)
    for player, rounds in sorted(sat_out.items()):
        if len(rounds) > 1:
            problems.append(
                words(
                    "player %(player)s sits out %(times)s (rounds %(list)s)",
                    player=player,
                    times=times(len(rounds)),
                    list=_and(sorted(rounds)),
                )
            )


def _check_complete(
    seatings: list[_Seating], byes: list[_Bye], header: _Header, problems: list[str]
) -> None:
    """Every table of every round is listed; every player plays or sits out every round."""
    assert header.players is not None and header.tables is not None and header.rounds is not None
    tables: dict[int, set[int]] = defaultdict(set)
    present: dict[int, set[int]] = defaultdict(set)
    for seating in seatings:
        tables[seating.round].add(seating.table)
        present[seating.round].update(seating.players)
    for bye in byes:
        present[bye.round].add(bye.player)
    _check_rounds_seated(sorted(tables), header.rounds, problems)
    for round_ in sorted(tables):
        _check_tables_seated(round_, tables[round_], header.tables, problems)
    for round_ in sorted(tables):
        _check_everyone_present(round_, present[round_], header.players, problems)


def _check_rounds_seated(seated: list[int], rounds: int, problems: list[str]) -> None:
    """Every round 1..``rounds`` has seatings (``seated``: the rounds that have, sorted)."""
    empty = complement(seated, 1, rounds)
    if empty:
        problems.append(
            words("round %(list)s has no seatings", list=ranges(empty))
            if count_of(empty) == 1
            else words("rounds %(list)s have no seatings", list=ranges(empty))
        )


def _check_tables_seated(round_: int, seated: set[int], tables: int, problems: list[str]) -> None:
    """Every table 1..``tables`` has a seating in round ``round_``."""
    missing = complement(sorted(seated), 1, tables)
    if missing:
        problems.append(
            words(
                "round %(round)s: no seating for table %(list)s",
                round=round_,
                list=ranges(missing),
            )
            if count_of(missing) == 1
            else words(
                "round %(round)s: no seating for tables %(list)s",
                round=round_,
                list=ranges(missing),
            )
        )


def _check_everyone_present(
    round_: int, present: set[int], players: int, problems: list[str]
) -> None:
    """Every player of the field plays round ``round_`` or is listed as sitting it out."""
    missing = complement(sorted(present), 1, players)
    if missing:
        problems.append(
            words(
                "round %(round)s: player %(list)s neither plays nor is listed as sitting out",
                round=round_,
                list=ranges(missing),
            )
            if count_of(missing) == 1
            else words(
                "round %(round)s: players %(list)s neither play nor are listed as sitting out",
                round=round_,
                list=ranges(missing),
            )
        )


def _check_figures(seatings: list[_Seating], header: _Header, problems: list[str]) -> None:
    if header.max_meetings is None and header.repeated_pairs is None:
        return
    meetings = _meetings(seatings)
    if header.max_meetings is not None:
        _check_max_meetings(header.max_meetings, meetings, problems)
    if header.repeated_pairs is not None:
        _check_repeated_pairs(header.repeated_pairs, meetings, problems)


def _meetings(seatings: list[_Seating]) -> Counter[tuple[int, int]]:
    """(player, higher player) -> the number of tables they share."""
    return Counter(
        pair for seating in seatings for pair in itertools.combinations(sorted(seating.players), 2)
    )


def _check_max_meetings(claimed: int, meetings: Counter, problems: list[str]) -> None:
    """The claimed ``max_meetings`` against the most two players meet."""
    most = max(meetings.values(), default=0)
    if claimed == most:
        return
    if most == 0:
        problems.append(
            words("'max_meetings' is %(claimed)s, but no two players meet", claimed=claimed)
        )
        return
    first, second = min(pair for pair, count in meetings.items() if count == most)
    problems.append(
        words(
            "'max_meetings' is %(claimed)s, but the most two players meet is %(most)s "
            "(players %(first)s and %(second)s meet %(times)s)",
            claimed=claimed,
            most=most,
            first=first,
            second=second,
            times=times(most),
        )
    )


def _check_repeated_pairs(claimed: int, meetings: Counter, problems: list[str]) -> None:
    """The claimed ``repeated_pairs`` against the pairs of players who meet more than once."""
    repeated = sum(1 for count in meetings.values() if count > 1)
    if claimed == repeated:
        return
    if not repeated:
        problems.append(
            words(
                "'repeated_pairs' is %(claimed)s, but no pair of players meets more than once",
                claimed=claimed,
            )
        )
        return
    if repeated == 1:
        problems.append(
            words(
                "'repeated_pairs' is %(claimed)s, but 1 pair of players meets more than once",
                claimed=claimed,
            )
        )
        return
    problems.append(
        words(
            "'repeated_pairs' is %(claimed)s, but %(count)s pairs of players meet more than once",
            claimed=claimed,
            count=repeated,
        )
    )


def _check_rounds_at_size(
    claimed: Any, seatings: list[_Seating], header: _Header, problems: list[str]
) -> None:
    """``rounds_at_size``: {"size": [fewest, most]} rounds a player spends at that size."""
    if header.players is None:
        return
    real = _rounds_at_size(seatings, header, header.players)
    if claimed != real:
        spent = joined([_spent_at(size, low, high) for size, (low, high) in real.items()], "; ")
        problems.append(
            words(
                "'rounds_at_size' is %(claimed)s, but a player spends %(spent)s",
                claimed=describe(claimed),
                spent=spent or words("nothing"),
            )
        )


def _spent_at(size: str, low: int, high: int) -> str:
    """ "at tables of 3, 2 to 3 rounds": the rounds a player spends at one table size."""
    if low == high:
        return words("at tables of %(size)s, %(rounds)s", size=size, rounds=_round_count(low))
    return words("at tables of %(size)s, %(low)s to %(high)s rounds", size=size, low=low, high=high)


def _rounds_at_size(
    seatings: list[_Seating], header: _Header, players: int
) -> dict[str, list[int]]:
    """{"size": [fewest, most]} rounds a player spends at tables of that size."""
    counts: dict[int, Counter[int]] = defaultdict(Counter)
    for seating in seatings:
        size = header.size(seating.table)
        if size is not None:
            for player in seating.players:
                counts[size][player] += 1
    return {
        str(size): [
            min(counts[size].get(p, 0) for p in range(1, players + 1)),
            max(counts[size].values()),
        ]
        for size in sorted(counts, reverse=True)
    }


# --- wording -----------------------------------------------------------------------------------


def _and(items: list) -> str:
    """ "1", "1 and 3", "1, 3 and 4"."""
    texts = [str(item) for item in items]
    if len(texts) == 1:
        return texts[0]
    return words("%(list)s and %(last)s", list=", ".join(texts[:-1]), last=texts[-1])


def _table_count(number: int) -> str:
    """ "1 table", "3 tables": the engine's words."""
    return words("1 table") if number == 1 else words("%(count)s tables", count=number)


def _round_count(number: int) -> str:
    """ "1 round", "3 rounds": the engine's words."""
    return words("1 round") if number == 1 else words("%(count)s rounds", count=number)
