"""The error pages Django shows for 400, 403, 404 and 500 (config/urls.py),
in the reader's language, with no technical detail and a way back.

They choose the language from the request itself (its cookie, then
Accept-Language), since the error may come before the middleware that
chooses it, and read nothing else: not the form (the default 400 runs the
CSRF check, which reads it again), not the session, not the database."""

from django.conf import settings
from django.http import HttpResponse
from django.template import loader
from django.utils import translation


def _page(request, template: str, status: int) -> HttpResponse:
    language = translation.get_language_from_request(request) if settings.USE_I18N else settings.LANGUAGE_CODE
    with translation.override(language):
        body = loader.render_to_string(template)
    response = HttpResponse(body, status=status)
    response["Content-Language"] = language
    return response


def bad_request(request, exception=None):
    return _page(request, "400.html", 400)


def permission_denied(request, exception=None):
    return _page(request, "403.html", 403)


def page_not_found(request, exception=None):
    return _page(request, "404.html", 404)


def server_error(request):
    return _page(request, "500.html", 500)
