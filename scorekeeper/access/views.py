"""First-run setup, scoring links (open, exchange, share, revoke) and
co-organisers."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model, login, password_validation
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from ..audit import Actor
from ..errors import Refusal, ServiceError
from ..matches.wording import label_words
from ..models import AccessLink, Match, Table
from . import services
from .decorators import organiser_required
from .links import find_link, grant, token_for
from .permissions import closed_message
from .qr import phone_url, qr_svg

USERNAME_MAX = 150


@require_http_methods(["GET", "POST"])
def setup(request: HttpRequest) -> HttpResponse:
    """On a fresh install: create the first organiser account, once."""
    if not services.needs_setup():
        raise Http404("Already set up")
    errors: dict[str, str] = {}
    username = request.POST.get("username", "").strip()
    if request.method == "POST":
        password = request.POST.get("password", "")
        if not username or len(username) > USERNAME_MAX:
            errors["username"] = _("Choose a user name (at most 150 characters).")
        if password != request.POST.get("password2", ""):
            errors["password2"] = _("The two passwords are not the same.")
        else:
            try:
                password_validation.validate_password(password, get_user_model()(username=username))
            except ValidationError as e:
                errors["password"] = " ".join(e.messages)
        if not errors:
            try:
                user = services.create_first_organiser(username=username, password=password)
            except ServiceError:
                raise Http404("Already set up") from None
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome! You are the organiser. Start with a new match."))
            return redirect("home")
    status = Refusal.INVALID.status if errors else 200
    return render(request, "access/setup.html", {"errors": errors, "username": username}, status=status)


@never_cache  # the token is in the page: no browser or proxy keeps it
@require_http_methods(["GET", "POST"])
def open_link(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows a confirm page (link previewers stop here); POST gives this
    device the right to score the link's match."""
    link = find_link(token)
    if link is None or not link.is_active:
        return render(request, "access/link_invalid.html", status=404)
    if request.method == "POST":
        response = redirect(link.match)
        grant(request, response, link)
        return response
    context = {"link": link, "match": link.match, "names": link.match.player_names}
    if link.match.links_closed_at is not None:
        context["closed"] = closed_message(link.match)
    return render(request, "access/link_open.html", context)


@never_cache  # a new link and its QR code: shown once, kept nowhere
@require_http_methods(["GET", "POST"])
@organiser_required
def share(request: HttpRequest, match: Match, actor: Actor) -> HttpResponse:
    """Issue, list (each working link can be shown again: its token is
    worked out, not stored) and revoke the links that let other devices
    score; let closed links write again."""
    context = {"match": match, "names": match.player_names}
    if request.method == "POST" and request.POST.get("action") == "links_write":
        try:
            services.let_links_write(match_id=match.pk, actor=actor)
        except ServiceError as e:
            messages.error(request, e.message)
        else:
            messages.success(request, _("The scoring links can write again."))
        return redirect("share", match.pk)
    new_link = None
    if request.method == "POST":
        label = (request.POST.get("label") or _("shared link")).strip()
        new_link, _token = services.issue_link(match_id=match.pk, label=label, actor=actor)
    match.refresh_from_db()
    links = []
    for link in match.access_links.all():
        url = phone_url(request, reverse("open_link", args=[token_for(link)])) if link.is_active else None
        new = new_link is not None and link.pk == new_link.pk
        links.append({"link": link, "url": url, "qr": qr_svg(url) if url and not new else None, "new": new})
    new = next((item for item in links if item["new"]), None)
    if new is not None:
        context.update(new_url=new["url"], qr=qr_svg(new["url"]), new_link=new["link"])
    context.update(
        links=links,
        is_table=Table.objects.filter(match=match).exists(),
        links_closed=match.links_closed_at is not None,
    )
    return render(request, "access/share.html", context)


@require_POST
@organiser_required
def revoke(request: HttpRequest, match: Match, link_id: int, actor: Actor) -> HttpResponse:
    link = get_object_or_404(AccessLink, pk=link_id, match=match)
    services.revoke_link(link_id=link.pk, actor=actor)
    messages.success(request, _("The link “%(label)s” no longer works.") % {"label": label_words(link.label)})
    return redirect("share", match.pk)


@require_POST
@organiser_required
def add_co_organiser(request: HttpRequest, match: Match, actor: Actor) -> HttpResponse:
    try:
        services.add_co_organiser(match_id=match.pk, username=request.POST.get("username", ""), actor=actor)
    except ServiceError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, _("Co-organiser added."))
    return redirect("share", match.pk)
