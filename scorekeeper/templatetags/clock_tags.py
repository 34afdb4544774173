"""``{% round_clock rnd as clock %}``: the round's clock as drawn now
(templates/tournaments/clock.html shows it, static/js/clock.js counts)."""

from django import template
from django.utils import timezone

from ..tournaments.desk import round_clock as _round_clock

register = template.Library()


@register.simple_tag
def round_clock(rnd):
    return _round_clock(rnd)


@register.simple_tag
def server_now():
    """The server's time, ISO 8601: clock.js works out how far this device's
    clock is from it (once per page)."""
    return timezone.now().isoformat()
