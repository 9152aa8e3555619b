#!/usr/bin/env python
"""Container health check of the web service: GET /healthz on the local gunicorn.

Exit status 0 when it answers 200, 1 otherwise (with the reason on stderr). It sends the
request the way the reverse proxy does: for the first name in DJANGO_ALLOWED_HOSTS and marked
as HTTPS, so Django's host check and HTTPS redirect treat it like a real request.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

TIMEOUT_SECONDS = 5


def host_header(allowed: str) -> str:
    """A host name Django accepts: the first allowed host, without a leading wildcard dot."""
    first = next((name.strip() for name in allowed.split(",") if name.strip()), "localhost")
    if first == "*":
        return "localhost"
    return first.lstrip(".")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect (to HTTPS, usually) means the request was not served: report it."""

    def redirect_request(self, *args, **kwargs):
        return None


def main() -> int:
    port = os.environ.get("PORT", "8000")
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/healthz",
        headers={
            "Host": host_header(os.environ.get("DJANGO_ALLOWED_HOSTS", "")),
            "X-Forwarded-Proto": "https",
        },
    )
    try:
        opener = urllib.request.build_opener(_NoRedirect)
        with opener.open(request, timeout=TIMEOUT_SECONDS) as response:
            body = response.read(2000).decode("utf-8", "replace")
            if response.status == 200:
                return 0
            print(f"/healthz answered {response.status}: {body}", file=sys.stderr)
    except urllib.error.HTTPError as exc:
        body = exc.read(2000).decode("utf-8", "replace")
        print(f"/healthz answered {exc.code}: {body}", file=sys.stderr)
        if 300 <= exc.code < 400:
            print("redirected: behind a proxy set DJANGO_BEHIND_PROXY=true", file=sys.stderr)
    except OSError as exc:
        print(f"/healthz did not answer: {exc}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
