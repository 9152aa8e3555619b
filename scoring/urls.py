"""Routes of the scorer pages, the director's dashboard and the public pages.

The scorer entry keeps the un-namespaced name ``scorer-entry`` that the printed QR codes are
made from (``settings.SCORER_ENTRY_URL_NAME``); everything else is in the ``scoring``
namespace.
"""

from django.urls import include, path

from scoring import views

BOARD = "tournaments/<slug:slug>/director/<int:match_id>/<int:board>/"

scoring_patterns = [
    path("score/<slug:slug>/match/<int:match_id>/", views.scorer_match, name="scorer-match"),
    path("score/<slug:slug>/leave/", views.scorer_leave, name="scorer-leave"),
    path("tournaments/<slug:slug>/director/", views.director, name="director"),
    path(
        "tournaments/<slug:slug>/director/live/",
        views.director_fragment,
        name="director-fragment",
    ),
    path(BOARD, views.director_board, name="director-board"),
    path(BOARD + "enter/", views.director_enter, name="director-enter"),
    path(BOARD + "adjust/", views.director_adjust, name="director-adjust"),
    path(BOARD + "erase/", views.director_erase, name="director-erase"),
    path("t/<slug:slug>/", views.public_home, name="public"),
    path("t/<slug:slug>/standings/", views.standings_page, name="standings"),
    path("t/<slug:slug>/standings/fragment/", views.standings_fragment, name="standings-fragment"),
    path("t/<slug:slug>/tables/<int:number>/", views.table_page, name="table"),
    path(
        "t/<slug:slug>/tables/<int:number>/fragment/", views.table_fragment, name="table-fragment"
    ),
    path("t/<slug:slug>/teams/<int:number>/", views.team_page, name="team"),
    path("t/<slug:slug>/teams/<int:number>/fragment/", views.team_fragment, name="team-fragment"),
]

urlpatterns = [
    path("score/<slug:slug>/", views.scorer_entry, name="scorer-entry"),
    path("", include((scoring_patterns, "scoring"))),
]
