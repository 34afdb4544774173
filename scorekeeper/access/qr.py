"""QR codes as inline SVG (segno), for scoring links and table cards, and
the address a phone scans."""

import io

import segno
from django.conf import settings
from django.http.request import split_domain_port
from django.utils.translation import gettext


def qr_svg(url: str, scale: int = 4, title: str | None = None) -> str:
    buffer = io.BytesIO()
    segno.make(url, error="m").save(
        buffer,
        kind="svg",
        scale=scale,
        border=2,
        xmldecl=False,
        svgns=True,
        omitsize=True,  # a viewBox instead of a fixed size: the CSS sizes the code (.qr svg)
        title=title or gettext("QR code of the scoring link"),
        dark="#000",
        light="#fff",
    )
    return buffer.getvalue().decode()


LOOPBACK = {"localhost", "127.0.0.1", "[::1]"}


def phone_url(request, path: str) -> str:
    """The address of ``path`` as a phone at the club opens it: a page drawn
    on the laptop itself (http://127.0.0.1:8000) would print a card no
    phone can reach, so when the server listens on the network its address
    there is used (settings.JOIN_URL), as the organiser's "Phones join at"."""
    host = split_domain_port(request.get_host())[0]
    if settings.JOIN_URL and host in LOOPBACK:
        return settings.JOIN_URL.rstrip("/") + path
    return request.build_absolute_uri(path)
