"""Sign-in throttling for organisers and the admin (django-axes, configured in settings).

Wrong passwords are counted per account *and* address, so a guesser locks only the pair he
tries, never the organiser at the venue. Each lock of a pair within a day lasts twice as long
as the one before: 1, 2, 4 ... minutes, at most a day (counted from axes' log of failures,
which outlives the attempts axes forgets when a lock ends).
"""

from __future__ import annotations

from datetime import timedelta

FIRST_COOLOFF_MINUTES = 1
LONGEST_COOLOFF = timedelta(days=1)


def login_cooloff(request) -> timedelta:
    """How long the account and address of ``request`` stay locked after this failure."""
    from axes.models import AccessFailureLog
    from django.conf import settings
    from django.utils import timezone

    username = (request.POST.get("username") or "").strip() if request is not None else ""
    failures = AccessFailureLog.objects.filter(
        username=username,
        ip_address=getattr(request, "axes_ip_address", None),
        attempt_time__gte=timezone.now() - timedelta(days=1),
    ).count()
    locks = max(1, failures // settings.AXES_FAILURE_LIMIT)
    return min(LONGEST_COOLOFF, timedelta(minutes=FIRST_COOLOFF_MINUTES) * 2 ** min(locks - 1, 20))


# Every page's scripts and styles are files of the site's own (no inline script, style or
# event handler anywhere), images too or inline SVG; nothing may frame the pages.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


# The interactive API page: Swagger UI sets styles inline; its scripts stay the site's files.
API_PAGE_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
    "style-src 'self'", "style-src 'self' 'unsafe-inline'"
)


class ContentSecurityPolicyMiddleware:
    """Sends ``CONTENT_SECURITY_POLICY`` with every answer that has none, so that injected
    markup, were any to slip through escaping, could not run (Django 6 does this itself)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        return response
