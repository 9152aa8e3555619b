"""Routes of featured tables: the organiser's page, the recorder's and the broadcast."""

from django.urls import path

from broadcast import views

app_name = "broadcast"

BASE = "tournaments/<slug:slug>/"

urlpatterns = [
    path(BASE + "featured/", views.featured, name="featured"),
    path(BASE + "record/", views.recorder, name="recorder"),
    path(BASE + "record/state/", views.recorder_state, name="recorder-state"),
    path(BASE + "record/action/", views.recorder_action, name="recorder-action"),
    path(BASE + "broadcast/", views.broadcast_list, name="list"),
    path(BASE + "broadcast/<int:table>/", views.broadcast_table, name="table"),
    path(BASE + "broadcast/<int:table>/state/", views.broadcast_state, name="state"),
]
