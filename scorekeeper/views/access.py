"""First-run setup, scoring links (open, exchange, share, revoke) and
co-organisers."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model, login, password_validation
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from .. import services
from ..access import find_link, grant, organiser_required
from ..forms import parse_positive_int
from ..models import AccessLink, AuditEvent, Match
from ..qr import qr_svg
from ..services import Actor, ServiceError

UNPROCESSABLE = 422


def needs_setup() -> bool:
    return not get_user_model().objects.exists()


@require_http_methods(["GET", "POST"])
def setup(request: HttpRequest) -> HttpResponse:
    """On a fresh install: create the first organiser account, once."""
    if not needs_setup():
        raise Http404("Already set up")
    errors: dict[str, str] = {}
    username = request.POST.get("username", "").strip()
    if request.method == "POST":
        password = request.POST.get("password", "")
        if not username or len(username) > 150:
            errors["username"] = _("Choose a user name (at most 150 characters).")
        if password != request.POST.get("password2", ""):
            errors["password2"] = _("The two passwords are not the same.")
        else:
            try:
                password_validation.validate_password(password, get_user_model()(username=username))
            except ValidationError as e:
                errors["password"] = " ".join(e.messages)
        if not errors:
            with transaction.atomic():
                if not needs_setup():  # someone else was quicker
                    raise Http404("Already set up")
                user = get_user_model().objects.create_superuser(username=username, password=password)
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome! You are the organiser. Start with a new match."))
            return redirect("home")
    status = UNPROCESSABLE if errors else 200
    return render(request, "setup.html", {"errors": errors, "username": username}, status=status)


@require_http_methods(["GET", "POST"])
def open_link(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows a confirm page (link previewers stop here); POST gives this
    device the right to score the link's match."""
    link = find_link(token)
    if link is None or not link.is_active:
        return render(request, "link_invalid.html", status=404)
    if request.method == "POST":
        response = redirect(link.match)
        grant(request, response, link)
        return response
    return render(request, "link_open.html", {"link": link, "match": link.match, "names": _names(link.match)})


@require_http_methods(["GET", "POST"])
@organiser_required
def share(request: HttpRequest, match_id: int, actor: Actor) -> HttpResponse:
    """Issue, list and revoke the links that let other devices score."""
    match = get_object_or_404(Match, pk=match_id)
    context = {"match": match, "names": _names(match)}
    if request.method == "POST":
        label = (request.POST.get("label") or _("shared link")).strip()[:80]
        _link, token = services.issue_link(match_id=match.pk, label=label, actor=actor)
        url = request.build_absolute_uri(reverse("open_link", args=[token]))
        context.update(new_url=url, qr=qr_svg(url))
    context["links"] = list(match.access_links.all())
    return render(request, "share.html", context)


@require_POST
@organiser_required
def revoke(request: HttpRequest, match_id: int, link_id: int, actor: Actor) -> HttpResponse:
    link = get_object_or_404(AccessLink, pk=link_id, match_id=match_id)
    services.revoke_link(link_id=link.pk, actor=actor)
    messages.success(request, _("The link “%(label)s” no longer works.") % {"label": link.label})
    return redirect("share", match_id)


@require_POST
@organiser_required
def add_co_organiser(request: HttpRequest, match_id: int, actor: Actor) -> HttpResponse:
    try:
        services.add_co_organiser(match_id=match_id, username=request.POST.get("username", ""), actor=actor)
    except ServiceError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, _("Co-organiser added."))
    return redirect("share", match_id)


def _names(match: Match) -> list[str]:
    return list(match.seats.order_by("position").values_list("player__name", flat=True))


@require_http_methods(["GET", "POST"])
@organiser_required
def history(request: HttpRequest, match_id: int, actor: Actor) -> HttpResponse:
    """Every change of a match, newest first; a past version of a hand can
    be restored (the restore is itself recorded)."""
    match = get_object_or_404(Match, pk=match_id)
    if request.method == "POST":
        event = get_object_or_404(AuditEvent, pk=parse_positive_int(request.POST.get("event")) or 0, match=match)
        entry = event.before if request.POST.get("which") == "before" else event.after
        if event.hand_number is None or not isinstance(entry, dict):
            messages.error(request, _("That change has no hand to restore."))
        else:
            try:
                services.edit_hand(
                    match_id=match.pk,
                    number=event.hand_number,
                    entry=entry,
                    expected_version=parse_positive_int(request.POST.get("version")),
                    actor=actor,
                    action="hand restored",
                )
            except ServiceError as e:
                messages.error(request, e.message)
            else:
                messages.success(request, _("Hand %(n)d restored.") % {"n": event.hand_number})
                return redirect(match)
        return redirect("history", match.pk)
    events = list(match.audit_events.select_related("user").order_by("-at", "-id"))
    restorable = {"hand recorded", "hand edited", "hand restored", "hand undone"}
    return render(
        request,
        "history.html",
        {
            "match": match,
            "names": _names(match),
            "events": events,
            "restorable": restorable,
            "hands_played": match.hands_played,
        },
    )
