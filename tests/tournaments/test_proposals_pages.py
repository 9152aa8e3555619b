"""Real rooms on the organiser's pages: the new-tournament form takes tables of 2 and 3 for
the games that allow them, the schedule page lists the proposals for the entrants on file
(best first, one sentence each) and draws the one chosen, the validator's line says how often
entrants meet, and the pages of tables of 2 and 3 name only the seats that exist."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from operations.simulation import simulate_tournament
from tests.tournaments.conftest import make_tournament
from tests.tournaments.factories import OrganiserFactory
from tests.tournaments.test_individual_events import pyramid_event
from tests.tournaments.test_individual_pages import public_pages
from tournaments import selectors, services
from tournaments.forms import TournamentCreateForm
from tournaments.imports import EntrantRow
from tournaments.models import Match, MatchSeat, Status, Tournament

pytestmark = pytest.mark.django_db


def players_event(game: str, players: int, *, tables: int = 2, size: int = 4, slug: str):
    tournament = services.create_tournament(
        by=None, name=f"{game} night", slug=slug, tables=tables, game=game, table_size=size
    )
    services.import_teams(
        by=None,
        tournament=tournament,
        rows=[EntrantRow(n, n, f"Player {n}", "", "") for n in range(1, players + 1)],
    )
    tournament.refresh_from_db()
    return tournament


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


# --- the new-tournament form -----------------------------------------------------------------


@pytest.mark.parametrize(("game", "size"), [("pyramid", 2), ("pyramid", 3), ("pysngtaut", 3)])
def test_the_form_takes_small_tables_for_games_that_allow_them(organiser_client, game, size):
    response = organiser_client.post(
        reverse("tournaments:create") + f"?game={game}",
        {
            "game": game,
            "name": f"{game} {size}",
            "slug": f"{game}-{size}",
            "tables": 3,
            "table_size": size,
            "ties": "min",
            "boards_per_table": 2,
            "ranking": "duplicate",
            **{s.name: s.default for s in _settings(game)},
        },
    )
    assert response.status_code == 302, text_of(response.content.decode())
    tournament = Tournament.objects.get(slug=f"{game}-{size}")
    assert (tournament.game, tournament.table_size) == (game, size)


def _settings(game):
    from engine.games import get_game

    rules = get_game(game)
    return [
        type("S", (), {"name": name, "default": value})
        for name, value in rules.default_settings.items()
        if not isinstance(value, bool)
    ]


def test_the_form_names_the_chosen_game_in_its_errors():
    form = TournamentCreateForm(
        data={"game": "pysngtaut", "name": "Night", "tables": 2, "table_size": 3}
    )
    form.is_valid()
    assert form.instance.game == "pysngtaut"
    assert "Pymtheg" not in str(form.errors)
    form.instance.table_size = 5
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as caught:
        form.instance.clean()
    assert "Pys'ngtaut" in str(caught.value) and "Pymtheg" not in str(caught.value)


# --- proposals on the schedule page ----------------------------------------------------------


def test_thirteen_pairs_are_offered_one_pair_out_a_round_first(organiser_client):
    tournament = make_tournament(entrants=13, tables=6, slug="thirteen")
    found = selectors.proposals(tournament)
    keys = [p["key"] for p in found["proposals"]]
    assert keys == ["one-out:6", "mitchell:7:fixed"]
    html = text_of(
        organiser_client.get(reverse("tournaments:schedule", args=["thirteen"])).content.decode()
    )
    first = html.index("6 tables, 6 rounds; 1 pair sits out each round (nobody more than once)")
    second = html.index("7 tables, 7 rounds; 1 pair sits out each round")
    assert first < second
    assert "7 table-rounds without a match" in html
    assert "The tables you have now" in html

    response = organiser_client.post(
        reverse("tournaments:schedule_draw", args=["thirteen"]), {"proposal": "one-out:6"}
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Status.SCHEDULED and tournament.side_mode == "balanced"
    assert selectors.schedule_problems(tournament) == []
    rounds = {m.round for m in Match.objects.filter(table__tournament=tournament)}
    assert rounds == set(range(1, 7))
    for number in rounds:  # every table busy, one pair out
        assert Match.objects.filter(table__tournament=tournament, round=number).count() == 6
    page = text_of(
        organiser_client.get(reverse("tournaments:schedule", args=["thirteen"])).content.decode()
    )
    assert "The validator finds no problem with this schedule. No two pairs meet twice." in page


def test_choosing_the_phantom_adds_the_seventh_table(organiser_client):
    tournament = make_tournament(entrants=13, tables=6, slug="phantom")
    organiser_client.post(
        reverse("tournaments:schedule_draw", args=["phantom"]), {"proposal": "mitchell:7:fixed"}
    )
    tournament.refresh_from_db()
    assert tournament.tables.count() == 7 and tournament.status == Status.SCHEDULED
    assert selectors.schedule_problems(tournament) == []
    assert tournament.log_entries.filter(action="update_tournament").exists()


def test_a_key_that_is_not_offered_is_refused_and_nothing_is_drawn(organiser_client):
    tournament = make_tournament(entrants=13, tables=6, slug="refused")
    response = organiser_client.post(
        reverse("tournaments:schedule_draw", args=["refused"]),
        {"proposal": "mitchell:9:fixed"},
        follow=True,
    )
    assert "not one of the proposals" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == Status.DRAFT
    assert not Match.objects.filter(table__tournament=tournament).exists()


def test_twelve_twenty_players_are_told_the_truth_about_meetings(organiser_client):
    tournament = players_event("twenty", 12, tables=3, slug="twelve")
    response = organiser_client.post(
        reverse("tournaments:schedule_draw", args=["twelve"]),
        {"proposal": "players:4x3"},
        follow=True,
    )
    html = text_of(response.content.decode())
    assert "6 pairs of players meet 3 times, in every round, the least possible" in html
    assert "no two players meet more than" not in html
    tournament.refresh_from_db()
    assert selectors.schedule_meetings(tournament) == {
        "most": 3,
        "count": 6,
        "every_round": True,
        "least": True,
    }


def test_ten_pyramid_players_see_tables_of_several_sizes_first(organiser_client):
    players_event("pyramid", 10, slug="ten")
    html = organiser_client.get(reverse("tournaments:schedule", args=["ten"])).content.decode()
    text = text_of(html)
    mixed = text.index(
        "3 tables (1 of 4 and 2 of 3 players), 2 rounds; every player plays every round"
    )
    assert mixed < text.index("5 tables of 2, 5 rounds")
    assert "not drawn up from this page" not in text
    # tables of one size that the mixed ones beat (in the same rounds) are not offered
    assert "2 tables of 4, 2 rounds" not in text
    # the best proposal, tables of several sizes, is the one chosen by default
    checked = re.search(r'value="([^"]+)" checked', html)
    assert checked and checked.group(1) == "players:4-3-3"


def test_tables_of_several_sizes_are_drawn_only_under_duplicate_ranking(organiser_client):
    tournament = players_event("pyramid", 10, slug="mixed")
    services.update_tournament(by=None, tournament=tournament, changes={"ranking": "totals"})
    tournament.refresh_from_db()
    found = selectors.proposals(tournament)
    assert all(len(set(p["sizes"])) == 1 for p in found["proposals"])
    response = organiser_client.post(
        reverse("tournaments:schedule_draw", args=["mixed"]),
        {"proposal": "players:4-3-3"},
        follow=True,
    )
    assert "not one of the proposals" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == Status.DRAFT


def test_choosing_tables_of_two_sets_the_players_at_a_table(organiser_client):
    tournament = players_event("pyramid", 10, slug="pairs-of-two")
    organiser_client.post(
        reverse("tournaments:schedule_draw", args=["pairs-of-two"]), {"proposal": "players:2x5"}
    )
    tournament.refresh_from_db()
    assert (tournament.table_size, tournament.tables.count()) == (2, 5)
    assert selectors.schedule_problems(tournament) == []
    assert set(
        MatchSeat.objects.filter(match__table__tournament=tournament).values_list("seat", flat=True)
    ) == {"N", "E"}


def test_a_field_nobody_can_seat_is_told_why(organiser_client):
    players_event("pyramid", 1, slug="alone")
    html = text_of(
        organiser_client.get(reverse("tournaments:schedule", args=["alone"])).content.decode()
    )
    assert (
        "1 player cannot play: Pyramid is played by 2, 3 or 4 players at a table"
        in html.replace("one player", "1 player")
    )


# --- seats of tables of 2 and 3 --------------------------------------------------------------


def seat_pages(slug: str) -> list[str]:
    """The schedule's pages and cards, and every public page."""
    base = f"/tournaments/{slug}/"
    own = ["schedule/", "print/routes/", "print/tables/", "print/schedule/"]
    return [base + page for page in own] + public_pages(slug)


@pytest.mark.parametrize(
    ("game", "size"), [("pyramid", 3), ("pyramid", 2), ("pysngtaut", 3), ("pysngtaut", 2)]
)
def test_pages_of_small_tables_name_only_their_seats(client, game, size):
    tournament = players_event(game, 3 * size, tables=3, size=size, slug=f"{game}-{size}")
    services.draw_schedule(by=None, tournament=tournament)
    services.deal_boards(by=None, tournament=tournament, seed="seats")
    simulate_tournament(tournament, rounds=1, seed="seats")
    tournament.refresh_from_db()
    client.force_login(OrganiserFactory())
    missing = ["W"] if size == 3 else ["S", "W"]
    names = {"S": "South", "W": "West"}
    for url in seat_pages(tournament.slug):
        response = client.get(url, follow=True)
        assert response.status_code == 200, url
        text = text_of(response.content.decode())
        for seat in missing:
            assert names[seat] not in text, (url, seat)
            assert not re.search(rf"\b{seat}\b", text), (url, seat, _around(text, seat))
    routes = text_of(client.get(f"/tournaments/{tournament.slug}/print/routes/").content.decode())
    order = {3: "N → E → S", 2: "N → E"}[size]
    if game == "pysngtaut":  # counter-clockwise, as the source plays
        order = {3: "N → S → E", 2: "N → E"}[size]
    assert f"({order})" in routes


def _around(text: str, seat: str) -> str:
    found = re.search(rf"\b{seat}\b", text)
    return text[max(found.start() - 60, 0) : found.end() + 60] if found else ""


def test_the_pyramid_fixture_still_draws_with_the_default_path():
    tournament = pyramid_event(slug="default-path")
    assert selectors.schedule_problems(tournament) == []


def test_the_settings_form_names_only_the_seats_of_its_tables():
    from tournaments.forms import TournamentSettingsForm

    tournament = players_event("pysngtaut", 9, tables=3, size=3, slug="three-seats")
    labels = dict(TournamentSettingsForm(instance=tournament).fields["direction"].choices)
    assert labels["counterclockwise"] == "Counter-clockwise (N → S → E), as the source plays"
    assert labels["clockwise"] == "Clockwise (N → E → S)"
    tournament = players_event("pyramid", 8, tables=4, size=2, slug="two-seats")
    labels = dict(TournamentSettingsForm(instance=tournament).fields["direction"].choices)
    assert "W" not in " ".join(labels.values()) and "S" not in " ".join(labels.values())


@pytest.mark.parametrize("game", ["pymtheg", "pyramid", "twenty", "pysngtaut"])
def test_the_new_tournament_page_names_the_game_chosen(organiser_client, game):
    import html

    from engine.games import get_game

    page = text_of(organiser_client.get(reverse("tournaments:create") + f"?game={game}").text)
    assert f"New {get_game(game).title} tournament" in html.unescape(page)


def test_pysngtaut_options_come_in_their_own_order(organiser_client):
    page = text_of(organiser_client.get(reverse("tournaments:create") + "?game=pysngtaut").text)
    numbers = [int(n) for n in re.findall(r"Option (\d):", page)]
    assert numbers == sorted(numbers) and set(numbers) == set(range(1, 9)), numbers


def _settings_post(tournament, **changes):
    """The settings page's form as it stands, with ``changes``."""
    from engine.games import get_game

    data = {
        "name": tournament.name,
        "ties": tournament.ties,
        "ranking": tournament.ranking,
        **{s.name: tournament.rules[s.name] for s in get_game(tournament.game).setting_fields},
    }
    return {**data, **changes}


def test_switching_the_ranking_once_results_exist_asks_first_and_is_logged(organiser_client):
    from tournaments.models import ActionLog

    tournament = pyramid_event(slug="switch")
    services.start_tournament(by=None, tournament=tournament)
    url = reverse("tournaments:settings", args=[tournament.slug])
    before = text_of(organiser_client.get(url).text)
    assert "Rank the results again" not in before  # nothing to rank again yet
    simulate_tournament(tournament, rounds=1, seed="switch")
    assert "Rank the results again" in text_of(organiser_client.get(url).text)
    refused = organiser_client.post(url, _settings_post(tournament, ranking="totals"))
    assert refused.status_code == 200
    assert "Tick &#x27;Rank the results again&#x27; to confirm" in refused.text
    tournament.refresh_from_db()
    assert tournament.ranking == "duplicate"
    confirmed = organiser_client.post(
        url, _settings_post(tournament, ranking="totals", confirm_ranking="on")
    )
    assert confirmed.status_code == 302
    tournament.refresh_from_db()
    assert tournament.ranking == "totals"
    logged = ActionLog.objects.filter(tournament=tournament).order_by("-pk").first()
    assert "totals" in str(logged.after)
