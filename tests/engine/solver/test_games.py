"""Each game's double-dummy table: Pyramid's against minimax on whole deals, Pymtheg's on deals
whose answers follow from the cards, and the command line with good and bad deals."""

from __future__ import annotations

import json
import random

import pytest

from engine.__main__ import main
from engine.core.errors import DealError
from engine.core.seats import turn_order
from engine.games.pymtheg.cards import parse_deal as parse_pymtheg
from engine.games.pymtheg.solver import analyse, ry_lon_table, tricks_table
from engine.games.pyramid.cards import deal_cards, format_deal
from engine.games.pyramid.solver import TRUMPS, declarer_of, solver_hands, sure_tricks
from engine.solver import Solver, hand_cards
from tests.engine.solver.reference import minimax

SEED = 24
#: Each Pymtheg seat holds one whole suit: North fire, East earth, South water, West wind.
SUITED = "N:FEDCBA987654321... .FEDCBA987654321.. ..FEDCBA987654321. ...FEDCBA987654321"


@pytest.mark.parametrize("players", [2, 3])
def test_pyramid_sure_tricks_equal_minimax(players):
    print("seed", SEED)
    rng = random.Random(f"{SEED}:{players}")
    solver = Solver(memory_mib=8)
    for board in range(6 if players == 2 else 2):
        deal = deal_cards(rng, players=players, dealer="NESW"[board % players])
        direction = rng.choice(["clockwise", "counterclockwise"])
        table = sure_tricks(deal, direction=direction, solver=solver)
        order = turn_order("N", players, direction)
        hands = [hand_cards(mask) for mask in solver_hands(deal, direction)]
        leader = order.index(declarer_of(deal, direction))
        for index, trump in enumerate(TRUMPS):
            for player, seat in enumerate(order):
                expected = minimax(
                    hands,
                    leader=leader,
                    weights=[1 if p == player else 0 for p in range(players)],
                    maximisers={player},
                    trump=None if trump == "nt" else index,
                    must_trump=True,
                )
                assert table[seat][trump] == expected, (format_deal(deal), seat, trump)


def test_pymtheg_table_of_a_deal_of_whole_suits():
    deal = parse_pymtheg(SUITED)
    table = tricks_table(deal)
    # North leads fire: no-trump and fire are all North-South's; a trump of East-West ruffs
    # the first trick and runs.
    assert table["nt"] == {"N": 15, "E": 0, "S": 15, "W": 0}
    assert table["fire"]["N"] == 15
    assert table["earth"] == {"N": 0, "E": 15, "S": 0, "W": 15}
    assert table["water"]["S"] == 15
    # East leading instead: earth and no-trump are East-West's.
    by_east = tricks_table(deal, opening=parse_pymtheg(SUITED).holder(next(iter(deal.hands[1]))))
    assert by_east["nt"]["E"] == 15


def test_pymtheg_ry_and_lon_of_a_deal_of_whole_suits():
    contracts = ry_lon_table(parse_pymtheg(SUITED))
    # North wins every no-trump trick, so North's Ry fails and South's Ry is made with the
    # partner taking all fifteen (Ry 2); East-West take nothing in no-trump: Ry 3 made.
    assert contracts["N"]["R"] is False and contracts["N"]["R2"] is None
    assert contracts["S"]["R"] is True and contracts["S"]["R2"] == 15
    assert contracts["E"]["R3"] is True and contracts["N"]["R3"] is False
    # Lon: North in fire or no-trump, South only in water (he ruffs North's lead).
    assert contracts["N"]["L"] == ["fire", "nt"]
    assert contracts["S"]["L"] == ["water"]


def test_counterclockwise_play_changes_who_ruffs():
    deal = parse_pymtheg(SUITED)
    # Counter-clockwise West plays second: in wind he ruffs North's fire lead and runs.
    assert tricks_table(deal, direction="counterclockwise")["wind"]["W"] == 15
    assert analyse(deal, ruleset="rules-1709")["ruleset"] == "rules-1709"


def _run(capsys, tmp_path, argv, lines):
    path = tmp_path / "deals.txt"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    status = main([*argv, str(path)])
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return status, out


def test_solve_command_pymtheg(capsys, tmp_path):
    status, out = _run(capsys, tmp_path, ["solve", "--game", "pymtheg"], [SUITED, "N:bad"])
    assert status == 1
    assert out[0]["tricks"]["nt"]["N"] == 15
    assert out[0]["contracts"]["S"]["L"] == ["water"]
    with pytest.raises(DealError) as refused:
        parse_pymtheg("N:bad")
    assert out[1] == {"error": str(refused.value)}


def test_solve_command_pyramid(capsys, tmp_path):
    deal = format_deal(deal_cards(random.Random(SEED), players=3, dealer="S"))
    bad = deal[:-1]  # the undealt group one card short
    status, out = _run(capsys, tmp_path, ["solve", "--game", "pyramid"], [deal, bad])
    assert status == 1
    assert out[0]["declarer"] == "N"
    assert set(out[0]["tricks"]) == {"N", "E", "S"}
    assert all(0 <= n <= 6 for row in out[0]["tricks"].values() for n in row.values())
    assert out[1]["error"].startswith("deal: ")


def test_solve_command_bridge(capsys, tmp_path):
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    status, out = _run(capsys, tmp_path, ["solve", "--bridge"], [deal, "N:AKQJ"])
    assert status == 1
    # strains S, H, D, C, NT; declarers N, E, S, W
    assert out[0] == [7, 5, 7, 5, 5, 7, 5, 7, 7, 5, 7, 5, 5, 7, 5, 7, 5, 5, 5, 5]
    assert "4 hands" in out[1]["error"]


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "--game", "twenty"],
        ["solve", "--game", "pymtheg", "--ruleset", "nonesuch"],
        ["solve", "--game", "pymtheg", "--opening", "X"],
        ["solve", "--game", "pyramid", "--opening", "N"],
    ],
)
def test_solve_command_refuses_bad_options(capsys, tmp_path, argv):
    status, out = _run(capsys, tmp_path, argv, [SUITED])
    assert status == 2
    assert out == []
