"""A URLconf with one view that fails, for the 500 page's test."""

from django.urls import path

from config.urls import handler400, handler403, handler404, handler500, urlpatterns  # noqa: F401


def boom(request):
    raise RuntimeError("boom")


urlpatterns = [path("boom/", boom), *urlpatterns]
