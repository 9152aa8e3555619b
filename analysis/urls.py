from django.urls import path

from analysis import views

app_name = "analysis"

urlpatterns = [
    path("tournaments/<slug:slug>/deals/analyse/", views.analyse, name="analyse"),
]
