"""The database itself refuses what would break the tournament's integrity."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from engine.games.pymtheg.cards import Seat
from tests.tournaments.factories import (
    BoardFactory,
    EntrantFactory,
    MatchFactory,
    TableFactory,
    TournamentFactory,
)
from tournaments.models import (
    ACCESS_CODE_ALPHABET,
    ACCESS_CODE_LENGTH,
    Board,
    Entrant,
    Match,
    Tournament,
    new_access_code,
)

pytestmark = pytest.mark.django_db


def refused(create) -> bool:
    """True if the database raises IntegrityError for ``create()``."""
    try:
        with transaction.atomic():
            create()
    except IntegrityError:
        return True
    return False


def test_a_second_match_at_the_same_table_and_round_is_refused():
    first = MatchFactory(round=1)
    tournament = first.table.tournament
    other_ns = EntrantFactory(tournament=tournament)
    other_ew = EntrantFactory(tournament=tournament)
    assert refused(
        lambda: Match.objects.create(
            round=1, table=first.table, north_entrant=other_ns, east_entrant=other_ew
        )
    )
    # The same table in the next round is fine.
    Match.objects.create(round=2, table=first.table, north_entrant=other_ns, east_entrant=other_ew)


def test_an_entrant_plays_once_a_round_on_each_side():
    first = MatchFactory(round=1)
    tournament = first.table.tournament
    table = TableFactory(tournament=tournament)
    someone = EntrantFactory(tournament=tournament)
    assert refused(
        lambda: Match.objects.create(
            round=1, table=table, north_entrant=first.north_entrant, east_entrant=someone
        )
    )
    assert refused(
        lambda: Match.objects.create(
            round=1, table=table, north_entrant=someone, east_entrant=first.east_entrant
        )
    )


def test_an_entrant_cannot_play_itself():
    entrant = EntrantFactory()
    table = TableFactory(tournament=entrant.tournament)
    assert refused(
        lambda: Match.objects.create(
            round=1, table=table, north_entrant=entrant, east_entrant=entrant
        )
    )


def test_rounds_start_at_one():
    assert refused(lambda: MatchFactory(round=0))
    MatchFactory(round=1)


def test_entrant_numbers_and_access_codes_are_unique_in_a_tournament():
    entrant = EntrantFactory(number=1)
    assert refused(lambda: EntrantFactory(tournament=entrant.tournament, number=1))
    assert refused(
        lambda: EntrantFactory(
            tournament=entrant.tournament, number=2, access_code=entrant.access_code
        )
    )
    # Another tournament may reuse both.
    EntrantFactory(number=1, access_code=entrant.access_code)


def test_entrant_number_and_name_are_checked():
    tournament = TournamentFactory()
    assert refused(lambda: EntrantFactory(tournament=tournament, number=0))
    assert refused(lambda: EntrantFactory(tournament=tournament, name=""))


def test_table_and_board_numbers_are_unique_and_positive():
    table = TableFactory(number=1)
    assert refused(lambda: TableFactory(tournament=table.tournament, number=1))
    assert refused(lambda: TableFactory(tournament=table.tournament, number=0))
    board = BoardFactory(table=table, number=1)
    assert refused(lambda: BoardFactory(table=table, number=1, deal=board.deal))
    assert refused(lambda: BoardFactory(table=table, number=0, deal=board.deal))


@pytest.mark.parametrize(
    "field, value",
    [
        ("boards_per_table", 0),
        ("status", "paused"),
        ("side_mode", "random"),
        ("ties", "best"),
    ],
)
def test_settings_outside_their_range_are_refused_by_the_database(field, value):
    assert refused(lambda: TournamentFactory(**{field: value}))


@pytest.mark.parametrize(
    "field, value",
    [
        ("all_tricks_bonus", -1),
        ("heavy_failure_penalty", -5),
        ("illegal_trump_penalty", -500),
        ("illegal_trump_penalty", "500"),
        ("direction", "sideways"),
        ("opening_rule", "dealer"),
        ("opening_seat", "X"),
        ("ruleset", "chess"),
        ("ruleset_typo", "manual-2016"),
    ],
)
def test_game_settings_are_checked_by_the_game(field, value):
    tournament = TournamentFactory.build(game_settings={field: value})
    with pytest.raises(ValidationError) as refusal:
        tournament.full_clean()
    assert refusal.value.message_dict["game_settings"][0].startswith(f"{field}: ")


def test_a_tournament_of_an_unknown_game_is_refused():
    with pytest.raises(ValidationError, match="chess"):
        TournamentFactory.build(game="chess").full_clean()


def test_stored_settings_are_completed_with_the_game_defaults():
    tournament = TournamentFactory(game_settings={"ruleset": "rules-1709"})
    assert tournament.rules == {
        "ruleset": "rules-1709",
        "direction": "clockwise",
        "opening_rule": "fixed",
        "opening_seat": "N",
        "all_tricks_bonus": 0,
        "heavy_failure_penalty": 0,
        "illegal_trump_penalty": 0,
    }


def test_slugs_are_unique():
    TournamentFactory(slug="spring")
    assert refused(lambda: TournamentFactory(slug="spring"))


def test_access_codes_are_long_and_from_the_unambiguous_alphabet():
    codes = {new_access_code() for _ in range(200)}
    assert len(codes) == 200
    for code in codes:
        assert len(code) == ACCESS_CODE_LENGTH
        assert set(code) <= set(ACCESS_CODE_ALPHABET)
    assert not set("01IOL") & set(ACCESS_CODE_ALPHABET)


def test_a_new_entrant_gets_an_access_code():
    entrant = EntrantFactory()
    assert len(entrant.access_code) == ACCESS_CODE_LENGTH
    assert Entrant.objects.get(pk=entrant.pk).access_code == entrant.access_code


def test_deals_are_validated_with_the_engine():
    board = BoardFactory.build(table=TableFactory(), deal="N:FEDCBA987654321... ... ... ...")
    with pytest.raises(ValidationError, match="hand"):
        board.full_clean()
    good = BoardFactory()
    good.full_clean()
    assert len(good.parsed().hand(Seat.N)) == 15


def test_opening_seat_fixed_and_rotating():
    fixed = TournamentFactory(opening_rule="fixed", opening_seat="E")
    assert [fixed.opening_seat_for(t) for t in (1, 2, 5)] == [Seat.E] * 3
    clockwise = TournamentFactory(opening_rule="rotate", direction="clockwise")
    assert [clockwise.opening_seat_for(t) for t in range(1, 6)] == [
        Seat.N,
        Seat.E,
        Seat.S,
        Seat.W,
        Seat.N,
    ]
    counter = TournamentFactory(opening_rule="rotate", direction="counterclockwise")
    assert [counter.opening_seat_for(t) for t in range(1, 5)] == [Seat.N, Seat.W, Seat.S, Seat.E]


def test_deleting_a_tournament_removes_its_schedule():
    match = MatchFactory()
    BoardFactory(table=match.table)
    match.table.tournament.delete()
    assert not Tournament.objects.exists()
    assert not Match.objects.exists()
    assert not Board.objects.exists()
    assert not Entrant.objects.exists()


def test_an_entrant_in_the_schedule_cannot_be_deleted_alone():
    from django.db.models import RestrictedError

    match = MatchFactory()
    with pytest.raises(RestrictedError):
        match.north_entrant.delete()
