"""Par of a Pymtheg double-dummy table (engine/games/pymtheg/par.py): cases worked by hand,
and a cross-check against a brute force that plays the real auction (the engine's
``AuctionState``, every call spelling it offers), the trump named after it, the double and the
redouble, and scores each ending through ``score_record``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.games.pymtheg.auction import AuctionState, parse_call
from engine.games.pymtheg.cards import Seat
from engine.games.pymtheg.par import par
from engine.games.pymtheg.records import Options
from engine.games.pymtheg.rulesets import get_ruleset
from engine.games.pymtheg.scoring import score_record
from engine.games.pymtheg.solver import STRAINS

SEATS = "NESW"


def table(
    ns_tricks: dict[str, int],
    *,
    ry: dict[str, int] | None = None,
    ry3: tuple[str, ...] = (),
    lon: dict[str, list[str]] | None = None,
    opening: str = "N",
    direction: str = "clockwise",
    ruleset: str = "manual-2016",
) -> dict[str, Any]:
    """A table from North-South's tricks per strain; ``ry``: the seats that make Ry, with
    their partner's fewest tricks (Ry 2)."""
    ry, lon = ry or {}, lon or {}
    return {
        "opening": opening,
        "direction": direction,
        "ruleset": ruleset,
        "tricks": {
            strain: {seat: n if seat in "NS" else 15 - n for seat in SEATS}
            for strain, n in ns_tricks.items()
        },
        "contracts": {
            seat: {
                "R": seat in ry,
                "R2": ry.get(seat),
                "R3": seat in ry3,
                "L": lon.get(seat, []),
            }
            for seat in SEATS
        },
    }


def contracts(result) -> set[tuple]:
    return {(c.declarer, c.bid, c.trump, c.announced, c.double) for c in result.contracts}


# -- worked by hand -----------------------------------------------------------------------------


def test_a_lone_partscore_goes_to_the_team_that_makes_it():
    # NS take 12 in fire, 8 elsewhere: Gâm +3 in fire announced during the bidding (90);
    # East-West's cheapest way over it, a lost Ry doubled, would cost 300.
    result = par(table({"fire": 12, "earth": 8, "water": 8, "wind": 8, "nt": 8}))
    assert (result.ns, result.ew) == (90, -90)
    assert contracts(result) == {
        ("N", "G+3", "fire", "during", "none"),
        ("S", "G+3", "fire", "during", "none"),
    }
    assert result.exact and not result.second_auction


def test_a_ry_bid_first_shuts_out_the_opponents_ry():
    # NS make Gâm +3 in no-trump (180 announced during); East makes Ry (150) and Ry 2 (West
    # held to 5: 100). Had East bid Ry over North's Gâm, NS could only go on to Gâm +4 down
    # with Ry's 150 owed. So North opens Ry himself (he cannot make it): East's one way over
    # it is Ry 2 for 100 and he passes; South takes his partner out to Gâm +4, free of
    # liability (it is not over an opponent's Ry), 5 down doubled: 2 x 65 = 130.
    tricks = {"fire": 8, "earth": 8, "water": 8, "wind": 8, "nt": 12}
    result = par(table(tricks, ry={"E": 5}))
    assert (result.ns, result.ew) == (-130, 130)
    assert contracts(result) == {
        ("S", "G+4", strain, "after", "x") for strain in ("fire", "earth", "water", "wind")
    }


def test_ry_2_is_worth_its_partners_tricks_and_a_gam_sacrifice_beats_it():
    # East makes Ry 2 with West held to 2 tricks: 200 - 40 = 160, more than Ry's 150. North-
    # South, 7 tricks in every strain, go down 7 in Gâm +5 (trump named after) doubled:
    # 2 x (70 + 7) = 154, less than 160.
    tb = table({"fire": 7, "earth": 7, "water": 7, "wind": 7, "nt": 7}, ry={"E": 2})
    result = par(tb)
    assert (result.ns, result.ew) == (-154, 154)
    assert {(c.bid, c.announced, c.double) for c in result.contracts} == {("G+5", "after", "x")}
    assert brute_force(tb)[:2] == (-154, 154)
    # With 3 tricks in every strain the cheapest sacrifice, Gâm +5 down 11 doubled, costs
    # 2 x 81 = 162: East keeps his Ry 2.
    tb = table({"fire": 3, "earth": 3, "water": 3, "wind": 3, "nt": 3}, ry={"E": 2})
    result = par(tb)
    assert (result.ns, contracts(result)) == (-160, {("E", "R2", None, None, "none")})


def test_the_opening_seat_decides_between_two_equal_partscores():
    # Each team makes plain Gâm in one suit (30 announced during). A player who passes is
    # out for good: the team that calls first takes the contract.
    tricks = {"fire": 9, "earth": 7, "water": 6, "wind": 8, "nt": 7}
    north = par(table(tricks, opening="N"))
    east = par(table(tricks, opening="E"))
    assert (north.ns, contracts(north)) == (30, {("N", "G", "fire", "during", "none")})
    assert (east.ns, contracts(east)) == (-30, {("E", "G", "water", "during", "none")})


def test_a_cheap_sacrifice_is_doubled_and_beats_the_contract():
    # NS make Lon in no-trump (6000 announced during); EW cannot outbid Lon, so NS win it.
    # With NS at Gâm +6 only (300), EW have no bid above Gâm +6 but Lon: lost doubled, far
    # more than 300, so NS keep their Gâm +6.
    lon = par(table({"fire": 8, "earth": 8, "water": 8, "wind": 8, "nt": 15}, lon={"N": ["nt"]}))
    assert lon.ns == 6000
    assert contracts(lon) == {("N", "L", "nt", "during", "none")}
    slam = par(table({"fire": 8, "earth": 8, "water": 8, "wind": 8, "nt": 15}))
    # Gâm +6 in no-trump announced during (300), or as much from East-West's Ry doubled.
    assert slam.ns == 300
    assert {(c.declarer, c.bid) for c in slam.contracts} == {
        ("N", "G+6"),
        ("S", "G+6"),
        ("E", "R"),
        ("W", "R"),
    }


def test_a_side_that_makes_nothing_still_bids_rather_than_pass_out():
    # Neither team makes a Gâm (7 or 8 tricks everywhere) nor a Ry: passing out is the worst
    # result for both, so someone goes down in the cheapest contract, doubled.
    tricks = {"fire": 8, "earth": 7, "water": 8, "wind": 7, "nt": 8}
    result = par(table(tricks))
    assert result.ns == -result.ew
    assert all(c.double == "x" and not c.made for c in result.contracts)
    assert (result.ns, result.ew) == (42, -42)  # plain Gâm down one doubled: 2 x 21
    # North passes (a bid of his would cost North-South); East or, after him, West goes down.
    assert {(c.declarer, c.bid) for c in result.contracts} == {("E", "G"), ("W", "G")}
    assert brute_force(table(tricks)) == (42, -42, {("E", "G"), ("W", "G")})


def test_house_rules_count():
    # North-South take all 15 in fire and 8 elsewhere. Plainly their Gâm +6 in fire (150)
    # is par; a bonus of 100 for all fifteen tricks below Gâm +6 changes what each level is
    # worth, and the brute force over the real scoring agrees with it.
    tb = table({"fire": 15, "earth": 8, "water": 8, "wind": 8, "nt": 8})
    assert par(tb).ns == 150
    for options in ({"all_tricks_bonus": 100}, {"heavy_failure_penalty": 50}):
        result = par(tb, Options(**options))
        assert brute_force(tb, options)[:2] == (result.ns, result.ew)
    assert par(tb, Options(all_tricks_bonus=100)).ns != 150


# -- brute force over the real auction ----------------------------------------------------------


def _record_tricks(tb: dict, declarer: str, code: str, trump: str | None) -> dict[str, int]:
    """Tricks per seat for a record of this contract that fits the table (a lost Ry: the
    bidder takes the first trick, his partner none: par's least loss)."""
    seat = Seat[declarer]
    partner = seat.partner.name
    left, right = (other for other in SEATS if Seat[other].team != seat.team)
    made = tb["contracts"][declarer]
    tricks = dict.fromkeys(SEATS, 0)
    if code in ("R", "R2"):
        if made["R2"] is None:
            tricks[declarer] = 1
        else:
            tricks[partner] = made["R2"]
            tricks[left] = 15 - made["R2"]
        return tricks
    if code == "R3":
        tricks[declarer if not made["R3"] else left] = 1 if not made["R3"] else 15
        return tricks
    team = tb["tricks"][trump][declarer]
    if code == "L" and trump not in made["L"] and team == 15:
        tricks[declarer], tricks[partner] = 14, 1
    else:
        tricks[declarer] = 15 if code == "L" and trump in made["L"] else team
        tricks[right] = 15 - tricks[declarer]
    return tricks


def _played(tb: dict, auctions: list[list[str]], options: dict, declarer: str, top) -> tuple:
    """The contract played out: the declarer names the trump (when the bid did not), the
    defenders double or not, the declarer redoubles or not. Returns (NS, EW)."""
    team = Seat[declarer].team
    trumps = [None] if top.bid.family == "ry" else [top.trump] if top.trump else list(STRAINS)
    best = None
    for trump in trumps:
        outcomes = {}
        for double in ("none", "x", "xx"):
            record = {
                "ruleset": tb["ruleset"],
                "options": options,
                "opening": tb["opening"],
                "direction": tb["direction"],
                "auctions": auctions,
                "double": double,
                "tricks": _record_tricks(tb, declarer, top.bid.code, trump or top.trump),
            }
            if trump and not top.trump:
                record["trump"] = trump
            score = score_record(record).as_dict()
            outcomes[double] = (score["ns"], score["ew"])
        mine = 0 if team == "NS" else 1
        doubled = max(outcomes["x"], outcomes["xx"], key=lambda p: p[mine])
        played = min(outcomes["none"], doubled, key=lambda p: p[mine])
        if best is None or played[mine] > best[mine]:
            best = played
    return best


def brute_force(tb: dict, options: dict | None = None) -> tuple:
    """Par by playing every auction the engine allows: (NS, EW, the final contracts)."""
    options = options or {}
    ruleset = get_ruleset(tb["ruleset"])
    opening = Seat[tb["opening"]]
    memo: dict = {}

    def value(auctions: list[list[str]], state: AuctionState) -> tuple:
        key = (str(state.highest), tuple(state.passed), state.turn, state.liability, len(auctions))
        if key in memo:
            return memo[key]
        if state.ended:
            answer = _ended(auctions, state)
        else:
            seat = state.next_seat
            mine = 0 if seat.team == "NS" else 1
            best = None
            for call in state.legal_calls():
                child = AuctionState(
                    state.order,
                    list(state.passed),
                    state.turn,
                    state.highest,
                    state.liability,
                    state.calls_made,
                )
                child.apply(parse_call(f"{seat.name}:{call}"))
                grown = [*auctions[:-1], [*auctions[-1], f"{seat.name}:{call}"]]
                found = value(grown, child)
                if best is None or found[0][mine] > best[0][mine]:
                    best = (found[0], set(found[1]))
                elif found[0] == best[0]:
                    best[1].update(found[1])
            answer = best
        memo[key] = answer
        return answer

    def _ended(auctions, state):
        if state.passed_out:
            if not ruleset.second_auction:
                return (float("-inf"), float("-inf")), set()
            if len(auctions) == 2:
                result = ruleset.second_passed_out_result
                return (result, result), set()
            return value([*auctions, []], AuctionState.start(opening, tb["direction"]))
        top = state.highest
        declarer = top.seat.name
        return _played(tb, auctions, options, declarer, top), {(declarer, top.bid.code)}

    (ns, ew), ended = value([[]], AuctionState.start(opening, tb["direction"]))
    return ns, ew, ended


def random_table(rng: random.Random) -> dict[str, Any]:
    """A table of the kind deals give: tricks spread round 7 and 8, Ry made now and then,
    Lon rarely; any opening seat, direction and ruleset."""
    ns = {strain: max(0, min(15, round(rng.gauss(7.5, 3)))) for strain in STRAINS}
    ry = {seat: rng.randint(0, 9) for seat in SEATS if rng.random() < 0.2}
    ry3 = tuple(seat for seat in SEATS if rng.random() < 0.05)
    lon = {}
    for seat in SEATS:
        full = [s for s in STRAINS if (ns[s] if seat in "NS" else 15 - ns[s]) == 15]
        lon[seat] = [s for s in full if rng.random() < 0.5]
    return table(
        ns,
        ry=ry,
        ry3=ry3,
        lon=lon,
        opening=rng.choice(SEATS),
        direction=rng.choice(("clockwise", "counterclockwise")),
        ruleset=rng.choice(("manual-2016", "rules-1709")),
    )


SEED = 20261127


@pytest.mark.parametrize("index", range(12))
def test_par_equals_the_best_play_of_the_real_auction(index):
    rng = random.Random(SEED * 100 + index)
    tb = random_table(rng)
    options = {"all_tricks_bonus": 100} if rng.random() < 0.25 else {}
    print(f"seed {SEED * 100 + index}: {tb}, options {options}")
    result = par(tb, Options(**options))
    ns, ew, ended = brute_force(tb, options)
    assert (result.ns, result.ew) == (ns, ew)
    assert {(c.declarer, c.bid) for c in result.contracts} == ended


def test_the_hand_checked_cases_agree_with_the_brute_force():
    cases = [
        table({"fire": 12, "earth": 8, "water": 8, "wind": 8, "nt": 8}),
        table({"fire": 8, "earth": 8, "water": 8, "wind": 8, "nt": 12}, ry={"E": 5}),
        table({"fire": 9, "earth": 7, "water": 6, "wind": 8, "nt": 7}, opening="E"),
    ]
    for tb in cases:
        result = par(tb)
        assert brute_force(tb)[:2] == (result.ns, result.ew)


# -- through the game interface -----------------------------------------------------------------


def test_the_game_gives_par_in_words_under_the_tournaments_house_rules():
    from engine.games import get_game

    game = get_game("pymtheg")
    tb = table({"fire": 12, "earth": 8, "water": 8, "wind": 8, "nt": 8})
    found = game.analysis_par(tb, {"ruleset": "manual-2016"})
    assert (found["ns"], found["ew"]) == (90, -90)
    assert found["words"] == (
        "Par: North–South +90: Gâm +3 by North or South, Fire named in the bid, made"
    )
    tb = table({"fire": 15, "earth": 8, "water": 8, "wind": 8, "nt": 8})
    plain = game.analysis_par(tb, {"ruleset": "manual-2016"})
    bonus = game.analysis_par(tb, {"ruleset": "manual-2016", "all_tricks_bonus": 100})
    assert plain["ns"] == 150 and bonus["ns"] != 150


def test_a_partly_solved_table_shows_what_is_known_and_marks_the_rest_not_analysed():
    from engine.games import get_game

    game = get_game("pymtheg")
    inputs = {"opening": "N", "direction": "clockwise", "ruleset": "manual-2016"}
    parts = {
        "fire": {"ns": 10, "lon": []},
        "nt": {"ns": 0, "lon": ["E"]},
    }
    view = game.analysis_partial_view(inputs, parts)
    assert view["caption"].endswith("partly analysed")
    north, east = view["rows"][0], view["rows"][1]
    assert north == ["North", 10, "not analysed", "not analysed", "not analysed", 0]
    assert east == ["East", 5, "not analysed", "not analysed", "not analysed", 15]
    assert view["notes"] == [
        "Ry: not analysed",
        "Ry 3: not analysed",  # a search of the Ry part, not the no-trump tricks
        "Lon made by East in No-trump (not analysed in Earth, Water, Wind)",
    ]
    assert game.analysis_partial_view(inputs, {}) is None
    # Once every part is in, the partial view is the whole table's view.
    whole = {strain: {"ns": 7, "lon": []} for strain in STRAINS}
    whole["ry"] = {"ry": dict.fromkeys(SEATS), "ry3": {"NS": False, "EW": True}}
    combined = game.combine_analysis(inputs, whole)
    assert game.analysis_partial_view(inputs, whole) == game.analysis_view(combined)
    assert [combined["contracts"][seat]["R3"] for seat in SEATS] == [False, True, False, True]
    assert "Ry 3 made by East, West" in game.analysis_view(combined)["notes"]
