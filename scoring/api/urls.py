"""``/api/v1/`` routes."""

from django.urls import path

from scoring.api.views import director, public, scorer

BOARD = "tournaments/<slug:slug>/matches/<int:match_id>/boards/<int:board>/"

app_name = "api"
urlpatterns = [
    path("", public.IndexView.as_view(), name="index"),
    path("tournaments/", public.TournamentListView.as_view(), name="tournaments"),
    path("tournaments/<slug:slug>/", public.TournamentDetailView.as_view(), name="tournament"),
    path("tournaments/<slug:slug>/teams/", public.EntrantListView.as_view(), name="teams"),
    path("tournaments/<slug:slug>/schedule/", public.ScheduleView.as_view(), name="schedule"),
    path("tournaments/<slug:slug>/matches/", public.MatchListView.as_view(), name="matches"),
    path("tournaments/<slug:slug>/standings/", public.StandingsView.as_view(), name="standings"),
    path(
        "tournaments/<slug:slug>/legal-calls/", public.LegalCallsView.as_view(), name="legal-calls"
    ),
    path("tournaments/<slug:slug>/me/", scorer.MeView.as_view(), name="me"),
    path(BOARD + "preview/", scorer.PreviewView.as_view(), name="preview"),
    path(BOARD + "entry-form/", scorer.EntryFormView.as_view(), name="entry-form"),
    path(BOARD + "entries/", scorer.SubmitView.as_view(), name="submit"),
    path(BOARD + "entries/<int:submission_id>/accept/", scorer.AcceptView.as_view(), name="accept"),
    path(BOARD + "entries/<int:submission_id>/reject/", scorer.RejectView.as_view(), name="reject"),
    path(BOARD + "call-director/", scorer.CallDirectorView.as_view(), name="call-director"),
    path(BOARD + "director/", director.DirectorBoardView.as_view(), name="director-board"),
    path(BOARD + "director/result/", director.DirectorResultView.as_view(), name="director-result"),
    path(BOARD + "director/adjust/", director.DirectorAdjustView.as_view(), name="director-adjust"),
    path(BOARD + "director/erase/", director.DirectorEraseView.as_view(), name="director-erase"),
]
