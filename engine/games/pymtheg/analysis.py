"""A Pymtheg deal's double-dummy table in parts, one strain a part, for a job that solves the
parts side by side and each under its own time limit (docs/double-dummy.md, "On the hand
records").

A strain's part is North-South's tricks in it with the table's opening seat leading, and the
seats that make Lon in it; the part ``ry`` holds the Ry contracts (played without a trump),
whose searches may take longer than a strain's. ``combine`` puts the six parts together as
``engine.games.pymtheg.solver.analyse`` gives a whole table: ``tricks`` per strain and
declarer, ``contracts`` per seat.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from engine.core.messages import Words, joined, words
from engine.games.base import Game
from engine.games.pymtheg.cards import CARDS_PER_HAND, SEATS, Deal, Seat, seat_order
from engine.games.pymtheg.par import par, par_in_words, ruleset_options
from engine.games.pymtheg.records import Options
from engine.games.pymtheg.rulesets import get_ruleset
from engine.games.pymtheg.solver import (
    STRAINS,
    _strain_rules,
    ry3_made,
    ry_partner_tricks,
    solver_hands,
    takes_all_alone,
)
from engine.games.pymtheg.words import SEAT_NAMES, TRUMP_WORDS
from engine.solver import Solver


def inputs(settings: Mapping[str, Any], opening: Seat) -> dict[str, Any]:
    """What a table of a board depends on beside the deal (JSON-ready)."""
    return {
        "opening": opening.name,
        "direction": settings["direction"],
        "ruleset": settings["ruleset"],
    }


PARTS = (*STRAINS, "ry")


def analyse_part(deal: Deal, given: Mapping[str, Any], part: str, solver: Solver) -> dict:
    """One strain's part: ``{"ns": tricks, "lon": [seats]}``; the part ``ry``: ``{"ry":
    {seat: None (lost) or the partner's fewest tricks (made)}}``."""
    if part not in PARTS:
        raise ValueError(f"no part {part!r} (one of {', '.join(PARTS)})")
    direction = given["direction"]
    ruleset = get_ruleset(given["ruleset"])
    order = seat_order(Seat.N, direction)
    hands = solver_hands(deal, direction)
    leader = order.index(Seat[given["opening"]])
    rules = _strain_rules("nt" if part == "ry" else part, ruleset)
    if part == "ry":
        return {
            "ry": _ry(hands, order, leader, rules, solver),
            "ry3": {
                team: ry3_made(solver, hands, order.index(first), leader=leader, rules=rules)
                for team, first in (("NS", Seat.N), ("EW", Seat.E))
            },
        }
    ns = solver.side_tricks(hands, {0, 2}, leader=leader, rules=rules)
    lon = [
        seat.name
        for seat in SEATS
        if _team_share(ns, seat) == CARDS_PER_HAND
        and takes_all_alone(solver, hands, order.index(seat), leader, rules)
    ]
    return {"ns": ns, "lon": lon}


def _team_share(ns: int, seat: Seat) -> int:
    """The tricks of ``seat``'s team, from North-South's."""
    return ns if seat.team == "NS" else CARDS_PER_HAND - ns


def _ry(
    hands: tuple[int, ...], order: tuple[Seat, ...], leader: int, rules: Any, solver: Solver
) -> dict[str, int | None]:
    """For each seat as Ry's bidder: None when lost, else the partner's fewest tricks."""
    return {
        seat.name: ry_partner_tricks(solver, hands, order.index(seat), leader=leader, rules=rules)
        for seat in SEATS
    }


def combine(given: Mapping[str, Any], parts: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The whole table from the six parts: ``opening``, ``direction``, ``ruleset``,
    ``tricks`` ``{strain: {declarer: his team's tricks}}`` and ``contracts`` ``{seat: {"R",
    "R2", "R3", "L"}}`` as the solver's ``analyse`` gives them."""
    tricks = {
        strain: {seat.name: _team_share(parts[strain]["ns"], seat) for seat in SEATS}
        for strain in STRAINS
    }
    ry = parts["ry"]["ry"]
    ry3 = _ry3_by_seat(parts["ry"], parts["nt"]["ns"])
    contracts = {
        seat.name: {
            "R": ry[seat.name] is not None,
            "R2": ry[seat.name],
            "R3": ry3[seat.name],
            "L": [strain for strain in STRAINS if seat.name in parts[strain]["lon"]],
        }
        for seat in SEATS
    }
    return {
        "opening": given["opening"],
        "direction": given["direction"],
        "ruleset": given["ruleset"],
        "tricks": tricks,
        "contracts": contracts,
    }


def _ry3_by_seat(ry_part: Mapping[str, Any], ns_in_nt: int | None) -> dict[str, bool]:
    """Ry 3 made or not by each seat, from the Ry part's own search (``ry3`` per team). A
    Ry part solved before it had one falls back on the no-trump tricks (a team that takes
    none when it tries), the ``{}`` when those are not known either."""
    if "ry3" in ry_part:
        return {seat.name: bool(ry_part["ry3"][seat.team]) for seat in SEATS}
    if ns_in_nt is None:
        return {}
    team_nt = {"NS": ns_in_nt, "EW": CARDS_PER_HAND - ns_in_nt}
    return {seat.name: team_nt[seat.team] == 0 for seat in SEATS}


def _team_tricks(record: Mapping[str, Any], team: str) -> int | None:
    tricks = record.get("tricks")
    if not isinstance(tricks, Mapping):
        return None
    if team in tricks:
        return int(tricks[team])
    seats = [seat.name for seat in SEATS if seat.team == team]
    if all(seat in tricks for seat in seats):
        return sum(int(tricks[seat]) for seat in seats)
    return None


class DoubleDummyTables(Game):
    """Pymtheg's double-dummy tables behind the game interface (``Game.analyse_deal`` and
    the rest): six parts, one a strain and one the Ry contracts, each solved with the table's
    opening seat leading."""

    analysis_memory_mib = 160

    def analysis_inputs(
        self, settings: Mapping[str, Any], *, table: int, players: int, dealer: str
    ) -> dict[str, Any] | None:
        return inputs(settings, self.opening_seat(settings, table))

    def analysis_parts(self, inputs: Mapping[str, Any]) -> tuple[str, ...]:
        return PARTS

    def analyse_deal(
        self, deal: Any, inputs: Mapping[str, Any], *, part: str, solver: Any = None
    ) -> dict[str, Any]:
        return analyse_part(deal, inputs, part, solver or Solver(self.analysis_memory_mib))

    def combine_analysis(
        self, inputs: Mapping[str, Any], parts: Mapping[str, Mapping[str, Any]]
    ) -> dict[str, Any]:
        return combine(inputs, parts)

    def analysis_view(self, table: Mapping[str, Any]) -> dict[str, Any]:
        """Declarers down, strains across: the tricks of the declarer's team; then the Ry and
        Lon contracts each seat makes."""
        ns = {strain: table["tricks"][strain]["N"] for strain in STRAINS}
        contracts = table["contracts"]
        ry = {seat.name: contracts[seat.name]["R2"] for seat in SEATS}
        ry3 = {seat.name: bool(contracts[seat.name]["R3"]) for seat in SEATS}
        lon = {
            strain: [seat.name for seat in SEATS if strain in contracts[seat.name]["L"]]
            for strain in STRAINS
        }
        return _view(table, ns, ry, ry3, lon)

    def analysis_partial_view(
        self, inputs: Mapping[str, Any], parts: Mapping[str, Mapping[str, Any]]
    ) -> dict[str, Any] | None:
        """What the parts solved so far tell, each strain or Ry still missing "not
        analysed"; None before any part is in."""
        if not parts:
            return None
        ns = {strain: parts[strain]["ns"] for strain in STRAINS if strain in parts}
        lon = {strain: parts[strain]["lon"] for strain in STRAINS if strain in parts}
        if "ry" not in parts:
            return _view(inputs, ns, None, {}, lon)
        ry3 = _ry3_by_seat(parts["ry"], ns.get("nt"))
        return _view(inputs, ns, parts["ry"]["ry"], ry3, lon)

    def analysis_par(
        self, table: Mapping[str, Any], settings: Mapping[str, Any]
    ) -> dict[str, Any] | None:
        """The par of a whole table under the tournament's house rules (``par.par``), with
        ``words``."""
        options = ruleset_options(settings)
        key = json.dumps(
            [table[name] for name in ("opening", "direction", "ruleset", "tricks", "contracts")],
            sort_keys=True,
        )
        return dict(_par(key, options))

    def analysis_beside(
        self, table: Mapping[str, Any], record: Mapping[str, Any], score: Mapping[str, Any]
    ) -> str | None:
        """Gâm: "made 11, double dummy 12" (the tricks of the playing team); Ry and Lon: made
        or not, and whether double dummy makes it."""
        contract, declarer = score.get("contract"), score.get("declarer")
        if score.get("passed_out") or not contract or declarer not in Seat.__members__:
            return None
        if contract not in ("R", "R2", "R3", "L"):
            return _gam_beside(table, record, score.get("trump"), str(declarer))
        makeable = _makeable(table["contracts"][declarer], contract, score.get("trump"))
        return _made_beside(bool(score.get("made")), makeable)


def _makeable(contracts: Mapping[str, Any], contract: str, trump: Any) -> bool:
    """Whether double dummy makes a Ry or a Lon contract."""
    if contract == "L":
        return trump in contracts["L"]
    return bool(contracts["R3"] if contract == "R3" else contracts["R"])


def _gam_beside(
    table: Mapping[str, Any], record: Mapping[str, Any], strain: Any, declarer: str
) -> Words | None:
    """A Gâm beside its double dummy tricks: the playing team's tricks where the record
    holds them; None for a strain the table has not analysed."""
    if strain not in table["tricks"]:
        return None
    taken = _team_tricks(record, Seat[declarer].team)
    possible = table["tricks"][strain][declarer]
    if taken is None:
        return words("double dummy %(possible)s", possible=possible)
    return words("made %(taken)s, double dummy %(possible)s", taken=taken, possible=possible)


def _made_beside(made: bool, makeable: bool) -> Words:
    """A Ry's or a Lon's outcome beside whether double dummy makes it."""
    if made:
        return words("made, double dummy made") if makeable else words("made, double dummy lost")
    return words("lost, double dummy made") if makeable else words("lost, double dummy lost")


NOT_ANALYSED = words("not analysed")
NO_ONE: Words = words("no one")


def _view(
    given: Mapping[str, Any],
    ns: Mapping[str, int],
    ry: Mapping[str, int | None] | None,
    ry3: Mapping[str, bool],
    lon: Mapping[str, list[str]],
) -> dict[str, Any]:
    """The table's layout from North-South's tricks per strain, the Ry part (None: not
    solved), Ry 3 made by each seat (``{}``: not known) and the seats making Lon per strain;
    a strain missing from ``ns`` reads "not analysed" in every row."""
    rows = [_row(seat, ns) for seat in SEATS]
    complete = len(ns) == len(STRAINS) and ry is not None
    return {
        "caption": _caption(given, complete),
        "columns": [_strain_words(strain) for strain in STRAINS],
        "rows": rows,
        "notes": [_ry_note(ry), _ry3_note(ry3), _lon_note(lon)],
    }


def _row(seat: Seat, ns: Mapping[str, int]) -> list[Any]:
    """A declarer's row: his team's tricks in each strain, or "not analysed"."""
    return [
        SEAT_NAMES[seat.name],
        *(
            NOT_ANALYSED if strain not in ns else _team_share(ns[strain], seat)
            for strain in STRAINS
        ),
    ]


def _caption(given: Mapping[str, Any], complete: bool) -> Words:
    opening = Seat[given["opening"]]
    caption = words(
        "Tricks of the declarer's team, %(seat)s leading (play %(direction)s)",
        seat=SEAT_NAMES[opening.name],
        direction=words("clockwise")
        if given["direction"] == "clockwise"
        else words("counter-clockwise"),
    )
    return caption if complete else words("%(caption)s; partly analysed", caption=caption)


def _listed(names: list[Any]) -> str:
    """Names joined by commas, each translated on its own; "no one" when there is none."""
    return joined(names, ", ") if names else NO_ONE


def _ry_note(ry: Mapping[str, int | None] | None) -> Words:
    if ry is None:
        return words("Ry: not analysed")
    made = [
        words(
            "%(seat)s (Ry 2: his partner takes %(tricks)s)",
            seat=SEAT_NAMES[seat.name],
            tricks=ry[seat.name],
        )
        for seat in SEATS
        if ry[seat.name] is not None
    ]
    return words("Ry made by %(seats)s", seats=_listed(made))


def _ry3_note(ry3: Mapping[str, bool]) -> Words:
    if not ry3:
        return words("Ry 3: not analysed")
    made = [SEAT_NAMES[seat.name] for seat in SEATS if ry3[seat.name]]
    return words("Ry 3 made by %(seats)s", seats=_listed(made))


def _lon_note(lon: Mapping[str, list[str]]) -> Words:
    made = [
        words("%(seat)s in %(strain)s", seat=SEAT_NAMES[seat.name], strain=_strain_words(strain))
        for seat in SEATS
        for strain in STRAINS
        if seat.name in lon.get(strain, [])
    ]
    missing = [_strain_words(strain) for strain in STRAINS if strain not in lon]
    note = words("Lon made by %(seats)s", seats=_listed(made))
    if not missing:
        return note
    return words("%(note)s (not analysed in %(strains)s)", note=note, strains=joined(missing, ", "))


@lru_cache(maxsize=4096)
def _par(key: str, options: Options) -> tuple[tuple[str, Any], ...]:
    """Par of a table given as JSON (cached: pages read the same tables again and again)."""
    table = json.loads(key)
    result = par(
        dict(zip(("opening", "direction", "ruleset", "tricks", "contracts"), table, strict=True)),
        options,
    )
    return (*result.as_dict().items(), ("words", par_in_words(result)))


def _strain_words(strain: str) -> Words:
    return words("No-trump") if strain == "nt" else TRUMP_WORDS[strain]
