"""The solver against DDS (through the endplay package) on 200 random bridge deals: all 20
numbers of every table equal.

DDS's tables of the 200 seeded deals are recorded in ``dds_tables.json`` (written by
``record_dds_tables.py`` with the pinned endplay): DDS gives the same table of a deal every
time, and asking it again would cost about a fifth of the solver's own time. The test checks
that the file holds exactly the 200 deals drawn from the seed, and asks DDS itself again for
every tenth deal, so a file that is not DDS's answer fails.
"""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest

from engine.core.errors import DealError
from engine.solver import PlayRules, Solver
from engine.solver.bridge import RANKS, dd_table, parse_pbn

dds = pytest.importorskip("endplay.dds")
endplay_types = pytest.importorskip("endplay.types")

SEED = 52
DEALS = 200
RECORDED = Path(__file__).with_name("dds_tables.json")
ASKED_AGAIN = range(0, DEALS, 10)  # the deals DDS is asked about again in every run


def random_pbn(rng: random.Random) -> str:
    pack = [(suit, rank) for suit in range(4) for rank in range(13)]
    rng.shuffle(pack)
    hands = []
    for seat in range(4):
        cards = pack[13 * seat : 13 * seat + 13]
        hands.append(
            ".".join(
                "".join(
                    RANKS[rank] for rank in sorted((r for s, r in cards if s == suit), reverse=True)
                )
                for suit in range(4)
            )
        )
    return "N:" + " ".join(hands)


def random_deals() -> list[str]:
    """The 200 deals, drawn in order from one generator seeded with ``SEED``."""
    rng = random.Random(SEED)
    return [random_pbn(rng) for _number in range(DEALS)]


def dds_table(pbn: str) -> list[int]:
    """DDS's 20 numbers, in the order of ``dd_table``."""
    rows = dds.calc_dd_table(endplay_types.Deal(pbn)).to_list()
    return [tricks for row in rows for tricks in row]


@functools.cache
def recorded_tables() -> list[dict]:
    return json.loads(RECORDED.read_text())


@pytest.fixture(scope="module")
def solver() -> Solver:
    """One solver for the module, as for the deals of a tournament: each table is solved from
    scratch (the transposition table is emptied when the strain changes)."""
    return Solver()


# Each deal is a test of its own, so that the two test processes share the 200 between them.
@pytest.mark.parametrize(
    ("number", "pbn"),
    [pytest.param(number, pbn, id=f"deal-{number}") for number, pbn in enumerate(random_deals())],
)
def test_random_deals_equal_dds(number, pbn, solver):
    print("seed", SEED, "deal", number)
    recorded = recorded_tables()[number]
    assert recorded["pbn"] == pbn, number
    if number in ASKED_AGAIN:
        assert dds_table(pbn) == recorded["table"], (number, pbn)
    assert dd_table(parse_pbn(pbn), solver) == recorded["table"], (number, pbn)


def test_the_recorded_tables_are_of_the_200_seeded_deals():
    assert [entry["pbn"] for entry in recorded_tables()] == random_deals()
    assert all(len(entry["table"]) == 20 for entry in recorded_tables())


def test_there_are_200_distinct_deals():
    assert len(set(random_deals())) == DEALS == 200


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AKQ.T98.J765.432", "seat letter"),
        ("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98", "4 hands"),
        ("N:AKQJ.T98.765.43X T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765", "'X'"),
        ("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.76A", "twice"),
        ("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.76", "12 cards"),
    ],
)
def test_bad_bridge_deals_are_refused(text, message):
    with pytest.raises(DealError, match=message):
        parse_pbn(text)


def test_a_search_past_its_limit_gives_no_number():
    hands = parse_pbn(random_pbn(random.Random(SEED)))
    solver = Solver(memory_mib=16)
    rules = PlayRules(trump=None)
    with pytest.raises(TimeoutError):
        solver.side_tricks(hands, {0, 2}, leader=1, rules=rules, max_nodes=1000)
    # What the interrupted search stored is true: the same solver still answers right.
    expected = Solver(memory_mib=16).side_tricks(hands, {0, 2}, leader=1, rules=rules)
    assert solver.side_tricks(hands, {0, 2}, leader=1, rules=rules) == expected
