"""Organisers' sign-in is throttled per account and address (django-axes): a guesser locks the
pair he tries, with locks that double and are logged; the organiser at the venue, another
account, and the admin's own sign-in follow the same rules."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessFailureLog
from django.test import RequestFactory

from config.security import login_cooloff
from tests.tournaments.factories import OrganiserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"


def sign_in(client, username, password, address="203.0.113.7"):
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_five_wrong_passwords_lock_the_account_from_that_address(client, caplog):
    OrganiserFactory(username="olga", password=PASSWORD)
    for _ in range(4):
        assert sign_in(client, "olga", "wrong").status_code == 200  # the form again
    with caplog.at_level("WARNING", logger="axes"):
        locked = sign_in(client, "olga", "wrong")
    assert locked.status_code == 429
    assert "Too many wrong passwords" in locked.content.decode()
    assert "Try again in" in locked.content.decode()
    assert any("locking out" in record.getMessage().lower() for record in caplog.records)
    # Even the right password waits while the lock lasts.
    assert sign_in(client, "olga", PASSWORD).status_code == 429
    assert AccessFailureLog.objects.filter(username="olga", locked_out=True).exists()


def test_the_lock_stops_only_the_pair_the_guesser_tries(client):
    OrganiserFactory(username="olga", password=PASSWORD)
    OrganiserFactory(username="pia", password=PASSWORD)
    for _ in range(5):
        sign_in(client, "olga", "wrong", address="198.51.100.9")
    assert sign_in(client, "olga", PASSWORD, address="198.51.100.9").status_code == 429
    # The organiser at the venue, from her own address, signs in.
    assert sign_in(client, "olga", PASSWORD, address="203.0.113.7").status_code == 302
    client.logout()
    # Another account from the guesser's own address is not locked either.
    assert sign_in(client, "pia", PASSWORD, address="198.51.100.9").status_code == 302


def test_the_admins_sign_in_is_throttled_the_same_way(client):
    OrganiserFactory(username="root", password=PASSWORD, is_staff=True, is_superuser=True)
    for _ in range(5):
        client.post(
            "/admin/login/", {"username": "root", "password": "wrong"}, REMOTE_ADDR="192.0.2.1"
        )
    locked = client.post(
        "/admin/login/", {"username": "root", "password": PASSWORD}, REMOTE_ADDR="192.0.2.1"
    )
    assert locked.status_code == 429
    assert AccessAttempt.objects.filter(username="root").exists()


def test_a_right_password_before_the_limit_clears_the_count(client):
    OrganiserFactory(username="olga", password=PASSWORD)
    for _ in range(4):
        sign_in(client, "olga", "wrong")
    assert sign_in(client, "olga", PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        assert sign_in(client, "olga", "wrong").status_code == 200  # counting starts again


def test_locks_double_for_a_pair_that_goes_on_guessing():
    request = RequestFactory().post("/accounts/login/", {"username": "olga"})
    request.axes_ip_address = "198.51.100.9"
    assert login_cooloff(request) == timedelta(minutes=1)
    for count in (5, 10, 15):
        AccessFailureLog.objects.bulk_create(
            AccessFailureLog(username="olga", ip_address="198.51.100.9", user_agent="x")
            for _ in range(count - AccessFailureLog.objects.count())
        )
        assert login_cooloff(request) == timedelta(minutes=2 ** (count // 5 - 1))
    other = RequestFactory().post("/accounts/login/", {"username": "olga"})
    other.axes_ip_address = "203.0.113.7"
    assert login_cooloff(other) == timedelta(minutes=1)
