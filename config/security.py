"""The site's Content-Security-Policy (the organisers' sign-in is in config/sign_in.py)."""

from __future__ import annotations

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
