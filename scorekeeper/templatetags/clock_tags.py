"""``{% round_clock rnd as clock %}``: the round's clock as drawn now
(templates/tournaments/clock.html shows it, static/js/clock.js counts)."""

from django import template

from ..tournaments.desk import round_clock as _round_clock

register = template.Library()


@register.simple_tag
def round_clock(rnd):
    return _round_clock(rnd)
