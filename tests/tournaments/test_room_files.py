"""What the files and printed cards say of a withdrawal: the results workbook's routes (the
pairs' Teams and Schedule sheets, the players' Routes sheet) and the printed route cards show
the withdrawn entrant's later rounds as withdrawn and its opponents' as byes naming it, never
the matches the withdrawal took out."""

from __future__ import annotations

import io

import openpyxl
import pytest

from publishing import services as publishing
from scoring.standings import recompute
from tests.tournaments.test_room import _event, _played
from tournaments import room

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def export_root(settings, tmp_path):
    settings.PUBLISHING_EXPORT_ROOT = tmp_path / "exports"


def _book(tournament):
    done, _ = publishing.request_export(
        tournament=tournament, kind="results", fmt="xlsx", enqueue=False
    )
    path = publishing.export_path(publishing.run_export(done.pk))
    return openpyxl.load_workbook(io.BytesIO(path.read_bytes()))


def _rows(sheet):
    header = [cell.value for cell in sheet[3]]
    return [
        dict(zip(header, row, strict=False)) for row in sheet.iter_rows(min_row=4, values_only=True)
    ]


@pytest.fixture
def pairs(organiser):
    """8 pairs at 4 tables, round 1 played, pair 3 withdrew after it; the matches it was to
    play are kept in the change."""
    tournament = _played(organiser, _event(organiser, entrants=8, tables=4, slug="files"))
    change = room.withdraw(by=organiser, entrant=tournament.entrants.get(number=3), after_round=1)
    recompute(tournament.pk)
    return tournament, change.matches


def test_the_pairs_workbook_shows_the_withdrawal_never_the_matches_taken_out(pairs):
    tournament, taken = pairs
    met = {kept["round"]: ({kept["north"], kept["east"]} - {3}).pop() for kept in taken}
    assert sorted(met) == [2, 3, 4]
    book = _book(tournament)
    entrants = _rows(book["Teams"])
    gone = [row for row in entrants if row["Team no."] == 3]
    played = [row for row in gone if row["Side"] in ("NS", "EW")]
    assert {row["Round"] for row in played} == {1}
    later = sorted((row["Round"], row["Side"], row["Opponent no."]) for row in gone[len(played) :])
    assert later == [(2, "withdrawn", None), (3, "withdrawn", None), (4, "withdrawn", None)]
    assert all(row["Note"].startswith("withdrew after round 1: no match") for row in gone[1:])
    # Nobody's route meets team 3 after round 1; each pair that was to meet it has a bye.
    assert not [r for r in entrants if r["Opponent no."] == 3 and r["Round"] != 1]
    for round_, number in met.items():
        (bye,) = [r for r in entrants if r["Team no."] == number and r["Round"] == round_]
        assert bye["Side"] == "bye" and bye["Note"].startswith("bye: 3 Team 3 withdrew")
        assert bye["Table"] == next(k["table"] for k in taken if k["round"] == round_)
    schedule = {row["Round"]: row for row in _rows(book["Schedule"])}
    assert schedule[1]["Byes"] is None
    for round_ in (2, 3, 4):
        assert "3 (withdrew)" in schedule[round_]["Byes"].split(", ")
        assert not any("3 v" in str(v) or "v 3" in str(v) for v in schedule[round_].values())


def test_the_printed_route_cards_say_withdrawn_and_name_who_withdrew(organiser_client, pairs):
    tournament, taken = pairs
    url = f"/tournaments/{tournament.slug}/print/routes/"
    gone = organiser_client.get(f"{url}?team=3").content.decode()
    assert gone.count("Withdrew after round 1 — no match") == 3
    assert "Bye — no match" not in gone
    opponent = ({taken[0]["north"], taken[0]["east"]} - {3}).pop()
    card = organiser_client.get(f"{url}?team={opponent}").content.decode()
    assert card.count("Bye: 3 Team 3 withdrew — no match this round") == 1
    assert "3. Team 3" not in card.split("<tbody>")[1].split(f"<td>{taken[0]['round']}</td>")[1]


def test_a_round_a_late_arrival_filled_is_a_match_again(organiser, pairs):
    tournament, taken = pairs
    arrival = room.late_arrival(by=organiser, tournament=tournament, name="Late Pair")
    recompute(tournament.pk)
    entrants = _rows(_book(tournament)["Teams"])
    newcomer = arrival.entrant.number
    for kept in taken:
        (other,) = {kept["north"], kept["east"]} - {3}
        mine = [r for r in entrants if r["Team no."] == other and r["Round"] == kept["round"]]
        assert [r["Opponent no."] for r in mine] == [newcomer], mine


def test_the_players_routes_sheet_shows_the_withdrawal_and_the_byes_it_left(organiser):
    tournament = _played(
        organiser, _event(organiser, entrants=16, tables=4, slug="fi", game="twenty")
    )
    change = room.withdraw(by=organiser, entrant=tournament.entrants.get(number=6), after_round=1)
    recompute(tournament.pk)
    routes = _rows(_book(tournament)["Routes"])
    mine = [(r["Round"], r["Table"], r["Seat"]) for r in routes if r["No."] == 6]
    assert mine[1:] == [(2, None, "withdrawn"), (3, None, "withdrawn"), (4, None, "withdrawn")]
    assert mine[0][1] is not None
    left = {
        (number, kept["round"]) for kept in change.matches for number in kept["seats"].values()
    } - {(6, r) for r in (2, 3, 4)}
    assert len(left) == 9  # three others at each of the three tables taken out
    for row in routes:
        if (row["No."], row["Round"]) in left:
            assert row["Table"] is None and row["Seat"] == "bye"
            assert (
                row["Note"] == "bye: 6 Player 6 withdrew (the mean of the round's ranking points)"
            )
        elif row["Table"] is None and row["No."] != 6:
            assert row["Note"] == "bye: the mean of the round's ranking points"


def test_a_place_taken_by_a_late_arrival_is_a_bye_naming_it(organiser):
    tournament = _played(organiser, _event(organiser, entrants=8, tables=4, slug="taken"))
    change = room.late_arrival(by=organiser, tournament=tournament, name="Late", displace=True)
    recompute(tournament.pk)
    entrants = _rows(_book(tournament)["Teams"])
    for kept in change.matches:
        (bye,) = [
            r for r in entrants if r["Team no."] == kept["replaced"] and r["Table"] == kept["table"]
        ]
        assert (bye["Round"], bye["Side"]) == (kept["round"], "bye")
        assert bye["Note"].startswith(
            f"bye: its place went to the late arrival {change.entrant.number} Late"
        )
