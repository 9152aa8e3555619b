"""Standings are never left stale: after any sequence of scorers' and organisers' actions
(entries, checks, the director's rulings, a match edited or removed, the tie policy changed, a
team disqualified or reinstated), once the standings task has run, the stored standings are
exactly a fresh ranking of what is stored."""

from __future__ import annotations

import contextlib

from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.ranking import rank_results
from scoring import services
from scoring.errors import ScoringError
from scoring.models import StandingsState
from scoring.selectors import ranking_input
from scoring.standings import forget_rankings
from tests.scoring.conftest import GAM_MADE, RY_LOST, build_cup, new_id
from tests.tournaments.factories import OrganiserFactory
from tournaments import services as organiser
from tournaments.models import Disqualification, Match, Tournament
from tournaments.services import ServiceError

KEYS = [(1, 1), (1, 2), (2, 1), (2, 2)]
ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "enter",
                "enter",
                "accept",
                "reject",
                "adjust",
                "erase",
                "ties",
                "disqualify",
                "reinstate",
                "remove match",
                "swap sides",
            ]
        ),
        st.sampled_from(KEYS),
        st.sampled_from([GAM_MADE, RY_LOST]),
    ),
    min_size=1,
    max_size=10,
)


def act(cup, director, name: str, key: tuple[int, int], facts: dict) -> None:
    match = Match.objects.filter(pk=cup.match(*key).pk).select_related("table").first()
    if match is None and name not in ("ties", "disqualify", "reinstate"):
        return  # removed earlier in the sequence
    common = {"match_id": match.pk, "board_number": 1} if match is not None else {}
    tournament = cup.tournament
    if name == "enter":
        services.submit_entry(
            **common, entrant=match.north_entrant, facts=facts, client_id=new_id()
        )
    elif name in ("accept", "reject"):
        progress = services.board_state(match, match.table.boards.get())
        if progress.pending is None:
            return
        extra = {"reason": "tricks"} if name == "reject" else {}
        doing = services.accept_entry if name == "accept" else services.reject_entry
        doing(
            **common,
            **extra,
            entrant=match.east_entrant,
            submission_id=progress.pending.pk,
            client_id=new_id(),
        )
    elif name == "adjust":
        services.director_adjust(**common, user=director, ns=30, ew=-30, reason="slow play")
    elif name == "erase":
        services.director_erase(**common, user=director, reason="wrong table")
    elif name == "ties":
        tournament.refresh_from_db()
        ties = {"min": "average", "average": "max", "max": "min"}[tournament.ties]
        organiser.update_tournament(by=director, tournament=tournament, changes={"ties": ties})
    elif name == "disqualify":
        entrant = cup.entrants[key[1] - 1]
        if not Disqualification.objects.filter(entrant=entrant).exists():
            organiser.disqualify_entrant(by=director, entrant=entrant, reason="signalling")
    elif name == "reinstate":
        entrant = cup.entrants[key[1] - 1]
        if Disqualification.objects.filter(entrant=entrant).exists():
            organiser.reinstate_entrant(by=director, entrant=entrant)
    elif name == "remove match":
        organiser.delete_match(by=director, match=match)
    elif name == "swap sides":
        organiser.save_match(
            by=director,
            tournament=tournament,
            match=match,
            round_number=match.round,
            table_number=match.table.number,
            ns_number=match.east_entrant.number,
            ew_number=match.north_entrant.number,
        )


def fresh_standings(cup) -> dict:
    forget_rankings()  # nothing kept from an earlier ranking
    tournament = Tournament.objects.get(pk=cup.tournament.pk)  # its settings as stored
    return rank_results(ranking_input(tournament))


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(actions=ACTIONS)
def test_the_stored_standings_always_equal_a_fresh_ranking(
    db, django_capture_on_commit_callbacks, actions
):
    with transaction.atomic():  # each example starts from the same database
        cup = build_cup(slug=f"never-stale-{new_id()[:8]}")
        director = OrganiserFactory()
        organiser.start_tournament(by=director, tournament=cup.tournament, accept_problems=True)
        for name, key, facts in actions:
            # A refused action stores nothing (its own atomic block); the task runs after.
            with (
                django_capture_on_commit_callbacks(execute=True),
                contextlib.suppress(ScoringError, ServiceError),
                transaction.atomic(),
            ):
                act(cup, director, name, key, facts)
            state = StandingsState.objects.filter(tournament=cup.tournament).first()
            expected = fresh_standings(cup)
            if state is None:  # nothing that ranking reads has changed yet
                assert not any(group["results"] for group in expected["groups"]), (name, key)
                continue
            assert not state.stale, (name, key)
            stored = state.standings
            assert stored["provisional"] == expected["provisional"], (name, key)
            assert stored["standings"] == expected["standings"], (name, key)
            assert stored["groups"] == expected["groups"], (name, key)
        transaction.set_rollback(True)
