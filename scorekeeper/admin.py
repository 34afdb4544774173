from django.contrib import admin

from .models import AuditEvent, Hand, Match, Player, Seat


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at"]
    search_fields = ["name"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    autocomplete_fields = ["player"]


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    fields = ["number", "entry", "created_at", "updated_at"]
    readonly_fields = ["created_at", "updated_at"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "status", "hands_played", "totals", "owner", "updated_at"]
    list_filter = ["game", "status", "created_at"]
    search_fields = ["seats__player__name"]
    inlines = [SeatInline, HandInline]
    readonly_fields = ["totals", "winners", "hands_played", "version", "created_at", "updated_at", "finished_at"]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["match", "number", "entry", "created_at"]
    list_filter = ["match__game", "created_at"]
    search_fields = ["match__id"]
    list_select_related = ["match"]


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ["at", "actor", "action", "match", "hand_number"]
    list_filter = ["action", "at"]
    search_fields = ["actor", "match__id"]
    list_select_related = ["match"]
    readonly_fields = [f.name for f in AuditEvent._meta.fields]
