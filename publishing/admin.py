"""Admin: exports and publishing settings, read mostly (exports are made by the jobs)."""

from django.contrib import admin

from publishing.models import ChartData, Export, PublishingSettings


@admin.register(PublishingSettings)
class PublishingSettingsAdmin(admin.ModelAdmin):
    list_display = ("tournament", "auto_publish_standings", "hand_records", "updated_at")


@admin.register(Export)
class ExportAdmin(admin.ModelAdmin):
    list_display = ("tournament", "kind", "format", "state", "progress", "published", "created_at")
    list_filter = ("state", "kind", "format", "published")
    readonly_fields = [field.name for field in Export._meta.fields]


@admin.register(ChartData)
class ChartDataAdmin(admin.ModelAdmin):
    list_display = ("tournament", "computed_version", "results_version", "computed_at")
    readonly_fields = ("computed_version", "results_version", "computed_at", "rounds", "note")
    exclude = ("places", "round_digests", "spread", "places_svg", "spread_svg")
