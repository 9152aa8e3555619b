"""The WSGI entry point sends the team-code API through its lean handler, the rest through the
site's whole middleware."""

from __future__ import annotations

import io
import json

import pytest

import config.wsgi as wsgi
from scoring.models import Result
from tests.scoring.conftest import GAM_MADE, build_cup, new_id


def call(
    path: str,
    *,
    code: str | None = None,
    body: dict | None = None,
    method: str = "POST",
    host: str = "localhost",
):
    data = json.dumps(body or {}).encode()
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "SERVER_NAME": "localhost",
        "SERVER_PORT": "80",
        "HTTP_HOST": host,
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(data)),
        "REMOTE_ADDR": "192.0.2.10",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.input": io.BytesIO(data),
        "wsgi.url_scheme": "http",
        "wsgi.errors": io.StringIO(),
    }
    if code is not None:
        environ["HTTP_X_TEAM_CODE"] = code
    answer = {}

    def start_response(status, headers, exc_info=None):
        answer["status"], answer["headers"] = int(status.split()[0]), dict(headers)

    content = b"".join(wsgi.application(environ, start_response))
    is_json = "json" in answer["headers"].get("Content-Type", "")
    return answer["status"], answer["headers"], json.loads(content) if is_json else content


@pytest.fixture
def handled(monkeypatch):
    """Which handler took each request."""
    seen = []
    for name in ("entrant_api", "site"):
        handler = getattr(wsgi, name)

        def spy(environ, start_response, handler=handler, name=name):
            seen.append(name)
            return handler(environ, start_response)

        monkeypatch.setattr(wsgi, name, spy)
    return seen


@pytest.mark.django_db(transaction=True)
def test_north_and_east_go_through_the_lean_handler(handled):
    cup = build_cup(slug="wsgi-cup")
    match = cup.match(1, 1)
    board = f"/api/v1/tournaments/wsgi-cup/matches/{match.pk}/boards/1/"
    status, headers, entry = call(
        board + "entries/",
        code=match.north_entrant.access_code,
        body={"client_id": new_id(), "record": GAM_MADE},
    )
    assert status == 201 and entry["score"]["ns"] == 21
    assert "Set-Cookie" not in headers and headers["X-Content-Type-Options"] == "nosniff"
    status, _headers, result = call(
        board + f"entries/{entry['id']}/accept/",
        code=match.east_entrant.access_code,
        body={"client_id": new_id()},
    )
    assert status == 200 and result["kind"] == "confirmed"
    status, _headers, me = call(
        "/api/v1/tournaments/wsgi-cup/me/", code=match.north_entrant.access_code, method="GET"
    )
    assert status == 200 and me["team"]["number"] == match.north_entrant.number
    status, _headers, _body = call(
        board + "preview/", code=match.north_entrant.access_code, body={}, host="evil.example"
    )
    assert status == 400  # the host is checked here too
    assert handled == ["entrant_api"] * 4
    assert Result.objects.filter(match=match, current=True).count() == 1


@pytest.mark.django_db(transaction=True)
def test_everything_else_goes_through_the_whole_site(handled):
    cup = build_cup(slug="wsgi-site")
    match = cup.match(1, 1)
    code = match.north_entrant.access_code
    director = f"/api/v1/tournaments/wsgi-site/matches/{match.pk}/boards/1/director/erase/"
    status, _headers, _body = call(director, code=code, body={"reason": "x"})
    assert status in (401, 403)  # a team's code is no organiser's credential
    status, _headers, standings = call("/api/v1/tournaments/wsgi-site/standings/", method="GET")
    assert status == 200 and standings["tournament"] == "wsgi-site"
    assert handled == ["site", "site"]


def test_the_lean_handler_keeps_the_security_headers_and_host_check(settings):
    assert settings.TEAM_API_MIDDLEWARE[0] == "django.middleware.security.SecurityMiddleware"
    assert "django.middleware.common.CommonMiddleware" in settings.TEAM_API_MIDDLEWARE
    assert set(settings.TEAM_API_MIDDLEWARE) <= set(settings.MIDDLEWARE)
    assert wsgi.TEAM_API_PATH.match("/api/v1/tournaments/cup/matches/4/boards/1/entries/9/reject/")
    assert not wsgi.TEAM_API_PATH.match("/api/v1/tournaments/cup/matches/4/boards/1/director/")
