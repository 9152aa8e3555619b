"""Route cards to print again after the room changes: the print page and the room page flag
exactly the cards whose rounds changed (the opponents' too), and the flags clear once those
cards are marked printed; a bad mark stores nothing."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.tournaments.test_room import _event, _played
from tournaments import room, selectors
from tournaments.models import ActionLog

pytestmark = pytest.mark.django_db

HIDDEN = re.compile(r'name="card-(\d+)" value="([0-9a-f]+)"')


def _routes(slug: str) -> str:
    return f"/tournaments/{slug}/print/routes/"


def _flagged(client, tournament) -> set[int]:
    page = client.get(_routes(tournament.slug)).content.decode()
    found = re.search(r"since they were printed \([^)]*\): ([\d, ]+)\.", page)
    badges = page.count("Reprint: changed since it was printed") + page.count("New card: not")
    numbers = {int(n) for n in found.group(1).split(", ")} if found else set()
    assert badges == len(numbers)
    return numbers


@pytest.fixture
def printed(organiser, organiser_client):
    """8 pairs at 4 tables, round 1 played, every route card printed (the page opened)."""
    tournament = _played(organiser, _event(organiser, entrants=8, tables=4, slug="rp"))
    first = organiser_client.get(_routes(tournament.slug)).content.decode()
    assert "Print again" not in first
    log = ActionLog.objects.get(tournament=tournament, action="route_cards_printed")
    assert sorted(map(int, log.after["cards"])) == list(range(1, 9))
    return tournament


def test_a_withdrawal_flags_its_opponents_cards_until_they_are_printed_again(
    organiser, organiser_client, printed
):
    change = room.withdraw(by=organiser, entrant=printed.entrants.get(number=3), after_round=1)
    opponents = {n for kept in change.matches for n in (kept["north"], kept["east"])} - {3}
    assert len(opponents) == 3
    assert _flagged(organiser_client, printed) == opponents  # not 3: it has left
    page = organiser_client.get(f"/tournaments/{printed.slug}/room/").content.decode()
    assert "Route cards to print again" in page
    assert ", ".join(map(str, sorted(opponents))) in page
    only = organiser_client.get(_routes(printed.slug) + "?reprint=1").content.decode()
    assert only.count('class="card route-card"') == 3
    marks = dict(HIDDEN.findall(only))
    assert set(map(int, marks)) == opponents
    answer = organiser_client.post(
        _routes(printed.slug) + "printed/",
        {f"card-{n}": digest for n, digest in marks.items()} | {"back": "reprint"},
        follow=True,
    )
    assert "3 route cards marked as printed" in answer.content.decode()
    assert "No route card needs printing again" in answer.content.decode()
    assert _flagged(organiser_client, printed) == set()
    # Undone, the withdrawal changes those cards back: printed since, they are flagged again.
    room.undo(by=organiser, change=change)
    assert _flagged(organiser_client, printed) == opponents


def test_a_late_arrival_flags_its_new_card_and_its_opponents(organiser, organiser_client, printed):
    room.withdraw(by=organiser, entrant=printed.entrants.get(number=5), after_round=1)
    marks = dict(HIDDEN.findall(organiser_client.get(_routes(printed.slug)).content.decode()))
    organiser_client.post(
        _routes(printed.slug) + "printed/", {f"card-{n}": d for n, d in marks.items()}
    )
    assert _flagged(organiser_client, printed) == set()
    arrival = room.late_arrival(by=organiser, tournament=printed, name="Late Pair")
    newcomer = arrival.entrant
    (card,) = selectors.route_cards(printed, newcomer.number)
    opponents = {stop.opponent.number for stop in card.stops if stop.opponent is not None}
    assert opponents and _flagged(organiser_client, printed) == opponents | {newcomer.number}
    page = organiser_client.get(_routes(printed.slug)).content.decode()
    assert page.count("New card: not printed yet") == 1


def test_a_substitute_flags_only_the_entrants_own_card(organiser, organiser_client, printed):
    entrant = printed.entrants.get(number=2)
    room.substitute(by=organiser, entrant=entrant, name="Cy", from_round=2, member=2)
    assert _flagged(organiser_client, printed) == {2}


def test_a_stale_or_bad_mark_stores_nothing_and_keeps_the_flag(
    organiser, organiser_client, printed
):
    before = dict(HIDDEN.findall(organiser_client.get(_routes(printed.slug)).content.decode()))
    assert before == {}  # nothing flagged: no form
    room.substitute(by=organiser, entrant=printed.entrants.get(number=2), name="Cy", from_round=2)
    logged = ActionLog.objects.filter(action="route_cards_printed").count()
    url = _routes(printed.slug) + "printed/"
    for bad in ({"card-99": "0" * 16}, {"card-2": "not-a-digest"}):
        answer = organiser_client.post(url, bad, follow=True).content.decode()
        assert "no entrant numbered 99" in answer or "16 hexadecimal digits" in answer
    assert ActionLog.objects.filter(action="route_cards_printed").count() == logged
    # A digest of the card as it was before the change: recorded, but the card still differs.
    old = ActionLog.objects.get(action="route_cards_printed").after["cards"]["2"]
    organiser_client.post(url, {"card-2": old})
    assert _flagged(organiser_client, printed) == {2}
    assert Client().post(url, {"card-2": old}).status_code == 302  # to the sign-in page
