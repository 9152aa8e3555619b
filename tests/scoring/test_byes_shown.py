"""A bye is a line of its own on the scorer's list of matches and on the entrant's public card,
its points explained: the mean of the table's (pairs) or the round's (players) ranking points,
nothing in totals."""

from __future__ import annotations

import pytest

from scoring import selectors
from scoring import standings as scoring_standings
from tests.tournaments.test_individual_events import declaring, enter, pyramid_event
from tournaments import services
from tournaments.models import Match
from tournaments.services import EntrantRow


def odd_pairs(slug: str = "odd"):
    tournament = services.create_tournament(by=None, name="Odd", slug=slug, tables=2)
    rows = [EntrantRow(n, n, f"Pair {n}", f"A{n}", f"B{n}") for n in range(1, 6)]
    services.import_teams(by=None, tournament=tournament, rows=rows)
    services.draw_schedule(by=None, tournament=tournament)
    services.deal_boards(by=None, tournament=tournament, seed=slug)
    return services.start_tournament(by=None, tournament=tournament)


def sitting_out(tournament, first_round: bool = False):
    for entrant in tournament.entrants.order_by("number"):
        rounds = selectors.bye_rounds(tournament, selectors.matches_of(entrant))
        if rounds and (rounds[0] == 1 or not first_round):
            return entrant, rounds
    raise AssertionError("nobody sits out")


def test_a_pairs_bye_is_on_the_phone_and_on_the_card(client, db):
    tournament = odd_pairs()
    entrant, rounds = sitting_out(tournament)
    page = client.get(f"/score/{tournament.slug}/?code={entrant.access_code}", follow=True)
    text = page.content.decode()
    assert f"Round {rounds[0]} · Bye" in text
    assert "Bye: the mean of the table&#x27;s ranking points" in text
    card = client.get(f"/t/{tournament.slug}/teams/{entrant.number}/").content.decode()
    assert card.count('class="bye-line"') == len(rounds)
    assert "Bye: the mean of the table&#x27;s ranking points" in card


def test_a_players_bye_shows_its_points_once_ranked(client, db):
    event = pyramid_event(players=5, tables=1, slug="five")
    player, rounds = sitting_out(event, first_round=True)
    assert rounds == [1]
    card = client.get(f"/t/{event.slug}/teams/{player.number}/").content.decode()
    assert "ranking points in all" not in card  # nothing ranked yet: the bye is worth nothing
    # A result of round 1 is in: ranked, the bye is worth the round's mean ranking points.
    match = Match.objects.get(table__tournament=event, round=1)
    board = declaring(event, match, "E")[0]
    enter(match, board, {"declared": 3, "trump": "hearts", "won": 2})
    scoring_standings.mark_changed(event)
    scoring_standings.recompute(event.pk)
    card = client.get(f"/t/{event.slug}/teams/{player.number}/").content.decode()
    assert card.count('class="bye-line"') == 1
    assert "Bye: the mean of the round&#x27;s ranking points" in card
    # Each board of the round sat out is worth the round's mean, 1 (one result, ranked 1).
    assert f"worth {event.boards_per_table} ranking points in all" in card


@pytest.mark.parametrize(("ranking", "words"), [("totals", "adds nothing to the total")])
def test_a_bye_in_totals_adds_nothing(client, db, ranking, words):
    event = pyramid_event(players=5, tables=1, slug="five-totals")
    services.update_tournament(by=None, tournament=event, changes={"ranking": ranking})
    player, _rounds = sitting_out(event)
    card = client.get(f"/t/{event.slug}/teams/{player.number}/").content.decode()
    assert words in card
