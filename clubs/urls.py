"""Club pages (namespace ``clubs``): organisers' under ``/clubs/``, the public player page
under ``/c/<club>/players/<number>/``."""

from django.urls import path

from clubs import season_views, views

app_name = "clubs"

urlpatterns = [
    path("clubs/", views.club_list, name="list"),
    path("clubs/<slug:club_slug>/members/", views.members, name="members"),
    path("clubs/<slug:club_slug>/members/import/", views.members_import, name="members_import"),
    path(
        "clubs/<slug:club_slug>/members/import/confirm/",
        views.members_import_confirm,
        name="members_import_confirm",
    ),
    path("clubs/<slug:club_slug>/members/suggest/", views.suggest, name="suggest"),
    path("clubs/<slug:club_slug>/members/merge/", views.merge, name="merge"),
    path("clubs/<slug:club_slug>/merges/<int:pk>/undo/", views.merge_undo, name="merge_undo"),
    path("clubs/<slug:club_slug>/members/<int:pk>/", views.member_edit, name="member_edit"),
    path("clubs/<slug:club_slug>/members/<int:pk>/history/", views.member_history, name="history"),
    path("clubs/<slug:club_slug>/organisers/", views.add_organiser, name="add_organiser"),
    path("clubs/<slug:club_slug>/events/", views.events, name="events"),
    path("clubs/<slug:club_slug>/events/<slug:event>/", views.event_links, name="event_links"),
    path("clubs/<slug:club_slug>/seasons/", season_views.season_list, name="seasons"),
    path(
        "clubs/<slug:club_slug>/seasons/<slug:season>/",
        season_views.season_edit,
        name="season_edit",
    ),
    path("c/<slug:club>/players/<str:number>/", views.player_page, name="player"),
    path("c/<slug:club>/seasons/<slug:season>/", season_views.ladder_page, name="ladder"),
    path(
        "c/<slug:club>/seasons/<slug:season>/ladder.xlsx",
        season_views.ladder_download,
        name="ladder_download",
    ),
]
