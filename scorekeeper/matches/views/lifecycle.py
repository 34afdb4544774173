"""Matches coming and going: the home page's lists, a new match, play
again, abandon and reopen."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ...access.decorators import organiser_required
from ...access.services import needs_setup
from ...audit import Actor
from ...errors import Refusal, ServiceError
from ...i18n import shown_spec, shown_specs
from ...models import Match
from ...players.selectors import all_players
from ...scoring import GAMES, get_game
from .. import services
from ..forms import parse_options
from ..render import go_to
from ..selectors import matches_for_home


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if needs_setup():
        return redirect("setup")
    return render(request, "home.html", {"lists": matches_for_home()})


@login_required
@require_http_methods(["GET", "POST"])
def new_match(request: HttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else request.GET
    game_id = data.get("game")
    if game_id not in GAMES:
        return render(request, "matches/new.html", {"specs": shown_specs(), "spec": None})
    spec = shown_spec(get_game(game_id).spec)
    options = parse_options(spec, data)
    posted = request.method == "POST"
    context = {
        "specs": shown_specs(),
        "spec": spec,
        "players": all_players(),
        "seats": [
            {
                "input": f"seat_{i}",
                "number": i + 1,
                "value": data.get(f"seat_{i}", ""),
                "optional": i >= spec.min_players,
                # A game with partnerships: who sits opposite, the partner (RULES.md 1.5).
                "partner": next((p + 1 for side in spec.sides if i in side for p in side if p != i), None),
            }
            for i in range(spec.max_players)
        ],
        "options": [(o, options.values[o.name] if posted else o.default) for o in spec.options],
        "confirm_hands": posted and data.get("confirm_hands") is not None,  # off unless ticked
    }
    if not posted:
        return render(request, "matches/new.html", context)
    if not options.ok:
        context["errors"] = options.errors
        return render(request, "matches/new.html", context, status=Refusal.INVALID.status)
    seats = [(i + 1, data.get(f"seat_{i}", "").strip()) for i in range(spec.max_players)]
    same = services.same_player_message([(number, name) for number, name in seats if name])
    if same:  # said with the seat numbers of this form, which may have a blank seat between
        context["error"] = same
        return render(request, "matches/new.html", context, status=Refusal.INVALID.status)
    names = [name for _number, name in seats if name]
    try:
        match = services.start_match(
            game=spec.id,
            player_names=names,
            options=options.values,
            actor=Actor.organiser(request.user),
            confirm_hands=context["confirm_hands"],
        )
    except ServiceError as error:
        context["error"] = error.message
        return render(request, "matches/new.html", context, status=Refusal.INVALID.status)
    return redirect(match)


@require_POST
@organiser_required
def match_action(request: HttpRequest, match: Match, action: str, actor: Actor) -> HttpResponse:
    """Organiser-only changes of a match: abandon, reopen, play again."""
    try:
        if action == "again":
            return go_to(request, services.play_again(match_id=match.pk, actor=actor).get_absolute_url())
        if action == "abandon":
            services.abandon_match(match_id=match.pk, actor=actor)
            messages.info(request, _("Match abandoned. You can reopen it from its page."))
        else:  # the URL takes nothing else
            links_write = request.POST.get("links_write") == "yes"
            services.reopen_match(match_id=match.pk, actor=actor, links_write=links_write)
    except ServiceError as error:
        messages.error(request, error.message)
    return go_to(request, match.get_absolute_url())
