"""The app's URLs plus the benchmarks' baseline: the least a write request
can do through the full middleware stack (one INSERT in one transaction,
then 204). Saving a hand is reported next to it as a ratio."""

from django.db import transaction
from django.http import HttpResponse
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from scorekeeper.models import AuditEvent


@csrf_exempt
@require_POST
def baseline(request):
    with transaction.atomic():
        AuditEvent.objects.create(actor="benchmark", action="baseline")
    return HttpResponse(status=204)


urlpatterns = [
    path("bench/baseline/", baseline, name="bench_baseline"),
    path("", include("config.urls")),
]
