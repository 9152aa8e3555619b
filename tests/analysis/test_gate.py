"""The double-dummy table is as secret as the deal: for every game that offers one, no page or
endpoint shows it to the public or to any entrant before the hand record may be seen (the
contract suite's readers over every address of the tournament), while the organiser's deals
page shows it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from analysis.models import BoardAnalysis
from engine.games import game_ids, get_game
from tests.contract.events import build_event, organiser
from tests.contract.test_every_game import Readers, _shown
from tournaments.models import Board

OFFERING = [
    game_id
    for game_id in game_ids()
    if get_game(game_id).offers_analysis(get_game(game_id).settings())
]


def fake_parts(game_id: str, board: Board) -> dict:
    """Parts of a table as the job stores them (their numbers do not matter here)."""
    if game_id == "pymtheg":
        parts = {
            strain: {"ns": 8, "lon": []} for strain in ("fire", "earth", "water", "wind", "nt")
        }
        return {**parts, "ry": {"ry": {seat: None for seat in "NESW"}}}
    if game_id == "pyramid":
        deal = board.parsed()
        tricks = {
            seat: dict.fromkeys(("spades", "hearts", "diamonds", "clubs", "nt"), 1)
            for seat in deal.seats
        }
        return {"table": {"declarer": deal.seats[0], "direction": "clockwise", "tricks": tricks}}
    raise AssertionError(f"add {game_id}'s parts to this test")


def store_tables(tournament) -> int:
    game = tournament.game_rules
    count = 0
    for board in Board.objects.filter(table__tournament=tournament).select_related("table"):
        inputs = game.analysis_inputs(
            tournament.rules,
            table=board.table.number,
            players=tournament.table_size,
            dealer=board.dealer,
        )
        parts = fake_parts(game.id, board)
        BoardAnalysis.objects.update_or_create(
            board=board,
            defaults={
                "deal": board.deal,
                "inputs": inputs,
                "status": BoardAnalysis.Status.DONE,
                "parts": parts,
                "table": game.combine_analysis(inputs, parts),
            },
        )
        count += 1
    return count


@pytest.mark.parametrize("game_id", OFFERING)
@pytest.mark.django_db
def test_no_reader_but_the_organiser_sees_a_table_before_play(game_id):
    tournament = build_event(game_id, f"gate-{game_id}", seed="gate")
    assert store_tables(tournament) > 0
    readers = Readers(tournament)
    shown = _shown(tournament, readers)
    assert len({address for _who, address in shown}) >= 30
    leaks = [key for key, text in shown.items() if "double dummy" in text.lower()]
    assert not leaks, leaks[:5]
    staff, _user = organiser()
    deals = staff.get(reverse("tournaments:deals", args=[tournament.slug])).content.decode()
    assert "Double dummy:" in deals
