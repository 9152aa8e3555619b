"""The language of every page: the reader's choice, else the tournament's, else the browser's.

In this order, the first that names a language of ``settings.LANGUAGES``:

1. the reader's choice, in the language cookie (the chooser of every page sets it);
2. a signed-in organiser's stored choice (``LanguageChoice``, copied into the session when he
   signs in, so that another device follows it without a query per page);
3. on a tournament's pages (any address with its ``slug``), the tournament's language: its
   public pages, the phones' pages and its printed cards are in the club's language for a
   reader who has not chosen;
4. the browser's ``Accept-Language``; English when it names none of ours.

The tournament's language is read through the cache (one key per tournament, written when the
tournament is saved), so that a public page served from the cache costs no query more.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.core.cache import cache
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST
from django.views.i18n import JavaScriptCatalog

from tournaments.models import LanguageChoice, Tournament

SESSION_KEY = "language"
LANGUAGE_TTL = 3600


def known(code: str | None) -> str | None:
    """``code`` if it is one of the site's languages, else None."""
    return code if code in dict(settings.LANGUAGES) else None


def _tournament_language_key(slug: str) -> str:
    return f"pym:language:{slug}"


def tournament_language(slug: str) -> str | None:
    """The language of the tournament at ``slug`` (None if there is none), through the cache."""
    key = _tournament_language_key(slug)
    language = cache.get(key)
    if language is None:
        language = Tournament.objects.filter(slug=slug).values_list("language", flat=True).first()
        if language is None:
            return None
        cache.set(key, language, LANGUAGE_TTL)
    return known(language)


@receiver(post_save, sender=Tournament)
def _store_tournament_language(sender: Any, instance: Tournament, **kwargs: Any) -> None:
    # Stored as saved, so that even the first page after a change reads no tournament row.
    cache.set(_tournament_language_key(instance.slug), instance.language, LANGUAGE_TTL)


@receiver(user_logged_in)
def _remember_stored_choice(sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    stored = LanguageChoice.objects.filter(user=user).values_list("language", flat=True).first()
    if request is not None and known(stored):
        request.session[SESSION_KEY] = stored


def chosen_language(request: HttpRequest) -> str | None:
    """The reader's own choice: the cookie, else a signed-in organiser's stored one."""
    chosen = known(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
    session = getattr(request, "session", None)
    if chosen is None and session is not None:
        chosen = known(session.get(SESSION_KEY))
    return chosen


class LanguageMiddleware:
    """Activates the page's language (see the module's words); answers in it (Content-Language)
    and says the answer depends on the cookie and the browser's languages (Vary)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chosen = chosen_language(request)
        request.language_chosen = chosen is not None  # type: ignore[attr-defined]
        language = chosen or translation.get_language_from_request(request)
        before = translation.get_language()
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()  # type: ignore[attr-defined]
        try:
            response = self.get_response(request)
            response.headers.setdefault("Content-Language", translation.get_language())
        finally:
            # The thread goes back to the language it had: what runs after the request in it
            # (a test, a task run in place) is not left in the reader's language.
            if before:
                translation.activate(before)
            else:
                translation.deactivate()
        _vary(response, "Accept-Language", "Cookie")
        return response

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: dict[str, Any]
    ) -> None:
        slug = kwargs.get("slug")
        if getattr(request, "language_chosen", True) or not isinstance(slug, str):
            return
        language = tournament_language(slug)
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language  # type: ignore[attr-defined]


def _vary(response: HttpResponse, *headers: str) -> None:
    present = [h.strip() for h in response.headers.get("Vary", "").split(",") if h.strip()]
    for header in headers:
        if header.lower() not in (h.lower() for h in present):
            present.append(header)
    response.headers["Vary"] = ", ".join(present)


def _safe_next(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.headers.get("referer") or "/"
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if allowed else "/"


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The chooser's form: remembers the language in a cookie (a year) and, for a signed-in
    organiser, stores it; back to the page it was chosen on. An unknown language is refused
    (400) and changes nothing."""
    language = known(request.POST.get("language"))
    if language is None:
        return HttpResponse(_("Choose one of the languages offered."), status=400)
    response = HttpResponseRedirect(_safe_next(request))
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite="Lax",
        secure=request.is_secure(),
    )
    if request.user.is_authenticated:
        LanguageChoice.objects.update_or_create(user=request.user, defaults={"language": language})
        request.session[SESSION_KEY] = language
    return response


class Catalogue(JavaScriptCatalog):
    """The phone scripts' words in the language named by the address (``/jsi18n/fr/``), so
    that the page and its scripts always agree and the answer can be cached."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        language = known(kwargs.get("language")) or settings.LANGUAGE_CODE
        with translation.override(language):
            response = super().get(request, *args, **kwargs)
        response["Cache-Control"] = "public, max-age=3600"
        return response


def chooser(request: HttpRequest) -> dict[str, Any]:
    """Context for the chooser of every page: the languages offered, each in its own words."""
    return {"site_languages": settings.LANGUAGES}
