"""Request and response guards that apply to every page.

Forms: a POST that is not UTF-8 text, or does not parse, is refused whole
before anything reads it (``refuse_undecodable_bodies``).

Content Security Policy: our own files only, no inline script or style
(htmx is configured not to inject styles; see templates/base.html)."""

import codecs
from urllib.parse import parse_qsl

from django.conf import settings
from django.core.exceptions import (
    BadRequest,
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import HttpResponseBadRequest, UnreadablePostError
from django.http.multipartparser import MultiPartParserError
from django.utils import timezone, translation
from django.utils.translation import gettext_noop

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'self'",
    ]
)


def content_security_policy(get_response):
    def middleware(request):
        response = get_response(request)
        # The admin too: Django 5.2's admin has no inline script or style
        # (tests/e2e/test_admin.py uses its pages under this policy).
        response.setdefault("Content-Security-Policy", CSP)
        return response

    return middleware


def reject_nul_bytes(get_response):
    """No text a person types contains a NUL byte, and PostgreSQL cannot
    store one: refuse such a request whole, before any view sees it."""

    def middleware(request):
        def has_nul(query_dict):
            return any("\x00" in key or any("\x00" in v for v in values) for key, values in query_dict.lists())

        if "\x00" in request.path or has_nul(request.GET) or (request.method == "POST" and has_nul(request.POST)):
            return _plain_400(request, NUL_BYTE)
        return get_response(request)

    return middleware


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
UNDECODED = "\ufffd"  # what Django's multipart parser puts for bytes that are not UTF-8


# Marked here, translated when refused: these answers are given before
# (or without) the middleware that chooses the language, so _plain_400
# chooses it from the request itself (the language cookie, Accept-Language).
NUL_BYTE = gettext_noop("The request contained an invalid character (a NUL byte). Nothing was saved.")
NOT_UTF8 = gettext_noop("The form was not sent as UTF-8 text. Nothing was saved.")
TOO_LARGE = gettext_noop("The form was too large. Nothing was saved.")
TOO_MANY_FIELDS = gettext_noop("The form had too many fields. Nothing was saved.")
UNREADABLE_FORM = gettext_noop("The form could not be read. Nothing was saved.")


def _plain_400(request, message: str) -> HttpResponseBadRequest:
    if settings.USE_I18N:
        with translation.override(translation.get_language_from_request(request)):
            message = translation.gettext(message)
    return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")


def refuse_undecodable_bodies(get_response):
    """A POST whose form is not UTF-8 text is refused whole, in words (400),
    before anything reads it: the CSRF check, a view or an error page would
    otherwise meet Django's own exception for it, some of them twice (the
    error page's CSRF check reads the form again), and answer 500.

    Refused: a charset other than UTF-8 (``utf8`` and other spellings of
    UTF-8 are taken as UTF-8), a body, a %-escape or a multipart field that
    is not UTF-8, a body too large or with too many fields, and a multipart
    body that does not parse. An uploaded file's bytes are its page's to read."""

    def middleware(request):
        if request.method != "POST":
            return get_response(request)
        charset = request.content_params.get("charset")
        if charset is not None:
            try:
                utf8 = codecs.lookup(charset).name == "utf-8"
            except LookupError:
                utf8 = False
            if not utf8:
                return _plain_400(request, NOT_UTF8)
            request.encoding = "utf-8"
        try:
            if request.content_type == FORM_TYPES[1]:
                _check_multipart(request)
            else:
                body = request.body
                if request.content_type == FORM_TYPES[0]:
                    # The %-escapes as well: each must decode to UTF-8.
                    parse_qsl(body.decode("utf-8"), keep_blank_values=True, errors="strict", max_num_fields=None)
                request.POST  # noqa: B018 - parsed now, so nothing later meets a parse error
        except UnicodeDecodeError:
            return _plain_400(request, NOT_UTF8)
        except RequestDataTooBig:
            return _plain_400(request, TOO_LARGE)
        except TooManyFieldsSent:
            return _plain_400(request, TOO_MANY_FIELDS)
        except (MultiPartParserError, TooManyFilesSent, BadRequest, SuspiciousOperation, UnreadablePostError):
            return _plain_400(request, UNREADABLE_FORM)
        return get_response(request)

    return middleware


def _check_multipart(request) -> None:
    """A multipart form whose fields are not UTF-8 raises UnicodeDecodeError.
    A form with a file (the Backups page's) is streamed, not read whole, up
    to MAX_UPLOAD_BYTES, and the file's bytes are its page's to read; its
    fields are checked as Django's parser left them (bytes that are not
    UTF-8 become U+FFFD). A form of fields only is small and read whole."""
    length = request.META.get("CONTENT_LENGTH") or "0"
    length = int(length) if length.isascii() and length.isdigit() else 0
    if length > settings.MAX_UPLOAD_BYTES:
        raise RequestDataTooBig
    body = request.body if length <= settings.DATA_UPLOAD_MAX_MEMORY_SIZE else None
    request.POST  # noqa: B018 - parsed now, so nothing later meets a parse error
    if not request.FILES:
        if body is not None:
            body.decode("utf-8")
    elif any(UNDECODED in key or any(UNDECODED in v for v in values) for key, values in request.POST.lists()):
        raise UnicodeDecodeError("utf-8", b"", 0, 1, "a field is not UTF-8")


SESSION_SEEN = "seen"


def session_seen_at_login(sender, request, user, **kwargs):
    if request is not None and hasattr(request, "session"):
        request.session[SESSION_SEEN] = int(timezone.now().timestamp())


def keep_sessions_alive(get_response):
    """An organiser's login lasts SESSION_COOKIE_AGE (a working day) after
    their last request: the session is saved again, which starts its age
    anew, at most every SESSION_REFRESH_SECONDS (not on every request: the
    pages poll every few seconds). Requests without a session cookie (the
    table devices, the screens) are not looked at."""

    def middleware(request):
        response = get_response(request)
        has_session = settings.SESSION_COOKIE_NAME in request.COOKIES or request.session.modified
        if has_session and request.user.is_authenticated:
            now = int(timezone.now().timestamp())
            seen = request.session.get(SESSION_SEEN)
            if not isinstance(seen, int) or now - seen >= settings.SESSION_REFRESH_SECONDS:
                request.session[SESSION_SEEN] = now
        return response

    return middleware
