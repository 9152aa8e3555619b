"""The stored progress of each board (``BoardProgress``) is always the fold of its history:
the scorers' writes check that one row, so it must never drift from what happened."""

import contextlib
import random

import pytest
from django.db import IntegrityError, transaction

from scoring import services, states
from scoring.board_lock import lock_board
from scoring.errors import ScoringError
from scoring.models import BoardProgress, Review, Submission
from tests.scoring.conftest import GAM_MADE, RY_LOST, new_id


def folded(match, board_id):
    return states.fold(
        list(Submission.objects.filter(match=match, board_id=board_id)),
        list(Review.objects.filter(match=match, board_id=board_id)),
    )


def assert_progress_is_the_fold(cup):
    for match in cup.matches.values():
        board_id = match.table.boards.get().pk
        expected = folded(match, board_id)
        stored = BoardProgress.objects.filter(match=match, board_id=board_id).first()
        if not expected.history:
            assert stored is None, f"{match}: progress without history"
            continue
        assert stored is not None, f"{match}: history without progress"
        pending = expected.pending.pk if expected.pending is not None else None
        assert (stored.state, stored.pending_id, stored.rejections, stored.last_reason) == (
            expected.state,
            pending,
            expected.rejections,
            expected.last_reason,
        ), match


def pending_id(match):
    stored = BoardProgress.objects.filter(match=match).first()
    if stored is not None and stored.pending_id is not None:
        return stored.pending_id
    # An entry that is not the pending one: East acting on a stale screen.
    latest = Submission.objects.filter(match=match).order_by("-pk").first()
    return latest.pk if latest is not None else 1


def random_action(rng, cup, director):
    match = cup.match(rng.choice([1, 2]), rng.choice([1, 2]))
    common = {"match_id": match.pk, "board_number": 1}
    choice = rng.randrange(7)
    if choice == 0:
        entrant = match.north_entrant if rng.random() < 0.9 else match.east_entrant
        facts = rng.choice([GAM_MADE, RY_LOST])
        return services.submit_entry(**common, entrant=entrant, facts=facts, client_id=new_id())
    if choice in (1, 2):
        act = services.accept_entry if choice == 1 else services.reject_entry
        extra = {} if choice == 1 else {"reason": rng.choice(["tricks", "trump"])}
        return act(
            **common,
            **extra,
            entrant=match.east_entrant,
            submission_id=pending_id(match),
            client_id=new_id(),
        )
    if choice == 3:
        entrant = rng.choice([match.north_entrant, match.east_entrant])
        return services.call_director(**common, entrant=entrant, reason="", client_id=new_id())
    if choice == 4:
        return services.director_enter_result(
            **common, user=director, facts=GAM_MADE, client_id=new_id()
        )
    if choice == 5:
        return services.director_adjust(**common, user=director, ns=10, ew=-10, reason="slow")
    return services.director_erase(**common, user=director, reason="wrong table")


@pytest.mark.parametrize("seed", range(8))
def test_progress_follows_every_write(cup, director, seed):
    rng = random.Random(seed)
    seen = set()
    for _ in range(40):
        # A refused action must have stored nothing, its progress included.
        with contextlib.suppress(ScoringError):
            random_action(rng, cup, director)
        assert_progress_is_the_fold(cup)
        seen.update(BoardProgress.objects.values_list("state", flat=True))
    assert len(seen) >= 4, seen  # the walk reaches most states, not just the first


def test_the_current_match_rule_reads_progress_rows(cup, director):
    """A team's later match opens once anything is on record for its earlier one, even a
    director's action that left the board empty."""
    later = cup.match(2, 2)  # team 1 sits NS; its round 1 match is round 1, table 1
    with pytest.raises(ScoringError, match="current match is round 1"):
        services.submit_entry(
            match_id=later.pk,
            board_number=1,
            entrant=later.north_entrant,
            facts=GAM_MADE,
            client_id=new_id(),
        )
    services.director_erase(
        match_id=cup.match(1, 1).pk, board_number=1, user=director, reason="table moved"
    )
    assert folded(cup.match(1, 1), cup.match(1, 1).table.boards.get().pk).state == states.EMPTY
    services.submit_entry(
        match_id=later.pk,
        board_number=1,
        entrant=later.north_entrant,
        facts=GAM_MADE,
        client_id=new_id(),
    )
    assert_progress_is_the_fold(cup)


def test_lock_board_reads_the_board_and_what_a_resend_finds(cup):
    match = cup.match(1, 1)
    entry = services.submit_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.north_entrant,
        facts=GAM_MADE,
        client_id="a" * 16,
    )
    with transaction.atomic():
        locked = lock_board(match.pk, 1, tournament=cup.tournament, client_id="a" * 16)
    assert locked.board.number == 1 and locked.match.table.number == 1
    assert locked.state.state == states.AWAITING_EAST
    assert locked.state.pending.pk == entry.pk and locked.state.pending.north_result == 21
    assert locked.state.pending.score["ns"] == 21
    assert locked.entry_with_client_id == entry.pk and locked.review_with_client_id is None
    with transaction.atomic():
        assert lock_board(match.pk, 2, tournament=cup.tournament).board is None
        assert lock_board(match.pk + 1000, 1, tournament=cup.tournament) is None


def test_rebuilding_progress_from_history_gives_the_same_rows(cup, director):
    rng = random.Random(99)
    for _ in range(30):
        with contextlib.suppress(ScoringError):
            random_action(rng, cup, director)
    before = set(
        BoardProgress.objects.values_list(
            "match_id", "board_id", "state", "pending_id", "rejections", "last_reason"
        )
    )
    BoardProgress.objects.all().delete()
    made = services.rebuild_progress([m.pk for m in cup.matches.values()])
    after = set(
        BoardProgress.objects.values_list(
            "match_id", "board_id", "state", "pending_id", "rejections", "last_reason"
        )
    )
    assert made == len(before) and after == before


def test_the_database_refuses_awaiting_east_without_an_entry(cup):
    match = cup.match(1, 1)
    with pytest.raises(IntegrityError), transaction.atomic():
        BoardProgress.objects.create(
            match=match, board=match.table.boards.get(), state=states.AWAITING_EAST
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        BoardProgress.objects.create(match=match, board=match.table.boards.get(), state="lost")
