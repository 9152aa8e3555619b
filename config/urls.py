"""URL map: organiser pages, sign-in, admin, the REST API and its schema, and the scoring
app's scorer, director and public pages."""

from django.contrib import admin
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path, re_path
from django.views.generic import RedirectView
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.security import API_PAGE_CONTENT_SECURITY_POLICY
from config.sign_in_views import SignInView, sign_in_waits, two_step
from scoring.api.views.public import NotFoundView as ApiNotFound
from tournaments.languages import Catalogue, set_language


class ApiSchema(SpectacularAPIView):
    """The OpenAPI schema of the API (``/api/v1/``), not of itself."""

    @extend_schema(exclude=True)
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class ApiPage(SpectacularSwaggerSplitView):
    """The interactive API page (Swagger UI from the sidecar package, no CDN); its setup is a
    script file of its own, as the site's policy allows no inline script."""

    template_name = "api_docs.html"  # the page's language and a main landmark

    @extend_schema(exclude=True)
    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        response["Content-Security-Policy"] = API_PAGE_CONTENT_SECURITY_POLICY
        return response


def favicon(request: HttpRequest) -> HttpResponse:
    """The site's icon, wherever the static files are (its address is known only once they
    are collected, in production)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


# The admin's sign-in asks for the authenticator code too (config/sign_in.py).
admin.site.login_template = "registration/admin_login.html"

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="tournaments:list", permanent=False), name="home"),
    # Browsers ask for /favicon.ico whatever the pages link to.
    path("favicon.ico", favicon),
    # The language chooser of every page, and the phone scripts' words in a language.
    path("language/", set_language, name="set-language"),
    path("jsi18n/<str:language>/", Catalogue.as_view(), name="javascript-catalog"),
    # Sign-in slowed after wrong passwords, never locked, with an optional second factor.
    path("accounts/login/", SignInView.as_view(), name="login"),
    path("accounts/sign-in-waits/", sign_in_waits, name="sign-in-waits"),
    path("accounts/two-step/", two_step, name="two-step"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("tournaments/", include("tournaments.urls")),
    path("api/schema/", ApiSchema.as_view(), name="api-schema"),
    # The interactive API page: its setup is a script file of its own (the CSP allows no
    # inline script) and Swagger UI comes from the sidecar package, not from a CDN.
    path("api/docs/", ApiPage.as_view(url_name="api-schema"), name="api-docs"),
    path("api/v1/", include("scoring.api.urls")),
    path("api/v1/", include("clubs.api_urls")),
    path("", include("config.health")),
    path("", include("scoring.urls")),
    path("", include("analysis.urls")),
    path("", include("publishing.urls")),
    path("", include("broadcast.urls")),
    path("", include("clubs.urls")),
    # Any other address under /api/ ending in a slash: a problem document, never a page, in
    # debug mode too (one without its slash is first sent to the one with it).
    re_path(r"^api/(.*/)?$", ApiNotFound.as_view(), name="api-not-found"),
]

# Problem details for API addresses, the site's pages elsewhere.
handler404 = "scoring.api.problems.not_found"
handler500 = "scoring.api.problems.server_error"
