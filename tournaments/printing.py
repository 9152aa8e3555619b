"""The scorer link and its QR code printed on every team's route card.

Players scan the code (or type the address and their access code) to reach the scorer pages.
The address comes from the URL named by ``settings.SCORER_ENTRY_URL_NAME`` and, for the host,
``settings.PUBLIC_BASE_URL`` when set (printing from a laptop on localhost must still give
phones a reachable address), else the address of the request.
"""

from __future__ import annotations

from urllib.parse import urlencode

import qrcode
import qrcode.image.svg
from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from tournaments.models import Entrant


def scorer_path(entrant: Entrant) -> str:
    path = reverse(settings.SCORER_ENTRY_URL_NAME, kwargs={"slug": entrant.tournament.slug})
    return f"{path}?{urlencode({'code': entrant.access_code})}"


def scorer_url(entrant: Entrant, request: HttpRequest | None = None) -> str:
    base = settings.PUBLIC_BASE_URL
    if not base and request is not None:
        base = request.build_absolute_uri("/").rstrip("/")
    return f"{base}{scorer_path(entrant)}"


def qr_svg(text: str, label: str = "QR code") -> SafeString:
    """An inline SVG QR code of ``text`` (no image files, works offline and in print)."""
    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    svg = image.to_string(encoding="unicode")
    svg = svg.replace("<svg ", f'<svg class="qr" role="img" aria-label="{escape(label)}" ', 1)
    # The SVG is generated here from our own text, never from user markup.
    return mark_safe(svg)
