"""The players list: add and rename players."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ..access.decorators import refuse
from ..access.permissions import may_rename_player, renamable_players
from ..audit import Actor
from ..errors import Refusal, ServiceError
from ..models import Player, name_key
from ..scoring import GAMES
from ..stats.ratings import MIN_MATCHES
from . import selectors, services


@login_required
@require_http_methods(["GET", "POST"])
def players(request: HttpRequest) -> HttpResponse:
    error, status = None, 200
    if request.method == "POST":
        try:
            player = services.add_player(name=request.POST.get("name", ""), actor=Actor.organiser(request.user))
        except ServiceError as e:
            error, status = e.message, Refusal.INVALID.status
        else:
            messages.success(request, _("%(name)s added.") % {"name": player.name})
            return redirect("players")
    context = {
        "players": selectors.all_players(),
        "renamable": set(renamable_players(request.user).values_list("pk", flat=True)),
        "error": error,
        "name": request.POST.get("name", ""),
    }
    return render(request, "players/list.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def rename_player(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id)
    if not may_rename_player(request.user, player):
        return refuse(request, _("Only an organiser of one of this player's matches or tournaments can rename them."))
    error, status = None, 200
    if request.method == "POST":
        try:
            services.rename_player(
                player_id=player.pk, name=request.POST.get("name", ""), actor=Actor.organiser(request.user)
            )
        except ServiceError as e:
            error, status = e.message, Refusal.INVALID.status
        else:
            return redirect("players")
    return render(request, "players/rename.html", {"player": player, "error": error}, status=status)


@require_http_methods(["GET"])
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id)
    page = selectors.player_page(player, request.user)
    return render(request, "players/detail.html", {"page": page, "games": GAMES})


@require_http_methods(["GET"])
def player_by_name(request: HttpRequest) -> HttpResponse:
    """Names on score sheets link here: a sheet keeps names, not ids."""
    player = get_object_or_404(Player, key=name_key(request.GET.get("name", "")))
    return redirect("player", player.pk)


@require_http_methods(["GET"])
def ratings(request: HttpRequest) -> HttpResponse:
    return render(request, "players/ratings.html", {"boards": selectors.leaderboards(), "minimum": MIN_MATCHES})
