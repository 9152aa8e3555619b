"""Late arrivals, withdrawals and substitutes (tournaments.room): each action, its refusals
(nothing half-stored), its undo, and what the standings make of it."""

from __future__ import annotations

import re

import pytest
from django.db import IntegrityError, transaction

from operations.simulation import simulate_tournament
from scoring.models import Standing
from scoring.standings import recompute
from tests.tournaments.conftest import make_tournament
from tournaments import room, room_selectors, selectors, services
from tournaments.models import ActionLog, Entrant, Match, MatchSeat, RoomChange
from tournaments.services import ServiceError

pytestmark = pytest.mark.django_db


def _event(organiser, *, entrants: int, tables: int, slug: str, game: str = "pymtheg", **extra):
    if game != "pymtheg":
        tournament = services.create_tournament(
            by=organiser, name=slug, slug=slug, tables=tables, game=game, **extra
        )
        services.import_teams(
            by=organiser,
            tournament=tournament,
            rows=[services.EntrantRow(n, n, f"Player {n}", "", "") for n in range(1, entrants + 1)],
        )
    else:
        tournament = make_tournament(by=organiser, entrants=entrants, tables=tables, slug=slug)
    services.draw_schedule(by=organiser, tournament=tournament)
    services.deal_boards(by=organiser, tournament=tournament, seed="room")
    tournament.refresh_from_db()
    return tournament


def _played(organiser, tournament, rounds: int = 1):
    simulate_tournament(tournament, rounds=rounds, seed="room", by=organiser)
    tournament.refresh_from_db()
    return tournament


def _matches_of(entrant):
    return [
        m
        for m in Match.objects.filter(table__tournament=entrant.tournament).order_by("round")
        if entrant.pk in (m.north_entrant_id, m.east_entrant_id)
        or MatchSeat.objects.filter(match=m, entrant=entrant).exists()
    ]


# --- late arrival -----------------------------------------------------------------------------


def test_a_late_pair_takes_the_phantoms_place_and_undo_takes_it_back(organiser):
    tournament = _played(organiser, _event(organiser, entrants=7, tables=4, slug="seven"))
    byes = {
        r: {e.pk for e in tournament.entrants.all()}
        - {
            pk
            for m in Match.objects.filter(table__tournament=tournament, round=r)
            for pk in (m.north_entrant_id, m.east_entrant_id)
        }
        for r in (2, 3, 4)
    }
    drawn = Match.objects.filter(table__tournament=tournament).count()
    change = room.late_arrival(
        by=organiser, tournament=tournament, name="Latecomers", player1="Ann", player2="Bo"
    )
    newcomer = change.entrant
    assert change.kind == "arrival" and change.from_round == 2
    mine = _matches_of(newcomer)
    assert [m.round for m in mine] == [2, 3, 4]
    for match in mine:
        (opponent,) = {match.north_entrant_id, match.east_entrant_id} - {newcomer.pk}
        assert byes[match.round] == {opponent}  # it faces the pair that had the bye
    assert len({m.table_id for m in mine}) == 3
    log = ActionLog.objects.filter(tournament=tournament, action="late_arrival").get()
    assert "Latecomers" in log.summary and log.after["rounds"][0]["round"] == 2

    done = room.undo(by=organiser, change=change)
    assert "late arrival" in done
    assert not Entrant.objects.filter(pk=newcomer.pk).exists()
    assert Match.objects.filter(table__tournament=tournament).count() == drawn
    assert ActionLog.objects.filter(tournament=tournament, action="undo_arrival").exists()


def test_a_full_schedule_refuses_a_late_arrival_and_stores_nothing(organiser):
    tournament = _played(organiser, _event(organiser, entrants=8, tables=4, slug="eight"))
    entrants, matches = tournament.entrants.count(), Match.objects.count()
    drawn = _drawn(tournament)
    with pytest.raises(ServiceError, match=r"no phantom's place in rounds 2-4") as refused:
        room.late_arrival(by=organiser, tournament=tournament, name="Too late")
    # It says what can be done instead: who would sit out, a different pair each round.
    offer = str(refused.value)
    assert 'tick "Take a place in a match"' in offer
    assert re.search(r"round 2: \d+ Team \d+; round 3: \d+ Team \d+; round 4: \d+ Team", offer)
    assert tournament.entrants.count() == entrants and Match.objects.count() == matches
    assert _drawn(tournament) == drawn
    assert not ActionLog.objects.filter(action="late_arrival").exists()
    assert not RoomChange.objects.exists()


def test_a_late_arrival_once_every_round_has_started_is_refused_with_that_reason(organiser):
    tournament = _played(organiser, _event(organiser, entrants=7, tables=4, slug="late"), rounds=4)
    with pytest.raises(ServiceError) as refused:
        room.late_arrival(by=organiser, tournament=tournament, name="Too late", displace=True)
    assert refused.value.messages == [
        "every round has started: there is no round left to seat a late arrival in"
    ]
    assert not RoomChange.objects.exists()


def _drawn(tournament):
    """The schedule as numbers: (round, table, north, east, seats)."""
    return {
        (
            m.round,
            m.table.number,
            m.north_entrant.number,
            m.east_entrant.number,
            *sorted(m.seats.values_list("seat", "entrant__number")),
        )
        for m in Match.objects.filter(table__tournament=tournament).select_related(
            "table", "north_entrant", "east_entrant"
        )
    }


@pytest.mark.parametrize(("game", "entrants", "tables"), [("pymtheg", 8, 4), ("twenty", 16, 4)])
def test_where_no_table_is_free_a_late_arrival_takes_a_place_and_undo_gives_it_back(
    organiser, game, entrants, tables
):
    tournament = _played(
        organiser, _event(organiser, entrants=entrants, tables=tables, slug="full", game=game)
    )
    drawn = _drawn(tournament)
    change = room.late_arrival(by=organiser, tournament=tournament, name="Late", displace=True)
    newcomer = change.entrant
    mine = _matches_of(newcomer)
    assert [m.round for m in mine] == [2, 3, 4] and Match.objects.count() == len(drawn)
    sat_out = [kept["replaced"] for kept in change.matches]
    assert change.in_words().endswith(
        f", in the place of {sat_out[0]} in round 2, {sat_out[1]} in round 3, "
        f"{sat_out[2]} in round 4"
    )
    assert len(set(sat_out)) == 3 and all(kept["seat"] for kept in change.matches)
    for kept, match in zip(change.matches, mine, strict=True):
        owner = tournament.entrants.get(number=kept["replaced"])
        assert not [m for m in _matches_of(owner) if m.round == match.round]  # a bye instead
        (card,) = selectors.route_cards(tournament, owner.number)
        assert card.stops[match.round - 1].note == (
            f"bye: its place went to the late arrival {newcomer.number} Late"
        )
    assert selectors.schedule_problems(tournament) == []  # byes by the ruling, not faults
    recompute(tournament.pk)
    assert Standing.objects.get(entrant=newcomer).status == "ok"
    assert "seated in rounds 2, 3, 4" in ActionLog.objects.get(action="late_arrival").summary
    room.undo(by=organiser, change=change)
    assert _drawn(tournament) == drawn
    assert not tournament.entrants.filter(pk=newcomer.pk).exists()


# --- withdrawal -------------------------------------------------------------------------------


def test_a_withdrawal_takes_out_later_matches_and_ranks_without_a_place(organiser):
    tournament = _played(organiser, _event(organiser, entrants=8, tables=4, slug="wd"))
    leaver = tournament.entrants.get(number=3)
    change = room.withdraw(by=organiser, entrant=leaver, after_round=1, reason="train")
    assert [m.round for m in _matches_of(leaver)] == [1]
    assert len(change.matches) == 3
    recompute(tournament.pk)
    row = Standing.objects.get(tournament=tournament, entrant=leaver)
    assert row.place is None and row.status == "withdrawn" and row.matches > 0
    placed = Standing.objects.filter(tournament=tournament, place__isnull=False)
    assert placed.count() == 7 and max(placed.values_list("place", flat=True)) <= 7
    assert ActionLog.objects.filter(action="withdraw").get().after["after_round"] == 1

    room.undo(by=organiser, change=change)
    assert [m.round for m in _matches_of(leaver)] == [1, 2, 3, 4]
    recompute(tournament.pk)
    assert Standing.objects.get(tournament=tournament, entrant=leaver).status == "ok"


def test_a_withdrawal_from_a_started_round_is_refused(organiser):
    tournament = _played(organiser, _event(organiser, entrants=8, tables=4, slug="wd2"), rounds=2)
    leaver = tournament.entrants.get(number=2)
    with pytest.raises(ServiceError, match="round 2 has started"):
        room.withdraw(by=organiser, entrant=leaver, after_round=1)
    assert [m.round for m in _matches_of(leaver)] == [1, 2, 3, 4]
    assert not RoomChange.objects.exists()
    change = room.withdraw(by=organiser, entrant=leaver, after_round=2)
    with pytest.raises(ServiceError, match="withdrawn already"):
        room.withdraw(by=organiser, entrant=leaver, after_round=3)
    _played(organiser, tournament)  # round 3 starts: the withdrawal can no longer be undone
    with pytest.raises(ServiceError, match="round 3 has started"):
        room.undo(by=organiser, change=change)
    assert RoomChange.objects.filter(pk=change.pk).exists()


def test_a_late_arrival_takes_the_place_a_withdrawn_pair_left(organiser):
    tournament = _played(organiser, _event(organiser, entrants=8, tables=4, slug="swap"))
    leaver = tournament.entrants.get(number=5)
    withdrawal = room.withdraw(by=organiser, entrant=leaver, after_round=1)
    arrival = room.late_arrival(by=organiser, tournament=tournament, name="Stand-ins")
    assert [m.round for m in _matches_of(arrival.entrant)] == [2, 3, 4]
    with pytest.raises(ServiceError, match="undo that first"):
        room.undo(by=organiser, change=withdrawal)
    room.undo(by=organiser, change=arrival)
    room.undo(by=organiser, change=withdrawal)
    assert [m.round for m in _matches_of(leaver)] == [1, 2, 3, 4]


def test_players_withdrawn_and_arriving_in_a_movement_of_individuals(organiser):
    tournament = _played(
        organiser, _event(organiser, entrants=16, tables=4, slug="tw", game="twenty")
    )
    leaver = tournament.entrants.get(number=6)
    room.withdraw(by=organiser, entrant=leaver, after_round=1)
    assert [m.round for m in _matches_of(leaver)] == [1]
    arrival = room.late_arrival(by=organiser, tournament=tournament, name="Late Lou")
    mine = _matches_of(arrival.entrant)
    assert [m.round for m in mine] == list(range(2, 2 + len(mine))) and mine
    for match in mine:
        assert match.seats.count() == 4
    recompute(tournament.pk)
    assert Standing.objects.get(entrant=leaver).status == "withdrawn"
    assert Standing.objects.get(entrant=arrival.entrant).status == "ok"


# --- substitute -------------------------------------------------------------------------------


def test_a_substitute_is_named_for_its_rounds_refused_on_overlap_and_undone(organiser):
    tournament = _played(organiser, _event(organiser, entrants=8, tables=4, slug="sub"))
    entrant = tournament.entrants.get(number=1)
    with pytest.raises(ServiceError, match="round 1 has started"):
        room.substitute(by=organiser, entrant=entrant, name="Cy", from_round=1, member=2)
    change = room.substitute(
        by=organiser, entrant=entrant, name="Cy", from_round=2, to_round=3, member=2
    )
    with pytest.raises(ServiceError, match="Cy already plays for"):
        room.substitute(by=organiser, entrant=entrant, name="Di", from_round=3, member=2)
    subs = room_selectors.substitutes_by_round(tournament)
    assert subs[(entrant.pk, 2)] == {2: "Cy"} and (entrant.pk, 4) not in subs
    assert (
        room_selectors.players_in_round(entrant, subs[(entrant.pk, 2)])
        == "Player 1a + Cy (for Player 1b)"
    )
    assert "Cy plays for" in ActionLog.objects.get(action="substitute").summary

    _played(organiser, tournament)  # round 2 starts: undo ends the substitute after it
    done = room.undo(by=organiser, change=change)
    assert "up to round 2" in done
    change.refresh_from_db()
    assert (change.from_round, change.to_round) == (2, 2)
    with pytest.raises(ServiceError, match="nothing left to undo"):
        room.undo(by=organiser, change=change)


def test_a_substitute_before_its_round_is_undone_entirely(organiser):
    tournament = _event(organiser, entrants=8, tables=4, slug="sub2")
    entrant = tournament.entrants.get(number=4)
    change = room.substitute(by=organiser, entrant=entrant, name="Eve", from_round=1, member=1)
    room.undo(by=organiser, change=change)
    assert not RoomChange.objects.exists()


def test_the_database_refuses_a_substitute_without_a_name_or_in_reverse(organiser):
    tournament = _event(organiser, entrants=8, tables=4, slug="db")
    entrant = tournament.entrants.get(number=1)
    for fields in ({"name": "", "member": 1}, {"name": "X", "member": 1, "to_round": 1}):
        with pytest.raises(IntegrityError), transaction.atomic():
            RoomChange.objects.create(
                tournament=tournament, entrant=entrant, kind="substitute", from_round=2, **fields
            )
    RoomChange.objects.create(
        tournament=tournament, entrant=entrant, kind="withdrawal", from_round=2
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        RoomChange.objects.create(
            tournament=tournament, entrant=entrant, kind="withdrawal", from_round=3
        )


def test_a_backup_keeps_the_changes_and_the_restore_undoes_them_as_well(organiser):
    import json

    from operations.backup import export_tournament, import_tournament

    tournament = _played(organiser, _event(organiser, entrants=8, tables=4, slug="bk"))
    room.withdraw(by=organiser, entrant=tournament.entrants.get(number=3), after_round=1)
    arrival = room.late_arrival(by=organiser, tournament=tournament, name="Stand-ins")
    room.substitute(
        by=organiser, entrant=tournament.entrants.get(number=1), name="Cy", from_round=2, member=2
    )
    data = json.loads(json.dumps(export_tournament(tournament)))
    assert [row["kind"] for row in data["room_changes"]] == ["withdrawal", "arrival", "substitute"]
    copy = import_tournament(data, slug="bk-copy", by=organiser)
    kinds = list(RoomChange.objects.filter(tournament=copy).values_list("kind", flat=True))
    assert kinds == ["withdrawal", "arrival", "substitute"]
    assert Standing.objects.get(tournament=copy, entrant__number=3).status == "withdrawn"
    restored = RoomChange.objects.get(tournament=copy, kind="arrival")
    assert restored.entrant.number == arrival.entrant.number
    room.undo(by=organiser, change=restored)  # numbers, not ids: the copy's own rows go
    assert not copy.entrants.filter(number=arrival.entrant.number).exists()
    assert tournament.entrants.filter(number=arrival.entrant.number).exists()


@pytest.mark.parametrize(("game", "players", "size"), [("pyramid", 9, 3), ("pysngtaut", 12, 4)])
def test_every_game_of_individuals_takes_a_late_player_where_a_withdrawal_left_room(
    organiser, game, players, size
):
    tournament = _event(
        organiser,
        entrants=players,
        tables=players // size,
        slug=f"g-{game}",
        game=game,
        table_size=size,
    )
    leaver = tournament.entrants.get(number=2)
    room.withdraw(by=organiser, entrant=leaver, after_round=0)
    assert _matches_of(leaver) == []
    arrival = room.late_arrival(by=organiser, tournament=tournament, name="Late")
    mine = _matches_of(arrival.entrant)
    assert mine and all(match.seats.count() == size for match in mine)
    assert "arrived late, seated from round 1" in arrival.in_words()
