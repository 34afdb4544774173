"""The club laptop's own page parts: where the players' phones join."""

from django import template
from django.conf import settings
from django.utils.translation import gettext

from ..access.qr import qr_svg

register = template.Library()


@register.inclusion_tag("partials/join.html")
def join_panel():
    """ "Phones join at http://192.168.1.20:8000" with its QR code, when the
    server listens on the network (bin/run --lan); nothing otherwise."""
    url = settings.JOIN_URL
    return {"url": url, "qr": qr_svg(url, scale=3, title=gettext("QR code of this server's address")) if url else ""}
