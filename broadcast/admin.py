"""Featured tables and their recordings in the admin, read-only apart from the table."""

from django.contrib import admin

from broadcast.models import FeaturedTable, RecordedAction, Recording


@admin.register(FeaturedTable)
class FeaturedTableAdmin(admin.ModelAdmin):
    list_display = ("table", "version", "created_at")
    readonly_fields = ("recorder_code", "version")


class RecordedActionInline(admin.TabularInline):
    model = RecordedAction
    extra = 0
    readonly_fields = ("position", "action", "client_id", "undone", "created_at")
    can_delete = False


@admin.register(Recording)
class RecordingAdmin(admin.ModelAdmin):
    list_display = ("match", "board", "over", "updated_at")
    readonly_fields = ("featured", "match", "board", "over", "facts")
    inlines = (RecordedActionInline,)
