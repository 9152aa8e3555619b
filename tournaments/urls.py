"""Organiser pages (namespace ``tournaments``, all behind ``organiser_required``). The scorer
entry that the printed QR codes point at is served by the scoring app (``scorer-entry``)."""

from django.urls import path

from tournaments import room_views, views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.tournament_create, name="create"),
    path("<slug:slug>/", views.tournament_dashboard, name="dashboard"),
    path("<slug:slug>/settings/", views.tournament_settings, name="settings"),
    path("<slug:slug>/tables/", views.table_labels, name="tables"),
    path("<slug:slug>/log/", views.action_log, name="log"),
    path("<slug:slug>/start/", views.tournament_start, name="start"),
    path("<slug:slug>/finalise/", views.tournament_finalise, name="finalise"),
    path("<slug:slug>/reopen/", views.tournament_reopen, name="reopen"),
    path("<slug:slug>/teams/", views.entrant_list, name="teams"),
    path("<slug:slug>/teams/import/", views.entrants_import, name="teams_import"),
    path(
        "<slug:slug>/teams/import/confirm/",
        views.entrants_import_confirm,
        name="teams_import_confirm",
    ),
    path("<slug:slug>/teams/renumber/", views.entrants_renumber, name="teams_renumber"),
    path("<slug:slug>/teams/<int:number>/", views.entrant_edit, name="team_edit"),
    path("<slug:slug>/teams/<int:number>/delete/", views.entrant_delete, name="team_delete"),
    path("<slug:slug>/teams/<int:number>/new-code/", views.entrant_new_code, name="team_new_code"),
    path(
        "<slug:slug>/teams/<int:number>/disqualify/",
        views.entrant_disqualify,
        name="team_disqualify",
    ),
    path(
        "<slug:slug>/teams/<int:number>/reinstate/", views.entrant_reinstate, name="team_reinstate"
    ),
    path("<slug:slug>/schedule/", views.schedule, name="schedule"),
    path("<slug:slug>/schedule/draw/", views.schedule_draw, name="schedule_draw"),
    path("<slug:slug>/schedule/clear/", views.schedule_clear, name="schedule_clear"),
    path("<slug:slug>/schedule/matches/new/", views.match_add, name="match_add"),
    path("<slug:slug>/schedule/matches/<int:pk>/", views.match_edit, name="match_edit"),
    path("<slug:slug>/schedule/matches/<int:pk>/delete/", views.match_delete, name="match_delete"),
    path("<slug:slug>/deals/", views.deals, name="deals"),
    path("<slug:slug>/deals/generate/", views.deals_generate, name="deals_generate"),
    path("<slug:slug>/deals/<int:table>/<int:board>/", views.deal_edit, name="deal_edit"),
    path("<slug:slug>/print/routes/", room_views.print_route_cards, name="print_routes"),
    path(
        "<slug:slug>/print/routes/printed/",
        room_views.route_cards_printed,
        name="print_routes_printed",
    ),
    path("<slug:slug>/print/tables/", views.print_table_cards, name="print_tables"),
    path("<slug:slug>/print/schedule/", views.print_schedule, name="print_schedule"),
    path("<slug:slug>/room/", room_views.room_changes, name="room"),
    path("<slug:slug>/room/<int:pk>/undo/", room_views.room_undo, name="room_undo"),
]
