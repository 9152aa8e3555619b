"""WSGI entry point (gunicorn config.wsgi).

Requests of the team-code API (a phone's entry, East's check, the team's own view; header
``X-Team-Code``) go through a handler without the middleware they never use: sessions,
sign-in, CSRF and messages serve the organiser's and the scorer's pages, and cost about a
tenth of such a request, which is the one every table sends at the end of a round. Everything
else, the director's API included, goes through the site's whole middleware.
"""

import os
import re

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

site = get_wsgi_application()

from django.conf import settings  # noqa: E402  (after the settings are set up)
from django.core.handlers.wsgi import WSGIHandler  # noqa: E402
from django.test.utils import override_settings  # noqa: E402

# The views of scoring.api.views.scorer.TeamView: /me/, and per board preview/, entries/ (with
# entries/<id>/accept/ and reject/) and call-director/; not director/.
TEAM_API_PATH = re.compile(
    r"^/api/v1/tournaments/[^/]+/(?:me/|matches/\d+/boards/\d+/(?:preview|entries|call-director)/)"
)


class EntrantApiHandler(WSGIHandler):
    def load_middleware(self, is_async=False):
        with override_settings(MIDDLEWARE=settings.TEAM_API_MIDDLEWARE):
            super().load_middleware(is_async)


entrant_api = EntrantApiHandler()


def application(environ, start_response):
    if "HTTP_X_TEAM_CODE" in environ and TEAM_API_PATH.match(environ.get("PATH_INFO", "")):
        return entrant_api(environ, start_response)
    return site(environ, start_response)
