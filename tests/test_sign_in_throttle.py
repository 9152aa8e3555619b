"""Organisers' sign-in is slowed, never locked (config/sign_in.py): wrong passwords make the
next attempt of the account and address wait a few seconds, growing; the account has a
ceiling across addresses; the right password signs in once the wait is over; a success
elsewhere, another organiser or a known device gets past a wait; an optional second factor."""

from __future__ import annotations

import pytest
from django.test import Client
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from config import sign_in
from config.sign_in import (
    ACCOUNT_FREE,
    ACCOUNT_LONGEST,
    PAIR_FREE,
    PAIR_LONGEST,
    backoff,
    wait_in_words,
)
from tests.tournaments.factories import OrganiserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"
VENUE = "203.0.113.7"


class Clock:
    def __init__(self, now: float = 1_900_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(sign_in.time, "time", clock)
    return clock


def current_code(device, clock) -> str:
    generator = TOTP(device.bin_key)
    generator.time = clock()
    return f"{generator.token():06d}"


def sign_in_as(client, username, password, address=VENUE, **extra):
    return client.post(
        "/accounts/login/",
        {"username": username, "password": password, **extra},
        REMOTE_ADDR=address,
    )


def test_waits_grow_from_one_second_to_a_ceiling():
    waits = [backoff(n, PAIR_FREE, PAIR_LONGEST) for n in range(1, PAIR_FREE + 7)]
    assert waits == [0] * PAIR_FREE + [1, 2, 4, 8, 16, 30]
    assert backoff(1000, PAIR_FREE, PAIR_LONGEST) == PAIR_LONGEST
    assert backoff(1000, ACCOUNT_FREE, ACCOUNT_LONGEST) == ACCOUNT_LONGEST
    assert ACCOUNT_LONGEST <= 120 and PAIR_LONGEST <= 30  # seconds, never a day


def test_the_wait_in_plain_words():
    assert wait_in_words(0.2) == "1 second"
    assert wait_in_words(4) == "4 seconds"
    assert wait_in_words(88.5) == "89 seconds"
    assert wait_in_words(120) == "2 minutes"


def test_a_prankster_at_the_venue_only_delays_the_organiser(client, clock, caplog):
    OrganiserFactory(username="olga", password=PASSWORD)
    prankster = Client()
    for _ in range(PAIR_FREE):
        assert sign_in_as(prankster, "olga", "wrong").status_code == 200  # the form again
    with caplog.at_level("WARNING", logger="config.sign_in"):
        slowed = sign_in_as(prankster, "olga", "wrong")
    assert slowed.status_code == 200
    assert "Wait 1 second before trying again" in slowed.content.decode()
    assert any("wrong password for 'olga'" in r.getMessage() for r in caplog.records)
    # The organiser, from the same address, is told in words how long to wait ...
    waiting = sign_in_as(client, "olga", PASSWORD)
    assert waiting.status_code == 429
    assert waiting["Retry-After"] == "1"
    assert "Wait 1 second, then sign in again" in waiting.content.decode()
    # ... and once the wait is over her right password signs in.
    clock.advance(1.01)
    assert sign_in_as(client, "olga", PASSWORD).status_code == 302


def test_a_guesser_who_goes_on_waits_longer_but_never_a_lock(client, clock):
    OrganiserFactory(username="olga", password=PASSWORD)
    waits = []
    for _ in range(PAIR_FREE + 8):
        answer = sign_in_as(client, "olga", "wrong")
        while answer.status_code == 429:  # attempts during a wait are not even checked
            waits.append(int(answer["Retry-After"]))
            clock.advance(int(answer["Retry-After"]))
            answer = sign_in_as(client, "olga", "wrong")
    assert waits == [1, 2, 4, 8, 16, 30, 30]
    clock.advance(PAIR_LONGEST)
    assert sign_in_as(client, "olga", PASSWORD).status_code == 302


def test_an_attempt_during_the_wait_is_not_a_guess(client, clock):
    OrganiserFactory(username="olga", password=PASSWORD)
    for _ in range(PAIR_FREE + 1):
        sign_in_as(client, "olga", "wrong")
    # Even the right password is not checked while the wait lasts, nor counted.
    for _ in range(20):
        assert sign_in_as(client, "olga", PASSWORD).status_code == 429
    clock.advance(1.01)
    assert sign_in_as(client, "olga", "wrong").status_code == 200  # the next wait: 2 s
    clock.advance(2.01)
    assert sign_in_as(client, "olga", PASSWORD).status_code == 302


def test_rotating_addresses_hits_the_accounts_ceiling(client, clock):
    OrganiserFactory(username="olga", password=PASSWORD)
    guesses = 0
    for n in range(64):
        answer = sign_in_as(Client(), "olga", f"guess-{n}", address=f"127.0.{n}.1")
        if answer.status_code == 429:
            break
        guesses += 1
    # Each address had a free guess, yet the account waits after ACCOUNT_FREE + 1.
    assert guesses == ACCOUNT_FREE + 1
    assert sign_in_as(Client(), "olga", "x", address="127.9.9.9").status_code == 429
    # An IPv6 client rotating inside his /64 is one address.
    for n in range(PAIR_FREE + 1):
        sign_in_as(Client(), "pia", "wrong", address=f"2001:db8::{n + 1}")
    assert sign_in_as(Client(), "pia", "wrong", address="2001:db8::ff").status_code == 429
    assert sign_in_as(Client(), "pia", "wrong", address="2001:db8:0:1::1").status_code == 200


def test_the_organisers_known_device_is_not_slowed_by_a_guesser(client, clock):
    OrganiserFactory(username="olga", password=PASSWORD)
    assert sign_in_as(client, "olga", PASSWORD).status_code == 302
    assert sign_in.DEVICE_COOKIE in client.cookies
    client.post("/accounts/logout/")
    for n in range(ACCOUNT_FREE + 5):
        sign_in_as(Client(), "olga", "wrong", address=f"198.51.100.{n}")
    assert sign_in_as(Client(), "olga", PASSWORD, address=VENUE).status_code == 429
    # Her phone, at the venue, signs in at once.
    assert sign_in_as(client, "olga", PASSWORD, address=VENUE).status_code == 302
    # A cookie made for another account, or forged, counts for nothing.
    client.cookies[sign_in.DEVICE_COOKIE] = "forged"
    assert sign_in.known_device(client_request(client), "olga") is None


def client_request(client):
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.COOKIES = {key: morsel.value for key, morsel in client.cookies.items()}
    return request


def test_a_success_elsewhere_lifts_the_wait(client, clock):
    OrganiserFactory(username="olga", password=PASSWORD)
    for _ in range(PAIR_FREE + 1):
        sign_in_as(Client(), "olga", "wrong")
    assert sign_in_as(client, "olga", PASSWORD).status_code == 429
    # From her phone's mobile data, another address: she signs in ...
    assert sign_in_as(Client(), "olga", PASSWORD, address="192.0.2.55").status_code == 302
    # ... and the venue's address no longer waits.
    assert sign_in_as(client, "olga", PASSWORD).status_code == 302


def test_another_organiser_lifts_the_wait(client, clock):
    OrganiserFactory(username="olga", password=PASSWORD)
    OrganiserFactory(username="pia", password=PASSWORD)
    for n in range(ACCOUNT_FREE + 3):
        sign_in_as(Client(), "olga", "wrong", address=f"198.51.100.{n}")
    assert sign_in_as(Client(), "olga", PASSWORD).status_code == 429
    pia = Client()
    assert sign_in_as(pia, "pia", PASSWORD, address="192.0.2.9").status_code == 302
    page = pia.get("/accounts/sign-in-waits/")
    assert page.status_code == 200 and "olga" in page.content.decode()
    assert pia.post("/accounts/sign-in-waits/", {"username": "olga"}).status_code == 302
    assert "olga" not in pia.get("/accounts/sign-in-waits/").content.decode().split("<h1>")[1]
    assert sign_in_as(Client(), "olga", PASSWORD).status_code == 302


def test_the_wait_page_is_for_organisers_only(client):
    assert client.get("/accounts/sign-in-waits/").status_code == 302  # to sign in


def test_the_admins_sign_in_is_slowed_the_same_way(client, clock):
    OrganiserFactory(username="root", password=PASSWORD, is_staff=True, is_superuser=True)
    for _ in range(PAIR_FREE + 1):
        client.post(
            "/admin/login/", {"username": "root", "password": "wrong"}, REMOTE_ADDR="192.0.2.1"
        )
    waiting = client.post(
        "/admin/login/", {"username": "root", "password": PASSWORD}, REMOTE_ADDR="192.0.2.1"
    )
    assert waiting.status_code == 429
    clock.advance(1.01)
    signed_in = client.post(
        "/admin/login/", {"username": "root", "password": PASSWORD}, REMOTE_ADDR="192.0.2.1"
    )
    assert signed_in.status_code == 302


def test_a_right_password_clears_the_count(client, clock):
    OrganiserFactory(username="olga", password=PASSWORD)
    for _ in range(PAIR_FREE):
        sign_in_as(client, "olga", "wrong")
    assert sign_in_as(client, "olga", PASSWORD).status_code == 302
    client.post("/accounts/logout/")
    for _ in range(PAIR_FREE):
        answer = sign_in_as(client, "olga", "wrong")
        assert answer.status_code == 200 and "Wait" not in answer.content.decode()


def test_an_organiser_adds_an_authenticator_and_sign_in_asks_for_it(client, clock, settings):
    settings.OTP_TOTP_THROTTLE_FACTOR = 0  # django-otp's own wait runs on the real clock
    OrganiserFactory(username="olga", password=PASSWORD)
    assert sign_in_as(client, "olga", PASSWORD).status_code == 302
    page = client.post("/accounts/two-step/", {"action": "start"})
    assert page.status_code == 200 and "data:image/svg+xml;base64," in page.content.decode()
    device = TOTPDevice.objects.get(user__username="olga")
    assert not device.confirmed
    wrong = f"{(int(current_code(device, clock)) + 1) % 1_000_000:06d}"
    assert (
        client.post("/accounts/two-step/", {"action": "confirm", "otp_token": wrong}).status_code
        == 400
    )
    code = current_code(device, clock)
    confirmed = client.post("/accounts/two-step/", {"action": "confirm", "otp_token": code})
    assert confirmed.status_code == 302
    device.refresh_from_db()
    assert device.confirmed
    client.post("/accounts/logout/")
    other = Client()
    # The password alone no longer signs in, and counts as a wrong attempt.
    refused = sign_in_as(other, "olga", PASSWORD, address="192.0.2.10")
    assert refused.status_code == 200
    assert "authenticator code is missing or wrong" in refused.content.decode()
    clock.advance(31)  # a new time step: a code is good once
    code = current_code(device, clock)
    signed_in = sign_in_as(other, "olga", PASSWORD, address="192.0.2.10", otp_token=code)
    assert signed_in.status_code == 302


def test_an_organiser_removes_his_authenticator_with_its_current_code(client, clock, settings):
    settings.OTP_TOTP_THROTTLE_FACTOR = 0
    olga = OrganiserFactory(username="olga", password=PASSWORD)
    device = TOTPDevice.objects.create(user=olga, name="authenticator", confirmed=True)
    client.force_login(olga)
    wrong = f"{(int(current_code(device, clock)) + 1) % 1_000_000:06d}"
    refused = client.post("/accounts/two-step/", {"action": "remove", "otp_token": wrong})
    assert refused.status_code == 400
    assert TOTPDevice.objects.filter(user=olga).exists()
    code = current_code(device, clock)
    removed = client.post("/accounts/two-step/", {"action": "remove", "otp_token": code})
    assert removed.status_code == 302
    assert not TOTPDevice.objects.filter(user=olga).exists()


def test_an_administrator_lifts_a_wait_from_the_command_line(client, clock):
    from django.core.management import call_command

    OrganiserFactory(username="olga", password=PASSWORD)
    for _ in range(PAIR_FREE + 1):
        sign_in_as(client, "olga", "wrong")
    assert sign_in_as(client, "olga", PASSWORD).status_code == 429
    call_command("lift_sign_in_wait", "olga")
    assert sign_in_as(client, "olga", PASSWORD).status_code == 302


def test_the_admins_sign_in_asks_for_the_authenticator_code(client, clock, settings):
    settings.OTP_TOTP_THROTTLE_FACTOR = 0
    root = OrganiserFactory(username="root", password=PASSWORD, is_staff=True, is_superuser=True)
    device = TOTPDevice.objects.create(user=root, name="authenticator", confirmed=True)
    page = client.get("/admin/login/")
    assert 'name="otp_token"' in page.content.decode()
    credentials = {"username": "root", "password": PASSWORD}
    refused = client.post("/admin/login/", credentials, REMOTE_ADDR="192.0.2.1")
    assert refused.status_code == 200  # the form again: the code is missing
    code = current_code(device, clock)
    signed_in = client.post(
        "/admin/login/", {**credentials, "otp_token": code}, REMOTE_ADDR="192.0.2.1"
    )
    assert signed_in.status_code == 302
