"""Every answer carries the Content-Security-Policy (the browser tests check that the pages
keep it); the team API, which skips most middleware, too."""

from __future__ import annotations

import io
import sys

import pytest

from config.security import CONTENT_SECURITY_POLICY

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/accounts/login/", "/healthz", "/api/v1/tournaments/"])
def test_the_policy_is_sent(client, url):
    response = client.get(url)
    assert response["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert "script-src 'self'" in CONTENT_SECURITY_POLICY
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY


def test_the_entrant_api_sends_it_too():
    from config.wsgi import application  # the lean handler of team-code requests

    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": "/api/v1/tournaments/none/me/",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "HTTP_X_TEAM_CODE": "NOPE",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": sys.stderr,
    }
    headers = {}

    def start_response(status, response_headers, exc_info=None):
        headers.update(response_headers)

    b"".join(application(environ, start_response))
    assert headers.get("Content-Security-Policy") == CONTENT_SECURITY_POLICY
