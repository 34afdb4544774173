"""QR codes as inline SVG (segno), for scoring links and table cards."""

import io

import segno
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
        title=title or gettext("QR code of the scoring link"),
        dark="#000",
        light="#fff",
    )
    return buffer.getvalue().decode()
