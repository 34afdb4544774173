from django import forms
from django.contrib import admin
from django.utils.translation import gettext as _

from .audit import Actor
from .errors import ServiceError
from .models import AuditEvent, Hand, Match, Player, Seat, name_key
from .players import services as player_services


class PlayerForm(forms.ModelForm):
    """The players list's own rules: a name cleaned the same way, and two
    names that differ only in case or spacing are one person (was a 500:
    the unique key failed in the database)."""

    class Meta:
        model = Player
        fields = ["name"]

    def clean_name(self):
        try:
            name = player_services.clean_player_name(self.cleaned_data.get("name"))
        except ServiceError as error:
            raise forms.ValidationError(error.message) from None
        same = Player.objects.filter(key=name_key(name)).exclude(pk=self.instance.pk)
        if same.exists():
            raise forms.ValidationError(_("There is already a player called %(name)s."), params={"name": name})
        return name


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at"]
    search_fields = ["name"]
    form = PlayerForm

    def save_model(self, request, obj, form, change):
        # Through the service, so each match keeps the new name too, and audited.
        actor = Actor.organiser(request.user)
        try:
            if change:
                player_services.rename_player(player_id=obj.pk, name=obj.name, actor=actor)
            else:
                obj.pk = player_services.add_player(name=obj.name, actor=actor).pk
        except ServiceError:  # the name was taken a moment ago by someone else: theirs stays
            obj.pk = obj.pk or Player.objects.get(key=name_key(obj.name)).pk
        obj.refresh_from_db()


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
