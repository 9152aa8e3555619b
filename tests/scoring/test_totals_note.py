"""The totals standings carry the game's own line on what they count (Pyramid: only a
player's own declarations); the duplicate standings, and games without such a line, none."""

from __future__ import annotations

from engine.games import get_game
from tests.tournaments.test_individual_events import pyramid_event
from tournaments import services


def test_pyramid_totals_say_only_own_declarations_count(client, db):
    event = pyramid_event(slug="totals-note")
    note = get_game("pyramid").totals_note
    assert "own declarations" in note
    page = client.get(f"/t/{event.slug}/standings/").content.decode()
    assert "own declarations" not in page  # duplicate ranking: no such line
    services.update_tournament(by=None, tournament=event, changes={"ranking": "totals"})
    page = client.get(f"/t/{event.slug}/standings/").content.decode()
    assert page.count("own declarations count") == 1


def test_the_line_is_the_games_own():
    assert get_game("pymtheg").totals_note == ""
