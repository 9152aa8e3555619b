"""A small scheduled tournament for the scorer's side: 4 teams, 2 tables, 2 rounds.

Round 1: table 1 team 1 (NS) v team 2 (EW), table 2 team 3 v team 4.
Round 2: table 1 team 3 v team 2, table 2 team 1 v team 4.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import pytest

from tests.tournaments.factories import (
    BoardFactory,
    EntrantFactory,
    OrganiserFactory,
    TableFactory,
    TournamentFactory,
)
from tournaments.models import Entrant, Match, Status, Tournament

# North's entry for a plain Gâm made with 10 tricks: NS +21.
GAM_MADE = {
    "auctions": [["N:G", "E:P", "S:P", "W:P"]],
    "trump": "fire",
    "tricks": {"NS": 10, "EW": 5},
}
# East's Ry lost: NS +150.
RY_LOST = {"auctions": [["N:P", "E:R", "S:P", "W:P"]], "tricks": {"N": 1, "E": 1, "S": 0, "W": 0}}


def new_id() -> str:
    return uuid.uuid4().hex


@dataclass
class Cup:
    tournament: Tournament
    entrants: list[Entrant]
    matches: dict[tuple[int, int], Match]  # (round, table) -> match

    def match(self, round_: int, table: int) -> Match:
        return self.matches[(round_, table)]


def build_cup(slug: str = "cup", ruleset: str = "manual-2016") -> Cup:
    tournament = TournamentFactory(slug=slug, ruleset=ruleset, status=Status.SCHEDULED)
    entrants = [
        EntrantFactory(tournament=tournament, number=n, name=f"Team {n}") for n in range(1, 5)
    ]
    tables = [TableFactory(tournament=tournament, number=n) for n in (1, 2)]
    for table in tables:
        BoardFactory(table=table, number=1)
    plan = {(1, 1): (1, 2), (1, 2): (3, 4), (2, 1): (3, 2), (2, 2): (1, 4)}
    matches = {
        key: Match.objects.create(
            round=key[0],
            table=tables[key[1] - 1],
            north_entrant=entrants[ns - 1],
            east_entrant=entrants[ew - 1],
        )
        for key, (ns, ew) in plan.items()
    }
    return Cup(tournament, entrants, matches)


@pytest.fixture
def cup(db) -> Cup:
    return build_cup()


@pytest.fixture
def director(db):
    return OrganiserFactory()
