"""Routes of the scorer pages, the director's dashboard and the public pages (one views
module each: ``scoring.views.scorer``, ``.director``, ``.public``).

The scorer entry keeps the un-namespaced name ``scorer-entry`` that the printed QR codes are
made from (``settings.SCORER_ENTRY_URL_NAME``); everything else is in the ``scoring``
namespace.
"""

from django.urls import include, path

from scoring.views import director, public, scorer

BOARD = "tournaments/<slug:slug>/director/<int:match_id>/<int:board>/"

scoring_patterns = [
    path("score/<slug:slug>/match/<int:match_id>/", scorer.scorer_match, name="scorer-match"),
    path("score/<slug:slug>/leave/", scorer.scorer_leave, name="scorer-leave"),
    path("tournaments/<slug:slug>/director/", director.director, name="director"),
    path(
        "tournaments/<slug:slug>/director/live/",
        director.director_fragment,
        name="director-fragment",
    ),
    path(BOARD, director.director_board, name="director-board"),
    path(BOARD + "enter/", director.director_enter, name="director-enter"),
    path(BOARD + "preview/", director.director_preview, name="director-preview"),
    path(BOARD + "adjust/", director.director_adjust, name="director-adjust"),
    path(BOARD + "erase/", director.director_erase, name="director-erase"),
    path("t/<slug:slug>/", public.public_home, name="public"),
    path("t/<slug:slug>/standings/", public.standings_page, name="standings"),
    path("t/<slug:slug>/standings/fragment/", public.standings_fragment, name="standings-fragment"),
    path("t/<slug:slug>/tables/<int:number>/", public.table_page, name="table"),
    path(
        "t/<slug:slug>/tables/<int:number>/fragment/", public.table_fragment, name="table-fragment"
    ),
    path("t/<slug:slug>/teams/<int:number>/", public.entrant_page, name="team"),
    path(
        "t/<slug:slug>/teams/<int:number>/fragment/", public.entrant_fragment, name="team-fragment"
    ),
]

urlpatterns = [
    path("score/<slug:slug>/", scorer.scorer_entry, name="scorer-entry"),
    path("", include((scoring_patterns, "scoring"))),
]
