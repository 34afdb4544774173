"""Backups from the organiser's pages: download a match, a tournament or
(for the site's administrators) everything; restore a file; one match's
score sheet as CSV."""

from __future__ import annotations

import csv
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ..access.decorators import organiser_required, refuse, tournament_organiser_required
from ..audit import Actor
from ..errors import Refusal, ServiceError
from ..models import Match
from . import export
from .reading import MAX_BYTES
from .restore import import_backup, summary


def _download(data: dict, filename: str) -> HttpResponse:
    response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=1), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response


@require_http_methods(["GET"])
@organiser_required
def match_json(request: HttpRequest, match: Match, actor=None) -> HttpResponse:
    return _download(export.export_match(match), f"scorekeeper-match-{match.pk}.json")


@require_http_methods(["GET"])
@organiser_required
def match_csv(request: HttpRequest, match: Match, actor=None) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="scorekeeper-match-{match.pk}.csv"'
    csv.writer(response).writerows(export.sheet_csv_rows(match))
    return response


@require_http_methods(["GET"])
@tournament_organiser_required
def tournament_json(request: HttpRequest, tournament, actor=None) -> HttpResponse:
    return _download(export.export_tournament(tournament), f"scorekeeper-tournament-{tournament.pk}.json")


@login_required
@require_http_methods(["GET", "POST"])
def backup_page(request: HttpRequest) -> HttpResponse:
    error, status = None, 200
    if request.method == "POST":
        upload = request.FILES.get("file")
        if upload is None:
            error, status = _("Choose a backup file first."), Refusal.INVALID.status
        elif upload.size > MAX_BYTES:
            error, status = _("Nothing was imported: the file is larger than 50 MB."), Refusal.INVALID.status
        else:
            try:
                done = import_backup(
                    upload.read(), actor=Actor.organiser(request.user), as_copy=request.POST.get("as_copy") == "1"
                )
            except ServiceError as e:
                error, status = e.message, Refusal.INVALID.status
            else:
                restored = done.matches or done.tournaments
                (messages.success if restored else messages.warning)(request, summary(done))
                return redirect("backup")
    return render(request, "backups/page.html", {"error": error}, status=status)


@login_required
@require_http_methods(["GET"])
def everything_json(request: HttpRequest) -> HttpResponse:
    if not request.user.is_superuser:
        return refuse(request, _("Only the site's administrators can download everything."))
    stamp = timezone.now().strftime("%Y-%m-%d")
    return _download(export.export_everything(), f"scorekeeper-backup-{stamp}.json")
