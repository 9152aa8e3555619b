"""URL map: organiser pages, sign-in, admin, the REST API and its schema, and the scoring
app's scorer, director and public pages."""

from django.contrib import admin
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView


def favicon(request: HttpRequest) -> HttpResponse:
    """The site's icon, wherever the static files are (its address is known only once they
    are collected, in production)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


urlpatterns = [
    path("", RedirectView.as_view(pattern_name="tournaments:list", permanent=False), name="home"),
    # Browsers ask for /favicon.ico whatever the pages link to.
    path("favicon.ico", favicon),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("tournaments/", include("tournaments.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/v1/", include("scoring.api.urls")),
    path("", include("config.health")),
    path("", include("scoring.urls")),
    path("", include("publishing.urls")),
]

# Problem details for API addresses, the site's pages elsewhere.
handler404 = "scoring.api.problems.not_found"
handler500 = "scoring.api.problems.server_error"
