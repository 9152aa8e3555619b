"""A featured Pymtheg table: the recorder takes down a board call by call and card by card on
a tablet-sized page, a stretch of it without a connection, and a press account's broadcast
page follows every card; the public is told the table is shown once complete."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import Group, User
from django.test import Client

from scoring.visibility import PRESS_GROUP
from tests.broadcast.helpers import featured_event
from tests.browser.helpers import expect

pytestmark = pytest.mark.browser

TABLET = {"viewport": {"width": 1024, "height": 768}, "is_mobile": True, "has_touch": True}


@pytest.fixture
def featured(live, settings):
    settings.BROADCAST_ANALYSIS = "off"
    tournament, table = featured_event("pymtheg", "featured-cup")
    journalist = User.objects.create_user("journalist", password="press-pass-1")
    journalist.groups.add(Group.objects.get_or_create(name=PRESS_GROUP)[0])
    client = Client()
    client.force_login(journalist)
    return tournament, table, client.cookies[django_settings.SESSION_COOKIE_NAME].value


def _press_page(contexts, live, session: str):
    page = contexts.new_page({"viewport": {"width": 1280, "height": 900}})
    page.context.add_cookies(
        [{"name": django_settings.SESSION_COOKIE_NAME, "value": session, "url": live.url}]
    )
    return page


def _tap(recorder, action: str) -> None:
    recorder.locator(f'[data-action="{action}"]').click()
    expect(recorder.locator("#recorder-status")).to_be_hidden()


def _card(recorder) -> None:
    recorder.locator("#recorder-board button.card.legal").first.click()


def test_a_recorder_enters_a_board_card_by_card_and_the_press_follows_live(
    live, featured, contexts, shots
):
    tournament, table, session = featured
    public = contexts.new_page({"viewport": {"width": 1280, "height": 900}})
    public.goto(f"/tournaments/{tournament.slug}/broadcast/1/")
    expect(public.locator("[data-not-yet]")).to_be_visible()

    press = _press_page(contexts, live, session)
    press.goto(f"/tournaments/{tournament.slug}/broadcast/1/")
    expect(press.locator("[data-broadcast]")).to_contain_text("Nothing recorded")

    recorder = contexts.new_page(TABLET)
    recorder.goto(f"/tournaments/{tournament.slug}/record/?code={table.recorder_code}")
    expect(recorder.locator("[data-seat]")).to_have_count(4)
    # Only North may call first; the bidding box offers the legal calls.
    expect(recorder.locator("[data-prompt]")).to_contain_text("to call")
    _tap(recorder, "call:G")
    for _ in range(3):
        _tap(recorder, "call:P")
    _tap(recorder, "trump:fire")
    _tap(recorder, "double:none")
    shots.take(recorder, "play-begins")
    broadcast = press.locator("[data-broadcast]")
    expect(broadcast).to_have_attribute("data-step", "6")
    expect(press.locator("[data-auction]").first).to_contain_text("N Gâm")

    for step in range(7, 11):  # the first trick and a card of the second, one by one
        _card(recorder)
        expect(recorder.locator("#recorder-status")).to_be_hidden()
        expect(broadcast).to_have_attribute("data-step", str(step))
    expect(press.locator("[data-trick]")).to_have_count(1)
    # A card not legal now is not offered.
    assert recorder.locator("#recorder-board button.card:not(.legal):enabled").count() == 0
    shots.take(press, "press-follows")

    # The connection drops: the cards go on, kept on the tablet, and are sent once it is back.
    recorder.context.set_offline(True)
    for _ in range(4):
        _card(recorder)
    expect(recorder.locator("#recorder-status")).to_contain_text("saved on this tablet")
    expect(broadcast).to_have_attribute("data-step", "10")
    shots.take(recorder, "offline")
    recorder.context.set_offline(False)
    recorder.evaluate("window.dispatchEvent(new Event('online'))")
    expect(broadcast).to_have_attribute("data-step", "14")
    expect(press.locator("[data-trick]")).to_have_count(2)

    # Undo takes the last card back, on the broadcast too.
    recorder.locator("[data-undo]").click()
    expect(broadcast).to_have_attribute("data-step", "13")
    # The press steps back through the play.
    press.locator("[data-back]").click()
    expect(broadcast).to_have_attribute("data-step", "12")
    shots.take(press, "replay")

    public.reload()
    expect(public.locator("[data-not-yet]")).to_be_visible()
