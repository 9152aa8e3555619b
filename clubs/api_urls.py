"""``/api/v1/clubs/`` routes (included beside the scoring app's ``/api/v1/``)."""

from django.urls import path

from clubs import api

app_name = "clubs-api"
urlpatterns = [
    path("clubs/<slug:club_slug>/members/", api.MemberListView.as_view(), name="members"),
    path("clubs/<slug:club_slug>/members/<str:number>/", api.MemberView.as_view(), name="member"),
    path(
        "clubs/<slug:club_slug>/members/<str:number>/deactivate/",
        api.MemberDeactivateView.as_view(),
        name="member_deactivate",
    ),
    path("clubs/<slug:club_slug>/players/<str:number>/", api.PlayerView.as_view(), name="player"),
    path(
        "clubs/<slug:club_slug>/seasons/<slug:season>/ladder/",
        api.LadderView.as_view(),
        name="ladder",
    ),
]
