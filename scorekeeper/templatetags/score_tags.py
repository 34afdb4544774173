"""Small display helpers for the score sheet templates, driven by each
game's spec. No rules here, and no game's name: a game's own display is in
its template (templates/games/<id>.html)."""

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from ..scoring import get_game

register = template.Library()


@register.filter
def get(mapping, key):
    """{{ values|get:"bids_0" }}"""
    if mapping is None:
        return None
    try:
        return mapping.get(key)
    except AttributeError:
        try:
            return mapping[int(key)]
        except (IndexError, ValueError, TypeError, KeyError):
            return None


@register.filter
def at(sequence, index):
    """{{ names|at:seat }}"""
    try:
        return sequence[int(index)]
    except (IndexError, ValueError, TypeError):
        return None


@register.filter
def input_for(field_name, seat):
    """{{ "bids"|input_for:seat }} -> "bids_0", the per-player input name."""
    return f"{field_name}_{seat}"


@register.filter
def signed(number):
    """+41, -100, 0"""
    try:
        number = int(number)
    except (TypeError, ValueError):
        return number
    return f"+{number}" if number > 0 else str(number)  # a plain minus, as in the totals


@register.simple_tag
def field_value_label(spec, name, value):
    """A hand value as its field labels it ("Nil" for a Spades 0, 0 in Oh Hell)."""
    return dict(hand_field(spec, name).choices).get(value, value)


@register.filter
def hands_of(count, spec):
    """{{ n|hands_of:sheet.spec }}: "1 hand", "4 hands"; "4 deals" where the
    game's description calls a hand a deal."""
    try:
        count = int(count)
    except (TypeError, ValueError):
        return count
    if isinstance(spec, str):  # a game's id: {{ n|hands_of:match.game }}
        spec = get_game(spec).spec
    return f"{count} {spec.hand_noun if count == 1 else spec.hands_noun}"


@register.filter
def contains(sequence, item):
    try:
        return item in sequence
    except TypeError:
        return False


@register.filter
def as_str(value):
    return "" if value is None else str(value)


@register.simple_tag
def hand_field(spec, name):
    """{% hand_field sheet.spec "strain" as f %}: a field of the game's spec."""
    return next(f for f in spec.hand_fields if f.name == name)


@register.simple_tag
def field_choices(spec, name, maximum=None):
    """(value, label) pairs for a small-range field: minimum..maximum with
    the spec's labels (Spades: 0 is "Nil"), then the spec's non-number
    choices ("Blind Nil"). ``maximum`` overrides the spec's (Oh Hell cards)."""
    spec_field = hand_field(spec, name)
    labels = dict(spec_field.choices)
    top = spec_field.maximum if maximum in (None, "") else int(maximum)
    numbers = range(spec_field.minimum or 0, (top or 0) + 1)
    result = [(n, labels.get(n, str(n))) for n in numbers]
    result += [(v, label) for v, label in spec_field.choices if not isinstance(v, int)]
    return result


@register.filter
def entry_summary(entry):
    """A stored hand or bidding dict in words: "bids 7, 4 · tricks 8, 5"."""
    if not isinstance(entry, dict):
        return "" if entry is None else str(entry)
    parts = []
    for key, value in entry.items():
        if isinstance(value, list):
            value = ", ".join(str(v).replace("_", " ") for v in value)
        elif value is True:
            value = _("yes")
        elif value is False:
            value = _("no")
        parts.append(f"{key.replace('_', ' ')} {value}")
    return " · ".join(parts)


# A select between − and + buttons: thumb-sized, works without JavaScript.
_STEPPER = """<div class="stepper{has_error}">
  <label for="in-{input}">{label}</label>
  <div class="stepper-controls">
    <button type="button" class="step js-only" data-step="-1" aria-controls="in-{input}"
            aria-label="{label}: −1">−</button>
    <select id="in-{input}" name="{input}"{auto}{invalid}>
      <option value="">?</option>{options}
    </select>
    <button type="button" class="step js-only" data-step="1" aria-controls="in-{input}"
            aria-label="{label}: +1">+</button>
  </div>{message}
</div>"""


def _options(choices) -> list[tuple[str, str, str]]:
    """(value, '<option value="…"', '>label</option>') of each choice,
    escaped once for all the steppers that offer them."""
    return [(str(value), f'<option value="{escape(value)}"', f">{escape(text)}</option>") for value, text in choices]


@register.simple_tag
def stepper(input, label, choices, current=None, error=None, auto=False, options=None):
    """{% stepper "bids_0" "Ann" choices current error %}: one number input.
    ``auto``: app.js fills it in as the rest of its fieldset's total."""
    current = "" if current is None else str(current)
    picked = "".join(
        f"{start}{' selected' if value == current else ''}{end}" for value, start, end in options or _options(choices)
    )
    name = escape(input)
    return mark_safe(
        _STEPPER.format(
            input=name,
            label=escape(label),
            has_error=" has-error" if error else "",
            auto=" data-auto" if auto else "",
            invalid=f' aria-invalid="true" aria-describedby="err-{name}"' if error else "",
            options=picked,
            message=f'\n  <p id="err-{name}" class="field-error">{escape(error)}</p>' if error else "",
        )
    )


@register.simple_tag
def seat_steppers(field, seats, names, choices, values, errors, fill_last=False):
    """{% seat_steppers "bids" hints.bidding_order sheet.names choices values errors %}:
    one stepper per player, in ``seats`` order, named "bids_<seat>".
    ``fill_last``: app.js fills the last one in as the rest of the total."""
    values, errors, options = values or {}, errors or {}, _options(choices)
    steppers = []
    for i, seat in enumerate(seats):
        name = f"{field}_{seat}"
        auto = fill_last and i == len(seats) - 1
        steppers.append(stepper(name, names[seat], choices, values.get(name), errors.get(name), auto, options))
    return mark_safe("\n".join(steppers))
