"""Organisers' and the admin's sign-in: slowed, never locked.

A venue's phones share one address, so a lock per account and address (what django-axes
does) lets anyone at the venue lock the organiser out. Here wrong passwords only make the
next attempt *wait*, in the shared cache:

- **Per account and address**: the first ``PAIR_FREE`` wrong passwords cost nothing; each
  further one makes that pair wait 1, 2, 4 ... seconds, at most ``PAIR_LONGEST``. While the
  wait lasts an attempt is answered 429 with the wait in words, and its password is not
  checked (so it is neither a guess nor a failure); once it is over, the right password signs
  in whatever came before.
- **Per account, across addresses**: beyond ``ACCOUNT_FREE`` wrong passwords from anywhere
  within ``WINDOW``, the account waits the same way, at most ``ACCOUNT_LONGEST``, from every
  address: rotating addresses buys no more guesses. (IPv6 addresses count by their /64.)
- **Known devices**: a browser that signed in to the account before carries a signed cookie
  naming it; its attempts are counted apart from its address and from the account's ceiling,
  so the organiser's own phone is slowed only by its own mistakes (the device cookies of
  OWASP's guidance on blocking brute force without locking users out).
- **Lifting a wait**: a successful sign-in to the account from anywhere lifts every wait on
  it; another organiser lifts it from the "Sign-in waits" page, an administrator with
  ``manage.py lift_sign_in_wait USERNAME``.
- **Second factor**: an organiser may add an authenticator app (TOTP, django-otp) on the
  "Two-step sign-in" page; from then on his sign-in needs its 6-digit code as well, and a
  wrong code counts as a wrong password.

The counters live in the cache (Redis in production, shared by every web process). The cache
fails open (config/cache.py): while Redis is down sign-ins are not slowed.

Why not django-axes (used before): it *locks* (the right password is refused, and counted as
one more failure, until the cool-off ends), whereas a wait that lapses is all a sign-in needs;
its one failure limit applies alike to every lockout parameter, so a per-pair slowdown and a
higher ceiling per account cannot be had together; a success resets only its own pair; and
every attempt writes to the database. Its cool-off may be a callable, but the lock stays a
lock. What is left is a few cache counters, tested in tests/test_sign_in_throttle.py.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import secrets
import time
from dataclasses import dataclass

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.core import signing
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from config.cache import count_hit

logger = logging.getLogger("config.sign_in")

PAIR_FREE = 3  # wrong passwords an account and address may send before they wait
PAIR_LONGEST = 30  # seconds
ACCOUNT_FREE = 12  # wrong passwords to an account from anywhere before every address waits
ACCOUNT_LONGEST = 120  # seconds
WINDOW = 3600  # seconds a count of wrong passwords lasts after the last one
UNTIL_KEPT = 60  # seconds the end of a wait stays in the cache after it
DEVICE_COOKIE = "signin_device"
DEVICE_COOKIE_AGE = 365 * 24 * 3600
OTP_FIELD = "otp_token"


def wait_in_words(seconds: float) -> str:
    """``"1 second"``, ``"45 seconds"``, ``"2 minutes"``: the wait, rounded up."""
    seconds = max(1, math.ceil(seconds))
    if seconds < 90:
        return ngettext("%(count)s second", "%(count)s seconds", seconds) % {"count": seconds}
    minutes = math.ceil(seconds / 60)
    return ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes}


def backoff(failures: int, free: int, longest: int) -> int:
    """Seconds to wait after ``failures`` wrong passwords when ``free`` cost nothing."""
    excess = failures - free
    return 0 if excess <= 0 else min(longest, 1 << min(excess - 1, 20))


def address_of(request) -> str:
    """The client's address; an IPv6 address by its /64, which one client usually holds
    whole."""
    raw = request.META.get("REMOTE_ADDR") or "unknown"
    try:
        address = ipaddress.ip_address(raw)
    except ValueError:
        return raw
    if address.version == 6:
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def _account(username: str) -> str:
    return hashlib.blake2s(username.strip().casefold().encode(), digest_size=12).hexdigest()


@dataclass
class Attempt:
    """One sign-in attempt's keys in the cache: the account, and the source it is counted
    under (its address, or its known device)."""

    account: str
    source: str
    known_device: bool

    @classmethod
    def of(cls, request, username: str) -> Attempt:
        device = known_device(request, username)
        source = f"device:{device}" if device else f"address:{address_of(request)}"
        return cls(_account(username), source, device is not None)

    def _generation(self) -> int:
        return cache.get(f"signin:gen:{self.account}") or 0

    def keys(self) -> tuple[str, str]:
        """The pair's and the account's key prefixes; a new generation (a success, a lift)
        makes every earlier count and wait of the account void."""
        base = f"signin:{self.account}:{self._generation()}"
        return f"{base}:{self.source}", f"{base}:account"

    def wait(self) -> float:
        """Seconds this attempt must still wait (0: its password may be checked)."""
        pair, account = self.keys()
        names = [f"{pair}:until"] + ([] if self.known_device else [f"{account}:until"])
        now = time.time()
        return max([0.0] + [until - now for until in cache.get_many(names).values()])

    def failed(self) -> float:
        """Count a wrong password; the wait it starts, in seconds (0: none yet)."""
        pair, account = self.keys()
        waits = [(pair, backoff(count_hit(cache, f"{pair}:n", WINDOW), PAIR_FREE, PAIR_LONGEST))]
        if not self.known_device:
            failures = count_hit(cache, f"{account}:n", WINDOW)
            waits.append((account, backoff(failures, ACCOUNT_FREE, ACCOUNT_LONGEST)))
        now = time.time()
        for prefix, seconds in waits:
            if seconds:
                # The time stored decides the wait; the cache's expiry, well after it, only
                # clears the key away (a busy server may answer seconds after it read the time).
                cache.set(f"{prefix}:until", now + seconds, seconds + UNTIL_KEPT)
        return max(seconds for _, seconds in waits)

    def lift(self) -> None:
        lift_waits_of_account(self.account)


def lift_waits_of_account(account: str) -> None:
    key = f"signin:gen:{account}"
    if not cache.add(key, 1, None):
        try:
            cache.incr(key)
        except ValueError:
            cache.set(key, 1, None)


def lift_waits(username: str) -> None:
    """Lift every wait on the account ``username`` (any address, the account's ceiling)."""
    lift_waits_of_account(_account(username))


def waiting_for(username: str) -> float:
    """Seconds a sign-in to ``username`` from an unknown address would wait at most."""
    attempt = Attempt(_account(username), "", False)
    _, account = attempt.keys()
    until = cache.get(f"{account}:until") or 0
    return max(0.0, until - time.time())


# Known devices: a signed cookie naming the account and a random device id.


def known_device(request, username: str) -> str | None:
    value = request.COOKIES.get(DEVICE_COOKIE)
    if not value:
        return None
    try:
        data = signing.loads(value, salt=DEVICE_COOKIE, max_age=DEVICE_COOKIE_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("a") != _account(username):
        return None
    return str(data.get("d") or "") or None


def remember_device(response, request, username: str) -> None:
    device = known_device(request, username) or secrets.token_hex(8)
    value = signing.dumps({"a": _account(username), "d": device}, salt=DEVICE_COOKIE)
    response.set_cookie(
        DEVICE_COOKIE,
        value,
        max_age=DEVICE_COOKIE_AGE,
        httponly=True,
        secure=request.is_secure(),
        samesite="Lax",
    )


# The authentication backend, the middleware that answers a wait, and the sign-in form.


class SignInWait(PermissionDenied):
    def __init__(self, seconds: float):
        super().__init__(f"wait {wait_in_words(seconds)}")
        self.seconds = seconds


class ThrottledBackend(ModelBackend):
    """Django's model backend behind the throttle, with the second factor for accounts that
    have one. Every sign-in through ``django.contrib.auth.authenticate`` (the organisers' page,
    the admin's) goes through it."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:  # not a web request (a shell): nothing to throttle
            return super().authenticate(request, username, password, **kwargs)
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        attempt = Attempt.of(request, username or "")
        wait = attempt.wait()
        if wait > 0:
            request.sign_in_wait = wait
            logger.info("sign-in to %r from %s waits %.0f s", username, address_of(request), wait)
            raise SignInWait(wait)
        user = self._checked_alone(request, attempt, username, password, **kwargs)
        if user is None:
            _refused(request, attempt, username)
            return None
        attempt.lift()
        request.sign_in_known_username = username
        return user

    def _checked_alone(self, request, attempt, username, password, **kwargs):
        """The password and the second factor checked, one check at a time for an account and
        an address (``SignInWait`` while another runs); the user, or None."""
        busy = f"signin:busy:{attempt.account}:{attempt.source}"
        if not cache.add(busy, 1, 10):
            request.sign_in_wait = 1
            raise SignInWait(1)
        try:
            user = super().authenticate(request, username, password, **kwargs)
            if user is not None and not second_factor_passes(user, request):
                return None
            return user
        finally:
            cache.delete(busy)


def _refused(request, attempt: Attempt, username: str | None) -> None:
    """A wrong password or code: counted (the page says how long the next attempt waits) and
    logged."""
    wait = attempt.failed()
    request.sign_in_failed_wait = wait
    logger.warning(
        "wrong password for %r from %s%s",
        username,
        address_of(request),
        f"; next attempt waits {wait} s" if wait else "",
    )


def second_factor_passes(user, request) -> bool:
    from django_otp import devices_for_user, match_token

    if not any(devices_for_user(user, confirmed=True)):
        return True
    token = (request.POST.get(OTP_FIELD) or "").strip().replace(" ", "")
    device = match_token(user, token) if token else None
    if device is None:
        request.sign_in_needs_code = True
        return False
    request.otp_device = device
    return True


class SignInMiddleware:
    """Answers an attempt made while its wait lasts with 429, the wait in words and
    ``Retry-After``; after a successful sign-in, gives the browser its known-device cookie."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        wait = getattr(request, "sign_in_wait", None)
        if wait:
            response = render(
                request,
                "registration/locked_out.html",
                {"wait": wait_in_words(wait), "login_url": reverse("login")},
                status=429,
            )
            response["Retry-After"] = str(math.ceil(wait))
        username = getattr(request, "sign_in_known_username", None)
        if username is not None and request.user.is_authenticated:
            remember_device(response, request, username)
        return response


class SignInForm(AuthenticationForm):
    """The organisers' sign-in: username, password and, for an account with an authenticator
    app, its code; a wrong password says how long the next attempt waits."""

    otp_token = forms.CharField(
        label=_("Authenticator code"),
        required=False,
        max_length=12,
        help_text=_("Only if you added an authenticator app to your account."),
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}),
    )

    def clean(self):
        try:
            return super().clean()
        except forms.ValidationError:
            wait = getattr(self.request, "sign_in_failed_wait", 0)
            if getattr(self.request, "sign_in_needs_code", False):
                message = gettext("The authenticator code is missing or wrong.")
            else:
                message = self.error_messages["invalid_login"] % {
                    "username": self.username_field.verbose_name
                }
            if wait:
                message += " " + gettext("Wait %(wait)s before trying again.") % {
                    "wait": wait_in_words(wait)
                }
            raise forms.ValidationError(message, code="invalid_login") from None
