"""Every model in the Django admin. The action log is read-only: it records, nobody edits it.

The organiser pages are the normal way to work: they go through the services, which check
the tournament's status and write the log; the admin is for repairs by a superuser.
"""

from django.contrib import admin

from tournaments.models import ActionLog, Board, Disqualification, Entrant, Match, Table, Tournament


class TableInline(admin.TabularInline):
    model = Table
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "status", "game", "side_mode", "created_at")
    list_filter = ("status", "game")
    search_fields = ("name", "slug")
    readonly_fields = ("created_at", "updated_at")
    inlines = (TableInline,)


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin):
    list_display = ("number", "name", "player1", "player2", "tournament")
    list_filter = ("tournament",)
    search_fields = ("name", "player1", "player2")
    readonly_fields = ("access_code",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("number", "label", "tournament")
    list_filter = ("tournament",)


@admin.register(Board)
class BoardAdmin(admin.ModelAdmin):
    list_display = ("table", "number", "deal")
    list_filter = ("table__tournament",)


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("round", "table", "north_entrant", "east_entrant")
    list_filter = ("table__tournament", "round")
    list_select_related = ("table", "north_entrant", "east_entrant")


@admin.register(Disqualification)
class DisqualificationAdmin(admin.ModelAdmin):
    list_display = ("entrant", "after_final", "created_at", "by")
    list_filter = ("after_final",)
    readonly_fields = ("created_at",)


@admin.register(ActionLog)
class ActionLogAdmin(admin.ModelAdmin):
    list_display = ("created_at", "tournament_slug", "actor", "action", "summary")
    list_filter = ("action", "tournament_slug")
    search_fields = ("summary", "actor")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
