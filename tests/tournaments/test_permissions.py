"""Every organiser URL refuses anonymous visitors (sign-in redirect) and non-organisers (403).

The URLs are enumerated from ``tournaments.urls``, so a new page is covered the day it is
added; a URL whose parameters this file does not know fails the test.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import URLPattern, reverse

from tests.tournaments.factories import UserFactory
from tournaments import selectors, services, urls
from tournaments.models import ActionLog, Match
from tournaments.permissions import ORGANISE_PERMISSION, is_organiser
from tournaments.printing import scorer_path

pytestmark = pytest.mark.django_db


def organiser_patterns() -> list[URLPattern]:
    return list(urls.urlpatterns)


def url_kwargs(pattern: URLPattern, scheduled) -> dict[str, object]:
    """Real values for every parameter, so that an organiser would reach the page."""
    values = {
        "slug": scheduled.slug,
        "number": 1,
        "pk": selectors.tournament_matches(scheduled).first().pk,
        "table": 1,
        "board": 1,
    }
    names = list(pattern.pattern.converters)
    unknown = set(names) - set(values)
    assert not unknown, f"{pattern.name}: add values for {unknown} to this test"
    return {name: values[name] for name in names}


def all_urls(scheduled) -> list[tuple[str, str]]:
    return [
        (
            pattern.name,
            reverse(f"tournaments:{pattern.name}", kwargs=url_kwargs(pattern, scheduled)),
        )
        for pattern in organiser_patterns()
    ]


def test_the_url_list_is_not_empty():
    names = {pattern.name for pattern in organiser_patterns()}
    assert {"list", "create", "dashboard", "teams", "schedule", "deals", "print_routes"} <= names
    assert len(names) == len(organiser_patterns())


@pytest.mark.parametrize("method", ["get", "post"])
def test_anonymous_visitors_are_sent_to_sign_in_everywhere(client, scheduled, method):
    log_before = ActionLog.objects.count()
    for name, url in all_urls(scheduled):
        response = getattr(client, method)(url)
        assert response.status_code == 302, f"{method.upper()} {name}"
        assert response.url.startswith(reverse("login")), name
    assert ActionLog.objects.count() == log_before


@pytest.mark.parametrize("method", ["get", "post"])
def test_signed_in_non_organisers_get_403_everywhere(client, player, scheduled, method):
    client.force_login(player)
    log_before = ActionLog.objects.count()
    matches_before = Match.objects.count()
    for name, url in all_urls(scheduled):
        response = getattr(client, method)(url)
        assert response.status_code == 403, f"{method.upper()} {name}"
    assert ActionLog.objects.count() == log_before
    assert Match.objects.count() == matches_before


def test_staff_without_the_permission_is_not_an_organiser(client, scheduled):
    staff = UserFactory(is_staff=True)
    client.force_login(staff)
    assert client.get(reverse("tournaments:list")).status_code == 403


def test_organisers_reach_every_url(organiser_client, scheduled):
    """The kwargs above are real: organisers get the page, or 405 for POST-only actions."""
    for name, url in all_urls(scheduled):
        response = organiser_client.get(url)
        assert response.status_code in (200, 405), f"GET {name}: {response.status_code}"


def test_the_permission_alone_is_enough(client, scheduled):
    user = UserFactory()
    app_label, codename = ORGANISE_PERMISSION.split(".")
    user.user_permissions.add(
        Permission.objects.get(content_type__app_label=app_label, codename=codename)
    )
    assert is_organiser(user)
    client.force_login(user)
    assert client.get(reverse("tournaments:dashboard", args=[scheduled.slug])).status_code == 200


def test_inactive_organisers_are_refused(organiser):
    organiser.is_active = False
    assert not is_organiser(organiser)


def test_the_printed_scorer_link_does_not_ask_players_to_sign_in(client, scheduled):
    """Whichever page serves the scorer link, it is not behind the organiser sign-in."""
    entrant = scheduled.entrants.get(number=1)
    response = client.get(scorer_path(entrant))
    assert response.status_code in (200, 302)
    if response.status_code == 302:
        assert not response.url.startswith(reverse("login"))


def test_a_refused_post_changes_nothing(client, player, scheduled):
    client.force_login(player)
    client.post(reverse("tournaments:schedule_clear", args=[scheduled.slug]))
    client.post(reverse("tournaments:team_disqualify", args=[scheduled.slug, 1]), {"reason": "x"})
    scheduled.refresh_from_db()
    assert scheduled.status == "scheduled"
    assert not scheduled.entrants.get(number=1).is_disqualified
    services.clear_schedule(by=None, tournament=scheduled)  # the action itself works
