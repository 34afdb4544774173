"""Request and response guards that apply to every page.

Content Security Policy: our own files only, no inline script or style
(htmx is configured not to inject styles; see templates/base.html)."""

from django.http import HttpResponseBadRequest

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
        # The admin ships a few inline scripts of its own; leave it its defaults.
        if not request.path.startswith("/admin/"):
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
            return HttpResponseBadRequest(
                "The request contained an invalid character (a NUL byte). Nothing was saved.",
                content_type="text/plain; charset=utf-8",
            )
        return get_response(request)

    return middleware
