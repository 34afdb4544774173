"""Benchmark-only baseline endpoint (bench/load.py).

Registered in ``scorekeeper.urls`` only when the environment variable
``SCOREKEEPER_BENCH_BASELINE=1`` is set, never in normal runs. It does the
least a write request can do through the full middleware stack: one INSERT
in one transaction, then 204. The load benchmark compares the real write
endpoints with it."""

from __future__ import annotations

from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from ..models import AuditEvent


@csrf_exempt
@require_POST
def baseline(request: HttpRequest) -> HttpResponse:
    with transaction.atomic():
        AuditEvent.objects.create(actor="benchmark", action="baseline")
    return HttpResponse(status=204)
