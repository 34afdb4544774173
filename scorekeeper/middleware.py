"""Content Security Policy: our own files only, no inline script or style
(htmx is configured not to inject styles; see templates/base.html)."""

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
