"""Admin: the boards' double-dummy tables, read only (the job writes them)."""

from django.contrib import admin

from analysis.models import BoardAnalysis


@admin.register(BoardAnalysis)
class BoardAnalysisAdmin(admin.ModelAdmin):
    list_display = ("board", "status", "seconds", "nodes", "finished_at")
    list_filter = ("status",)
    readonly_fields = [field.name for field in BoardAnalysis._meta.fields]
