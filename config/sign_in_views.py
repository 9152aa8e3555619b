"""Organisers' pages about sign-in: lifting another organiser's wait, and the optional second
factor (an authenticator app, TOTP through django-otp)."""

from __future__ import annotations

import base64
import io
import logging

import qrcode
import qrcode.image.svg
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.views import LoginView
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django_otp.plugins.otp_totp.models import TOTPDevice

from config.sign_in import SignInForm, lift_waits, wait_in_words, waiting_for
from tournaments.permissions import ORGANISERS_GROUP, organiser_required

logger = logging.getLogger("config.sign_in")
PENDING_DEVICE = "pending_totp_device"


class SignInView(LoginView):
    authentication_form = SignInForm


def _organisers():
    return (
        get_user_model()
        .objects.filter(Q(groups__name=ORGANISERS_GROUP) | Q(is_superuser=True), is_active=True)
        .distinct()
        .order_by("username")
    )


@organiser_required
def sign_in_waits(request: HttpRequest) -> HttpResponse:
    """Accounts whose sign-in waits now, each with a button that lifts the wait."""
    if request.method == "POST":
        username = request.POST.get("username", "")
        if _organisers().filter(username=username).exists():
            lift_waits(username)
            logger.warning(
                "%s lifted the sign-in wait of %r", request.user.get_username(), username
            )
            messages.success(
                request, gettext("%(name)s may sign in again at once.") % {"name": username}
            )
        return redirect("sign-in-waits")
    accounts = [
        {"username": user.username, "wait": wait_in_words(wait)}
        for user in _organisers()
        if (wait := waiting_for(user.username)) > 0
    ]
    return render(request, "registration/sign_in_waits.html", {"accounts": accounts})


def _qr_data_uri(text: str) -> str:
    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=8)
    buffer = io.BytesIO()
    image.save(buffer)
    return "data:image/svg+xml;base64," + base64.b64encode(buffer.getvalue()).decode()


@organiser_required
def two_step(request: HttpRequest) -> HttpResponse:
    """Add, confirm or remove the account's authenticator app."""
    user = request.user
    confirmed = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    pending = TOTPDevice.objects.filter(
        user=user, confirmed=False, pk=request.session.get(PENDING_DEVICE)
    ).first()
    error: str | None = ""
    if request.method == "POST":
        action = request.POST.get("action")
        token = (request.POST.get("otp_token") or "").strip().replace(" ", "")
        if action == "start" and confirmed is None:
            pending = _new_pending_device(request)
        elif action == "confirm" and pending is not None:
            error = _confirm_device(request, pending, token)
        elif action == "remove" and confirmed is not None:
            error = _remove_devices(request, confirmed, token)
        if error is None:
            return redirect("two-step")
    return _two_step_page(request, confirmed, pending, error or "")


def _new_pending_device(request: HttpRequest) -> TOTPDevice:
    """A new authenticator to confirm (any earlier unconfirmed one goes), kept in the
    session."""
    TOTPDevice.objects.filter(user=request.user, confirmed=False).delete()
    pending = TOTPDevice.objects.create(user=request.user, name="authenticator", confirmed=False)
    request.session[PENDING_DEVICE] = pending.pk
    return pending


def _confirm_device(request: HttpRequest, pending: TOTPDevice, token: str) -> str | None:
    """Confirm the new authenticator with its current code: None once confirmed, else why
    not."""
    if not pending.verify_token(token):
        return gettext("That code is not the app's current one: check the app's clock and retry.")
    pending.confirmed = True
    pending.save(update_fields=["confirmed"])
    request.session.pop(PENDING_DEVICE, None)
    logger.warning("%s added an authenticator app", request.user.get_username())
    messages.success(request, gettext("Your sign-in now asks for the authenticator's code."))
    return None


def _remove_devices(request: HttpRequest, confirmed: TOTPDevice, token: str) -> str | None:
    """Remove the account's authenticator, given its current code: None once removed, else
    why not."""
    if not confirmed.verify_token(token):
        return gettext("That code is not the app's current one.")
    TOTPDevice.objects.filter(user=request.user).delete()
    logger.warning("%s removed his authenticator app", request.user.get_username())
    messages.success(request, gettext("Your sign-in no longer asks for a code."))
    return None


def _two_step_page(
    request: HttpRequest, confirmed: TOTPDevice | None, pending: TOTPDevice | None, error: str
) -> HttpResponse:
    """The page: the authenticator in use, or the new one's QR code and key to add to the
    app; 400 with the reason when a code was refused."""
    context = {"confirmed": confirmed, "pending": pending, "error": error}
    if pending is not None and confirmed is None:
        context["qr"] = _qr_data_uri(pending.config_url)
        context["key"] = base64.b32encode(pending.bin_key).decode()
    status = 400 if error else 200
    return render(request, "registration/two_step.html", context, status=status)
