"""Routes of publishing (namespace ``publishing``): the organiser's page and its export jobs,
the public downloads, hand records and charts, and the export jobs in the REST API."""

from django.urls import path, re_path

from publishing import api, views

app_name = "publishing"

ORGANISER = "tournaments/<slug:slug>/publishing/"
PUBLIC = "t/<slug:slug>/"
API = "api/v1/tournaments/<slug:slug>/exports/"

urlpatterns = [
    path(ORGANISER, views.organiser_page, name="organiser"),
    path(ORGANISER + "exports/", views.export_start, name="export-start"),
    path(ORGANISER + "exports/<int:pk>/status/", views.export_status, name="export-status"),
    path(ORGANISER + "exports/<int:pk>/download/", views.export_download, name="export-download"),
    path(ORGANISER + "exports/<int:pk>/publish/", views.export_publish, name="export-publish"),
    path(PUBLIC + "downloads/", views.downloads_page, name="downloads"),
    path(PUBLIC + "downloads/<int:pk>/", views.published_download, name="published-download"),
    re_path(
        r"^t/(?P<slug>[-a-zA-Z0-9_]+)/downloads/(?P<kind>standings|results)\.(?P<ext>xlsx|ods|zip)$",
        views.latest_download,
        name="latest-download",
    ),
    path(PUBLIC + "hand-records/", views.hand_records_page, name="hand-records"),
    path(PUBLIC + "charts/", views.charts_page, name="charts"),
    path(API, api.ExportListView.as_view(), name="api-exports"),
    path(API + "<int:pk>/", api.ExportDetailView.as_view(), name="api-export"),
    path(API + "<int:pk>/file/", api.ExportFileView.as_view(), name="api-export-file"),
]
