"""The public pages on a small phone (360 px wide): none scrolls sideways, every one has the
same navigation, and a tournament not published yet says so in words."""

from __future__ import annotations

import pytest

from tests.browser.helpers import expect
from tournaments.models import Status

pytestmark = pytest.mark.browser

SMALL_PHONE = {"viewport": {"width": 360, "height": 780}, "is_mobile": True, "has_touch": True}


def public_pages(slug: str) -> list[str]:
    base = f"/t/{slug}"
    return [
        f"{base}/standings/",
        f"{base}/tables/1/",
        f"{base}/teams/1/",
        f"{base}/hand-records/",
        f"{base}/charts/",
        f"{base}/downloads/",
    ]


def test_public_pages_fit_a_small_phone_with_one_navigation(live, cup, contexts, shots):
    page = contexts.new_page(SMALL_PHONE)
    for path in public_pages(cup.slug):
        page.goto(path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{path} scrolls sideways on a 360 px phone ({width} px)"
        wide = page.evaluate(
            "[...document.querySelectorAll('.scroll')].filter(s => s.scrollWidth > s.clientWidth)"
            ".length"
        )
        assert wide == 0, f"a table of {path} scrolls sideways on a 360 px phone"
        navigation = page.get_by_role("navigation", name="Tournament pages")
        expect(navigation).to_have_count(1)
        for name in ("Standings", "Hand records", "Charts", "Downloads"):
            expect(navigation.get_by_role("link", name=name, exact=True)).to_have_count(1)
        shots.take(page, path.strip("/").replace("/", "-"))


def test_a_tournament_not_published_yet_says_so(live, cup, contexts):
    with live.exclusive():
        cup.tournament.status = Status.DRAFT
        cup.tournament.save()
    page = contexts.new_page(SMALL_PHONE)
    for path in public_pages(cup.slug):
        response = page.goto(path)
        assert response.status == 404, path
        expect(page.get_by_text("not published yet", exact=False)).to_be_visible()


def test_the_directors_list_fits_a_small_phone(live, cup, contexts, shots):
    from tests.tournaments.factories import OrganiserFactory

    with live.exclusive():
        OrganiserFactory(username="petra", password="correct-horse-battery")
    page = contexts.new_page(SMALL_PHONE)
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("petra")
    page.get_by_label("Password").fill("correct-horse-battery")
    page.get_by_role("button", name="Sign in").click()
    for path in (f"/tournaments/{cup.slug}/director/", f"/tournaments/{cup.slug}/"):
        page.goto(path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{path} scrolls sideways on a 360 px phone ({width} px)"
        wide = page.evaluate(
            "[...document.querySelectorAll('.scroll')].filter(s => s.scrollWidth > s.clientWidth)"
            ".length"
        )
        assert wide == 0, f"a table of {path} scrolls sideways on a 360 px phone"
        shots.take(page, path.strip("/").replace("/", "-"))
