"""``/api/v1/`` routes."""

from django.urls import path

from scoring.api import views

BOARD = "tournaments/<slug:slug>/matches/<int:match_id>/boards/<int:board>/"

app_name = "api"
urlpatterns = [
    path("tournaments/", views.TournamentListView.as_view(), name="tournaments"),
    path("tournaments/<slug:slug>/", views.TournamentDetailView.as_view(), name="tournament"),
    path("tournaments/<slug:slug>/teams/", views.TeamListView.as_view(), name="teams"),
    path("tournaments/<slug:slug>/schedule/", views.ScheduleView.as_view(), name="schedule"),
    path("tournaments/<slug:slug>/matches/", views.MatchListView.as_view(), name="matches"),
    path("tournaments/<slug:slug>/standings/", views.StandingsView.as_view(), name="standings"),
    path(
        "tournaments/<slug:slug>/legal-calls/", views.LegalCallsView.as_view(), name="legal-calls"
    ),
    path("tournaments/<slug:slug>/me/", views.MeView.as_view(), name="me"),
    path(BOARD + "preview/", views.PreviewView.as_view(), name="preview"),
    path(BOARD + "entry-form/", views.EntryFormView.as_view(), name="entry-form"),
    path(BOARD + "entries/", views.SubmitView.as_view(), name="submit"),
    path(BOARD + "entries/<int:submission_id>/accept/", views.AcceptView.as_view(), name="accept"),
    path(BOARD + "entries/<int:submission_id>/reject/", views.RejectView.as_view(), name="reject"),
    path(BOARD + "call-director/", views.CallDirectorView.as_view(), name="call-director"),
    path(BOARD + "director/", views.DirectorBoardView.as_view(), name="director-board"),
    path(BOARD + "director/result/", views.DirectorResultView.as_view(), name="director-result"),
    path(BOARD + "director/adjust/", views.DirectorAdjustView.as_view(), name="director-adjust"),
    path(BOARD + "director/erase/", views.DirectorEraseView.as_view(), name="director-erase"),
]
