"""The public pages: standings, tables and team cards read stored rows, from the cache."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services, standings
from scoring.models import StandingsState
from tests.conftest import fresh_cache_namespace
from tests.scoring.conftest import GAM_MADE, RY_LOST, new_id
from tournaments.models import Disqualification, Status


def url(cup, name, *args):
    return reverse(f"scoring:{name}", args=[cup.tournament.slug, *args])


def text(response) -> str:
    return response.content.decode()


def confirm(cup, capture, round_, table, facts=GAM_MADE):
    match = cup.match(round_, table)
    with capture(execute=True):
        entry = services.submit_entry(
            match_id=match.pk,
            board_number=1,
            entrant=match.north_entrant,
            facts=facts,
            client_id=new_id(),
        )
        services.accept_entry(
            match_id=match.pk,
            board_number=1,
            entrant=match.east_entrant,
            submission_id=entry.pk,
            client_id=new_id(),
        )


def test_pages_render_before_any_result(client, cup):
    home = client.get(reverse("scoring:public", args=[cup.tournament.slug]))
    assert home.status_code == 302 and home.url == url(cup, "standings")
    page = text(client.get(url(cup, "standings")))
    assert "Provisional" in page and "No results yet" in page
    assert all(f"{entrant.number}. {entrant.name}" in page for entrant in cup.entrants)
    assert "0 of 4 board results in" in page
    assert cup.entrants[0].access_code not in page
    table = text(client.get(url(cup, "table", 1)))
    assert "Table 1" in table and "0 of 2 matches played" in table and "to come" in table
    card = text(client.get(url(cup, "team", 1)))
    assert "1. Team 1" in card and "to come" in card
    assert client.get(url(cup, "table", 9)).status_code == 404
    assert client.get(url(cup, "team", 9)).status_code == 404
    assert client.get(reverse("scoring:standings", args=["nope"])).status_code == 404


def test_a_result_is_public_once_its_table_is_complete(
    client, cup, django_capture_on_commit_callbacks
):
    confirm(cup, django_capture_on_commit_callbacks, 1, 1)
    state = StandingsState.objects.get(tournament=cup.tournament)
    assert not state.stale and state.computed_at is not None
    page = text(client.get(url(cup, "standings")))
    assert "Provisional" in page and "1 of 4 board results in" in page
    assert "Not every result is in yet" in page
    # Round 2 still plays table 1's deal: its result would tell those teams how it lies.
    table = text(client.get(url(cup, "table", 1)))
    assert "1 of 2 matches played" in table and ">21<" not in table and "Gâm" not in table
    card = text(client.get(url(cup, "team", 2)))
    assert ">played<" in card and ">-21<" not in card
    api = client.get(reverse("api:matches", args=[cup.tournament.slug])).json()
    assert all(board["result"] is None for match in api for board in match["boards"])
    body = client.get(reverse("api:standings", args=[cup.tournament.slug])).json()
    assert body["groups"] == [] and body["standings"][0]["team"]["name"].startswith("Team ")
    assert all(row["tables"] == [] for row in body["standings"])  # no table's line yet
    confirm(cup, django_capture_on_commit_callbacks, 1, 2)
    confirm(cup, django_capture_on_commit_callbacks, 2, 1)
    table = text(client.get(url(cup, "table", 1)))
    ns_side, ew_side = table.split("East–West", 1)
    assert ">21<" in ns_side and ">-21<" in ew_side
    assert "1. Team 1" in ns_side and "2. Team 2" in ew_side
    card = text(client.get(url(cup, "team", 2)))
    assert ">-21<" in card and "EW" in card


def test_every_result_in_then_final(client, cup, django_capture_on_commit_callbacks):
    for round_, table in [(1, 1), (1, 2), (2, 1), (2, 2)]:
        confirm(
            cup,
            django_capture_on_commit_callbacks,
            round_,
            table,
            GAM_MADE if table == 1 else RY_LOST,
        )
    page = text(client.get(url(cup, "standings")))
    assert "Complete" in page and "4 of 4" in page and "Provisional" not in page
    cup.tournament.status = Status.FINAL
    cup.tournament.save()
    page = text(client.get(url(cup, "standings")))
    assert "Final" in page and "Provisional" not in page


def test_stale_standings_say_so(client, cup, django_capture_on_commit_callbacks):
    confirm(cup, django_capture_on_commit_callbacks, 1, 1)
    standings.mark_changed(cup.tournament)  # a change whose task has not run yet
    page = text(client.get(url(cup, "standings")))
    assert "Stale" in page and "Updating" in page
    assert "1. Team 1" in page  # the stored standings stay on show meanwhile


def test_disqualified_entrants_come_last_without_a_place(
    client, cup, django_capture_on_commit_callbacks
):
    confirm(cup, django_capture_on_commit_callbacks, 1, 1)
    Disqualification.objects.create(entrant=cup.entrants[0], reason="cheating")
    standings.mark_changed(cup.tournament)
    standings.recompute(cup.tournament.pk)
    page = text(client.get(url(cup, "standings")))
    rows = page[page.index("<tbody>") : page.index("</tbody>")].split("<tr")[1:]
    assert "1. Team 1" in rows[-1] and "disqualified" in rows[-1]
    assert ">–<" in rows[-1]  # no place
    card = text(client.get(url(cup, "team", 1)))
    assert "This team is disqualified" in card
    # Every match of the team counts −1000 for it, played or not, and 0 for its opponent,
    # once its round is reached: the round-2 match is still to come while round 1 is played.
    matches = cup.entrants[0].matches_at_north.count() + cup.entrants[0].matches_at_east.count()
    assert matches == 2 and card.count("forfeit −1000") == 1
    assert "to come" in card
    later = cup.match(2, 2)
    assert cup.entrants[0].pk in (later.north_entrant_id, later.east_entrant_id)
    opponent = (
        later.east_entrant if later.north_entrant_id == cup.entrants[0].pk else later.north_entrant
    )
    other = text(client.get(url(cup, "team", opponent.number)))
    assert "0 (the opponents forfeit)" not in other
    confirm(cup, django_capture_on_commit_callbacks, 1, 2)  # round 1 complete
    standings.mark_changed(cup.tournament)
    standings.recompute(cup.tournament.pk)
    played_before = next(r for r in standings_rows(client, cup) if f"{opponent.number}. " in r)
    assert "0 (the opponents forfeit)" not in text(client.get(url(cup, "team", opponent.number)))
    # A result of round 2 at another table: round 2 is reached, its forfeit now counts.
    confirm(cup, django_capture_on_commit_callbacks, 2, 1)
    standings.mark_changed(cup.tournament)
    standings.recompute(cup.tournament.pk)
    card = text(client.get(url(cup, "team", 1)))
    assert card.count("forfeit −1000") == matches
    other = text(client.get(url(cup, "team", opponent.number)))
    assert "0 (the opponents forfeit)" in other
    row = next(r for r in standings_rows(client, cup) if f"{opponent.number}. " in r)
    assert row != played_before


def standings_rows(client, cup) -> list[str]:
    page = text(client.get(url(cup, "standings")))
    return page[page.index("<tbody>") : page.index("</tbody>")].split("<tr")[1:]


def test_a_page_view_costs_a_cache_hit(
    client,
    cup,
    django_capture_on_commit_callbacks,
    django_assert_max_num_queries,
    django_assert_num_queries,
):
    confirm(cup, django_capture_on_commit_callbacks, 1, 1)
    for name, args in [("standings", ()), ("table", (1,)), ("team", (1,))]:
        with fresh_cache_namespace():
            with django_assert_max_num_queries(20) as first:
                assert client.get(url(cup, name, *args)).status_code == 200
            with django_assert_num_queries(1):  # the tournament and its standings state
                again = client.get(url(cup, name, *args))
        assert again.status_code == 200 and len(first.captured_queries) > 1


def test_a_new_result_is_not_hidden_by_the_cache(client, cup, django_capture_on_commit_callbacks):
    assert "0 of 4" in text(client.get(url(cup, "standings")))
    confirm(cup, django_capture_on_commit_callbacks, 1, 2, RY_LOST)
    assert "1 of 4" in text(client.get(url(cup, "standings")))
    confirm(cup, django_capture_on_commit_callbacks, 1, 1)
    confirm(cup, django_capture_on_commit_callbacks, 2, 2)  # table 2 is complete
    assert ">150<" in text(client.get(url(cup, "table", 2)))


def test_the_fragment_answers_204_while_nothing_changed(
    client, cup, django_capture_on_commit_callbacks
):
    fragment = url(cup, "standings-fragment")
    first = client.get(fragment)
    version = first["X-Fragment-Version"]
    assert first.status_code == 200 and "<h1>Standings</h1>" in text(first)
    assert "<html" not in text(first)
    unchanged = client.get(fragment, {"v": version})
    assert unchanged.status_code == 204 and unchanged.content == b""
    confirm(cup, django_capture_on_commit_callbacks, 1, 1)
    changed = client.get(fragment, {"v": version})
    assert changed.status_code == 200 and changed["X-Fragment-Version"] != version
    assert "1 of 4" in text(changed)
    for name in ("table-fragment", "team-fragment"):
        response = client.get(url(cup, name, 1))
        assert response.status_code == 200 and response["X-Fragment-Version"]


def test_the_page_names_its_fragment_for_the_refresh(client, cup):
    page = text(client.get(url(cup, "team", 3)))
    assert f'data-live="{url(cup, "team-fragment", 3)}"' in page
    assert "scoring/live.js" in page


def test_ranking_points_are_written_as_people_write_them():
    from scoring.selectors import points_text

    assert [points_text(p) for p in (2.0, 2.5, 7 / 3, None)] == ["2", "2.5", "2.33", ""]


def _reads_the_standings_object(queries) -> bool:
    column = f'"{StandingsState._meta.db_table}"."standings"'
    return any(column in query["sql"] for query in queries)


def test_public_pages_never_read_the_stored_standings_object(
    client, cup, django_capture_on_commit_callbacks
):
    """It runs to megabytes in a big tournament, and every viewer's refresh reads the
    bookkeeping row: only the versions, then the fragment from the cache."""
    confirm(cup, django_capture_on_commit_callbacks, 1, 1)
    for name, args in (("standings", ()), ("table", (1,)), ("team", (1,))):
        for kind in (name, f"{name}-fragment"):
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url(cup, kind, *args)).status_code == 200
            assert not _reads_the_standings_object(queries.captured_queries), kind
