"""The schedule validator: ``check_schedule(data)`` lists every broken rule of a schedule.

An organiser may edit a schedule by hand, so the validator takes any JSON value and answers
with readable messages, one per broken rule, and never raises. What it checks:

- the shape: a JSON object with the keys teams, tables, rounds, sides, matches, byes and
  max_meetings (no others), whole numbers in range, ``matches`` and ``byes`` lists of objects
  with exactly the keys round/table/ns/ew and round/team;
- rounds: a team plays at most once a round, a table hosts at most one match a round, nobody
  faces themselves;
- tables: with an even number of teams every team plays every table exactly once; with an odd
  number exactly one team misses each table (the one facing the phantom there) and nobody plays
  a table twice;
- sides: under ``fixed`` a team never changes side; under ``balanced`` a team's NS count is
  half its matches, give or take one;
- byes: a bye names a team that does not play that round, and every round a team does not play
  is a bye (byes are exactly the rounds sat out);
- ``max_meetings`` equals the most times two teams actually meet.

Numbers that are out of range are reported once and left out of the later checks.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from engine.core.messages import words
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

KEYS = ("teams", "tables", "rounds", "sides", "matches", "byes", "max_meetings")
MATCH_KEYS = ("round", "table", "ns", "ew")
BYE_KEYS = ("round", "team")
SIDE_MODES = ("fixed", "balanced")


@dataclass(frozen=True)
class _Header:
    teams: int | None
    tables: int | None
    rounds: int | None
    sides: str | None
    max_meetings: int | None


@dataclass(frozen=True, slots=True)
class _Entry:
    """A match or a bye; fields that are missing or wrong are None."""

    number: int
    round: int | None
    table: int | None = None
    ns: int | None = None
    ew: int | None = None
    team: int | None = None
    players: tuple[int, ...] = ()  # the valid, distinct team numbers of a match


def check_schedule(data: Any) -> list[str]:
    """Every broken rule of ``data`` (a parsed JSON value), one message each; [] when fine."""
    if not isinstance(data, dict):
        return [words("a schedule must be a JSON object, not %(kind)s", kind=kind(data))]
    problems: list[str] = []
    header = _read_header(data, problems)
    matches = _read_entries(data, "matches", "match", MATCH_KEYS, header, problems)
    byes = _read_entries(data, "byes", "bye", BYE_KEYS, header, problems)
    _check_rounds(matches, problems)
    _check_tables(matches, byes, header, problems)
    _check_sides(matches, header.sides, problems)
    _check_byes(matches, byes, header.rounds, problems)
    _check_max_meetings(matches, header.max_meetings, problems)
    return problems


# --- shape -----------------------------------------------------------------------------------


def _read_header(data: dict, problems: list[str]) -> _Header:
    check_header_keys(data, KEYS, KEYS, problems)
    numbers = {}
    for key, low in (("teams", 2), ("tables", 1), ("rounds", 1), ("max_meetings", 0)):
        numbers[key] = whole_number(data, key, f"'{key}'", low, MAX_NUMBER, problems)
    sides = data.get("sides")
    if "sides" in data and sides not in SIDE_MODES:
        problems.append(
            words('\'sides\' must be "fixed" or "balanced", not %(value)s', value=describe(sides))
        )
        sides = None
    return _Header(sides=sides, **numbers)


def _read_entries(
    data: dict,
    key: str,
    noun: str,
    fields: tuple[str, ...],
    header: _Header,
    problems: list[str],
) -> list[_Entry]:
    items = read_list(data, key, problems)
    if items is None:
        return []
    limits = {"round": header.rounds, "table": header.tables}
    highs = [limits.get(field, header.teams) or MAX_NUMBER for field in fields]
    entries = []
    for number, item in enumerate(items, start=1):
        values = _plain_values(item, fields, highs)
        if values is None:
            values = _checked_values(item, _label(noun, number), fields, highs, problems)
        if values is not None:
            entries.append(_entry(number, values, problems))
    return entries


def _label(noun: str, number: int) -> str:
    """ "match #3", "bye #1": an entry as the messages name it."""
    if noun == "match":
        return words("match #%(number)s", number=number)
    return words("bye #%(number)s", number=number)


def _entry(number: int, values: dict, problems: list[str]) -> _Entry:
    """The entry of these values; a team facing itself is a problem."""
    ns, ew = values.get("ns"), values.get("ew")
    if ns is not None and ns == ew:
        # Only a match has sides (a bye has a team alone).
        problems.append(
            words("match #%(number)s: team %(team)s faces itself", number=number, team=ns)
        )
    players = tuple(dict.fromkeys(team for team in (ns, ew) if team is not None))
    return _Entry(number, **values, players=players)


def _plain_values(item: Any, fields: tuple[str, ...], highs: list) -> dict | None:
    """The values of a well-formed entry (the usual case, checked quickly), else None."""
    if type(item) is not dict or len(item) != len(fields):
        return None
    for field, high in zip(fields, highs, strict=True):
        value = item.get(field)
        if type(value) is not int or not 1 <= value <= high:
            return None
    return item


def _checked_values(
    item: Any, label: str, fields: tuple[str, ...], highs: list, problems: list[str]
) -> dict | None:
    """The values of an entry with something wrong: the wrong ones None, each one reported."""
    if not is_object(item, label, problems):
        return None
    check_keys(item, label, fields, problems)
    return {
        field: whole_number(
            item, field, words("%(label)s: %(field)s", label=label, field=field), 1, high, problems
        )
        for field, high in zip(fields, highs, strict=True)
    }


# --- rules -----------------------------------------------------------------------------------


def _check_rounds(matches: list[_Entry], problems: list[str]) -> None:
    """A team plays at most once a round, a table hosts at most one match a round."""
    played = [match for match in matches if match.round is not None]
    _check_teams_once_a_round(played, problems)
    _check_tables_once_a_round(played, problems)


def _check_teams_once_a_round(played: list[_Entry], problems: list[str]) -> None:
    _, team_clashes = first_and_clashes(
        ((match.round, team), match.number) for match in played for team in match.players
    )
    for (round_, team), numbers in sorted(team_clashes.items()):
        problems.append(
            words(
                "round %(round)s: team %(team)s plays %(times)s (%(matches)s)",
                round=round_,
                team=team,
                times=times(len(numbers)),
                matches=_matches(numbers),
            )
        )


def _check_tables_once_a_round(played: list[_Entry], problems: list[str]) -> None:
    _, table_clashes = first_and_clashes(
        ((match.round, match.table), match.number) for match in played if match.table is not None
    )
    for (round_, table), numbers in sorted(table_clashes.items()):
        problems.append(
            words(
                "round %(round)s: table %(table)s hosts %(count)s matches (%(matches)s)",
                round=round_,
                table=table,
                count=len(numbers),
                matches=_matches(numbers),
            )
        )


def _check_tables(
    matches: list[_Entry], byes: list[_Entry], header: _Header, problems: list[str]
) -> None:
    teams, tables = header.teams, header.tables
    if teams is None or tables is None:
        return
    tables_of = _tables_of_teams(matches, problems)
    used = set().union(*tables_of.values())
    _check_idle_tables(used, tables, problems)
    seen = sorted(set(tables_of) | {bye.team for bye in byes if bye.team is not None})
    _check_unseen_teams(seen, teams, problems)
    if teams % 2 == 1:
        _check_phantom_tables(tables_of, sorted(used), teams, problems)
        return
    _check_every_table_played(seen, tables_of, used, problems)


def _check_idle_tables(used: set[int], tables: int, problems: list[str]) -> None:
    """Every table hosts a match."""
    idle = complement(sorted(used), 1, tables)
    if idle:
        problems.append(
            words("table %(list)s hosts no match", list=ranges(idle))
            if count_of(idle) == 1
            else words("tables %(list)s host no match", list=ranges(idle))
        )


def _check_unseen_teams(seen: list[int], teams: int, problems: list[str]) -> None:
    """Every team appears in a match or a bye."""
    unseen = complement(seen, 1, teams)
    if unseen:
        problems.append(
            words("team %(list)s appears in no match and no bye", list=ranges(unseen))
            if count_of(unseen) == 1
            else words("teams %(list)s appear in no match and no bye", list=ranges(unseen))
        )


def _check_every_table_played(
    seen: list[int], tables_of: dict[int, set[int]], used: set[int], problems: list[str]
) -> None:
    """Every team plays every table in use (an even number of teams: no phantom table)."""
    for team in seen:
        missing = sorted(used - tables_of.get(team, set()))
        if missing:
            problems.append(
                words("team %(team)s never plays table %(list)s", team=team, list=ranges(missing))
                if count_of(missing) == 1
                else words(
                    "team %(team)s never plays tables %(list)s", team=team, list=ranges(missing)
                )
            )


def _tables_of_teams(matches: list[_Entry], problems: list[str]) -> dict[int, set[int]]:
    """The tables each team plays; a team that plays a table more than once is a problem."""
    tables_of: dict[int, set[int]] = defaultdict(set)
    visits = [
        (team, match.table, match.number)
        for match in matches
        if match.table is not None
        for team in match.players
    ]
    for team, table, _ in visits:
        tables_of[team].add(table)
    _check_tables_once(visits, problems)
    return tables_of


def _check_tables_once(visits: list[tuple[int, int, int]], problems: list[str]) -> None:
    """No team plays a table twice (``visits``: team, table, match number)."""
    _, repeats = first_and_clashes(((team, table), number) for team, table, number in visits)
    for (team, table), numbers in sorted(repeats.items()):
        problems.append(
            words(
                "team %(team)s plays table %(table)s %(times)s (%(matches)s)",
                team=team,
                table=table,
                times=times(len(numbers)),
                matches=_matches(numbers),
            )
        )


def _check_phantom_tables(
    tables_of: dict[int, set[int]], used: list[int], teams: int, problems: list[str]
) -> None:
    """With an odd number of teams exactly one team misses each table: the phantom's opponent."""
    players: dict[int, list[int]] = defaultdict(list)
    for team, tables in tables_of.items():
        for table in tables:
            players[table].append(team)
    for table in used:
        absent = complement(sorted(players[table]), 1, teams)
        problem = _phantom_problem(table, absent)
        if problem:
            problems.append(problem)


def _phantom_problem(table: int, absent: list[tuple[int, int]]) -> str | None:
    """Unless exactly one team is ``absent`` from the table: what is wrong."""
    if not absent:
        return words(
            "table %(table)s: every team plays there, but with an odd number of teams "
            "one must miss it (facing the phantom)",
            table=table,
        )
    if len(absent) > 1:
        return words(
            "table %(table)s: teams %(list)s never play there; with an odd number "
            "of teams only one team (the phantom's opponent) may miss a table",
            table=table,
            list=ranges(absent),
        )
    return None


def _check_sides(matches: list[_Entry], sides: str | None, problems: list[str]) -> None:
    if sides is None:
        return
    ns_count, ew_count = _side_counts(matches)
    for team in sorted(set(ns_count) | set(ew_count)):
        problem = _sides_problem(team, ns_count[team], ew_count[team], sides)
        if problem:
            problems.append(problem)


def _side_counts(matches: list[_Entry]) -> tuple[Counter[int], Counter[int]]:
    """How many matches each team plays NS, and EW."""
    ns_count: Counter[int] = Counter(m.ns for m in matches if m.ns is not None)
    ew_count: Counter[int] = Counter(m.ew for m in matches if m.ew is not None)
    return ns_count, ew_count


def _sides_problem(team: int, ns: int, ew: int, sides: str) -> str | None:
    """A team that changes sides under fixed sides, or sits NS too often or too seldom under
    balanced sides (one match more or fewer than half)."""
    if sides == "fixed" and ns and ew:
        return words(
            "team %(team)s sits NS %(ns)s and EW %(ew)s; under fixed sides a team keeps its side",
            team=team,
            ns=times(ns),
            ew=times(ew),
        )
    low, high = -(-(ns + ew - 2) // 2), (ns + ew + 2) // 2
    if sides == "balanced" and not low <= ns <= high:
        return words(
            "team %(team)s sits NS in %(ns)s of its %(matches)s matches; "
            "balanced sides allow %(low)s to %(high)s",
            team=team,
            ns=ns,
            matches=ns + ew,
            low=max(low, 0),
            high=high,
        )
    return None


def _check_byes(
    matches: list[_Entry], byes: list[_Entry], rounds: int | None, problems: list[str]
) -> None:
    playing = _first_match_of(matches)
    seen_byes = _read_byes_against(byes, playing, problems)
    if rounds is None:
        return
    busy: dict[int, set[int]] = defaultdict(set)
    for round_, team in [*playing, *seen_byes]:
        busy[team].add(round_)
    for team in sorted(busy):
        _check_every_round_busy(team, busy[team], rounds, problems)


def _check_every_round_busy(team: int, busy: set[int], rounds: int, problems: list[str]) -> None:
    """The team plays or has a bye in every round."""
    idle = complement(sorted(busy), 1, rounds)
    if idle:
        problems.append(
            words(
                "team %(team)s neither plays nor has a bye in round %(list)s",
                team=team,
                list=ranges(idle),
            )
            if count_of(idle) == 1
            else words(
                "team %(team)s neither plays nor has a bye in rounds %(list)s",
                team=team,
                list=ranges(idle),
            )
        )


def _first_match_of(matches: list[_Entry]) -> dict[tuple[int, int], int]:
    """(round, team) -> the number of the team's first match that round."""
    playing: dict[tuple[int, int], int] = {}
    for match in matches:
        if match.round is not None:
            for team in match.players:
                playing.setdefault((match.round, team), match.number)
    return playing


def _read_byes_against(
    byes: list[_Entry], playing: dict[tuple[int, int], int], problems: list[str]
) -> dict[tuple[int, int], int]:
    """Each (round, team) of a bye with its first bye's number; a bye given twice, or to a
    team that plays that round, is a problem."""
    seen_byes: dict[tuple[int, int], int] = {}
    for bye in byes:
        if bye.round is None or bye.team is None:
            continue
        key = (bye.round, bye.team)
        if key in seen_byes:
            problems.append(
                words(
                    "bye #%(number)s repeats bye #%(first)s (team %(team)s, round %(round)s)",
                    number=bye.number,
                    first=seen_byes[key],
                    team=bye.team,
                    round=bye.round,
                )
            )
        seen_byes.setdefault(key, bye.number)
        if key in playing:
            problems.append(
                words(
                    "bye #%(number)s: team %(team)s has a bye in round %(round)s "
                    "but plays match #%(match)s there",
                    number=bye.number,
                    team=bye.team,
                    round=bye.round,
                    match=playing[key],
                )
            )
    return seen_byes


def _meetings(matches: list[_Entry]) -> Counter[tuple[int, int]]:
    """(team, higher team) -> the number of matches they play against each other."""
    return Counter(
        (min(m.ns, m.ew), max(m.ns, m.ew))
        for m in matches
        if m.ns is not None and m.ew is not None and m.ns != m.ew
    )


def _check_max_meetings(matches: list[_Entry], claimed: int | None, problems: list[str]) -> None:
    if claimed is None:
        return
    pairs = _meetings(matches)
    actual = max(pairs.values(), default=0)
    if actual == claimed:
        return
    if actual == 0:
        problems.append(
            words("'max_meetings' is %(claimed)s, but no two teams meet", claimed=claimed)
        )
        return
    first, second = min(pair for pair, count in pairs.items() if count == actual)
    problems.append(
        words(
            "'max_meetings' is %(claimed)s, but the most two teams meet is %(actual)s "
            "(teams %(first)s and %(second)s meet %(times)s)",
            claimed=claimed,
            actual=actual,
            first=first,
            second=second,
            times=times(actual),
        )
    )


# --- wording ---------------------------------------------------------------------------------


def _matches(numbers: list[int]) -> str:
    return words("matches %(list)s", list=", ".join(f"#{number}" for number in numbers))
