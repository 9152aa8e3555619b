"""A tournament whose pages are not public yet answers every public address with a page that
says so in words (404), never a bare "not found" nor, on the development server, a debug page.
Every app's public pages raise ``NotPublished`` for a draft (``selectors.is_public`` says which).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.models import Tournament


class NotPublished(Http404):
    """A public address of a tournament that is still its organisers' own (a draft)."""

    def __init__(self, tournament: Tournament):
        super().__init__(f"{tournament.name} is not published yet.")
        self.tournament = tournament


class NotPublishedMiddleware:
    """Turns ``NotPublished`` into the page that says so."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, NotPublished):
            return None
        context = {"tournament": exception.tournament}
        return render(request, "scoring/public/not_published.html", context, status=404)
