"""Small display helpers for the score sheet templates, driven by each
game's spec. No rules here, and no game's name: a game's own display is in
its template (templates/games/<id>.html)."""

import re

from django import template
from django.utils.html import conditional_escape, escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ..i18n import hands_count, listed, plays_deals, shown
from ..matches.check_card import may_check
from ..matches.confirmation import PENDING
from ..matches.wording import label_words
from ..scoring import get_game

register = template.Library()


@register.filter
def link_label(stored: str) -> str:
    """A scoring link's name in the reader's language (a table's link is stored in English)."""
    return label_words(stored)


RED_SUITS = re.compile("([♦♥])")


@register.filter(needs_autoescape=True)
def suits(text, autoescape=True):
    """{{ why|suits }}: ♦ and ♥ drawn red, as on the cards (``.suit-red``);
    the rest escaped as usual. Text with a red suit is held in one span
    (``.suited``): in a chip, a flex box, the words would otherwise be an
    item of their own and lose the space after the suit ("♦diamonds")."""
    text = str(conditional_escape(text) if autoescape else text)
    red = RED_SUITS.sub(r'<span class="suit-red">\1</span>', text)
    return mark_safe(f'<span class="suited">{red}</span>' if red != text else text)


@register.filter(name="plays_deals")
def plays_deals_filter(spec) -> bool:
    """{% if sheet.spec|plays_deals %}: the game calls a hand a deal (Sixty-Six); False without a game."""
    return spec is not None and spec != "" and plays_deals(spec)


@register.filter(name="listed")
def listed_filter(items) -> str:
    """{{ names|listed }}: "Ann, Bob" in the reader's language (the Arabic comma in Urdu and Sindhi)."""
    return listed(items or ())


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


@register.simple_tag
def shown_name(name, short):
    """A player's name where the room is short (ScoreSheet.column_heads):
    the short form for the eye, the whole name for screen readers and for
    wide screens (app.css: .name-full, .name-short)."""
    if short == name:
        return conditional_escape(name)
    # bdi: "Bart…" keeps its ellipsis at its own end in a right-to-left page.
    return format_html(
        '<span class="name-full">{}</span><bdi class="name-short" aria-hidden="true">{}</bdi>', name, short
    )


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
    return shown(dict(hand_field(spec, name).choices).get(value, value))


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
    return hands_count(spec, count)


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
    result = [(n, shown(labels.get(n, str(n)))) for n in numbers]
    result += [(v, shown(label)) for v, label in spec_field.choices if not isinstance(v, int)]
    return result


@register.filter
def entry_summary(entry):
    """A stored hand or bidding dict in words: "bids 7, 4 · tricks 8, 5"."""
    if not isinstance(entry, dict):
        return "" if entry is None else str(entry)
    parts = []
    for key, value in entry.items():
        if isinstance(value, list):
            value = listed(str(v).replace("_", " ") for v in value)
        elif value is True:
            value = _("yes")
        elif value is False:
            value = _("no")
        parts.append(f"{key.replace('_', ' ')} {value}")
    return " · ".join(parts)


# One radio group of chips: one tap per value, keyboard and screen readers
# work as with any radio group, and the form posts without JavaScript.
# data-says and data-label: how the offline queue words the choice and names
# a missing one (docs/page-contract.md): the scripts read no label or legend.
_CHIPS = """<fieldset id="in-{input}" class="chips{few}{has_error}" role="radiogroup"{auto}{invalid}{declared}>
  <legend>{legend}{note}</legend>
  <div class="chip-row">{chips}</div>{message}
</fieldset>"""


def _chip_parts(choices, mark=None, mark_text="") -> list[tuple[str, str, str]]:
    """(value, '<label …><input … value="…"', '><span>…</span></label>') of
    each choice, escaped once for all the groups that offer them. A label
    longer than a number ("Blind Nil") takes two cells; ``mark`` (a value)
    is drawn as the one to aim for, with ``mark_text`` for screen readers."""
    mark = None if mark in (None, "") else str(mark)
    parts = []
    for value, text in choices:
        value, text = str(value), str(text)
        classes = "chip" + (" chip-wide" if len(text) > 3 else "") + (" chip-mark" if value == mark else "")
        hidden = f'<span class="visually-hidden"> ({escape(mark_text)})</span>' if value == mark and mark_text else ""
        word = f' data-word="{escape(text)}"' if text != value else ""  # "Nil" for 0: the word the queue shows
        parts.append(
            (
                value,
                f'<label class="{classes}"><input type="radio" name="{{name}}" value="{escape(value)}"{word}',
                f"><span>{suits(text)}{hidden}</span></label>",
            )
        )
    return parts


@register.simple_tag
def chips(
    input,
    legend,
    choices,
    current=None,
    error=None,
    auto=False,
    parts=None,
    note="",
    mark=None,
    mark_text="",
    says="",
    label="",
    short="",
):
    """{% chips "tricks" "Bob's tricks" choices current error %}: one value
    picked with one tap. ``auto``: app.js fills it in as the rest of its
    group's total; ``note`` says so, shown (CSS) only on the group it has
    filled in, which may be another than the first one marked; ``mark``: the value to
    aim for (Draw Bridge: the tricks the contract needs). ``says`` ("Bob
    took {}") and ``label`` ("Bob (tricks)"): the choice and the field in
    words for the offline queue (the legend by default); ``short``: the
    legend as a narrow column shows it (a player's short name).

    A group of up to 8 cells (a wide chip takes two) is a "chip-grid": its
    legend beside the chips where the line has room (app.css)."""
    current = "" if current is None else str(current)
    name = escape(input)
    parts = parts or _chip_parts(choices, mark, mark_text)
    picked = "".join(
        f"{start.replace('{name}', name)}{' checked' if value == current else ''}{end}" for value, start, end in parts
    )
    cells = sum(2 if " chip-wide" in start else 1 for _value, start, _end in parts)
    return mark_safe(
        _CHIPS.format(
            input=name,
            legend=shown_name(legend, short) if short else escape(legend),
            few=" chip-grid" if cells <= 8 else "",
            note=f' <span class="auto-note">{escape(note)}</span>' if note else "",
            has_error=" has-error" if error else "",
            auto=" data-auto" if auto else "",
            invalid=f' aria-invalid="true" aria-describedby="err-{name}"' if error else "",
            chips=picked,
            message=f'\n  <p id="err-{name}" class="field-error">{escape(error)}</p>' if error else "",
            declared=f' data-says="{escape(says or f"{legend} {{}}")}" data-label="{escape(label or legend)}"',
        )
    )


# Chip groups by everything they are drawn from: the game and the field,
# the language, the choices (up to the largest number), the seats in their
# order, the names, the bids at their heads, and the values and errors of
# their own inputs (none, on a fresh form). After a saved hand every table
# draws the same few again: drawn once per process, then reused (a group of
# bids drawn: 0.16-0.18 ms; found here: 0.005 ms, measured in the README's "The hot path").
_DRAWN_CHIPS: dict[tuple, str] = {}
_DRAWN_CHIPS_MAX = 512  # about 3 MB at most


@register.simple_tag
def seat_chips(
    spec, field, seats, names, choices, values, errors, fill_last=False, note="", heads=None, bids=None, wide_for=None
):
    values, errors = values or {}, errors or {}
    inputs = [f"{field}_{seat}" for seat in seats]
    key = (
        tuple(values.get(name) for name in inputs),
        tuple(errors.get(name) for name in inputs),
        spec.id,
        get_language(),
        field,
        tuple(choices),
        tuple(seats),
        tuple(names),
        fill_last,
        note,
        tuple(heads or ()),
        tuple(bids or ()),
        None if wide_for in (None, "") else tuple(wide_for),
    )
    drawn = _DRAWN_CHIPS.get(key)
    if drawn is None:
        drawn = _seat_chips(spec, field, seats, names, choices, values, errors, fill_last, note, heads, bids, wide_for)
        if len(_DRAWN_CHIPS) >= _DRAWN_CHIPS_MAX:
            _DRAWN_CHIPS.clear()  # a long evening's names and typing: start again rather than grow
        _DRAWN_CHIPS[key] = drawn
    return drawn


def _seat_chips(spec, field, seats, names, choices, values, errors, fill_last, note, heads, bids, wide_for):
    """{% seat_chips sheet.spec "bids" hints.bidding_order sheet.names choices values errors %}:
    one group of chips per player, in ``seats`` order, named "bids_<seat>",
    together in a "chip-table" (with many players, a column each: app.css).
    ``fill_last``: app.js fills the last one in as the rest of the total
    (and another, once that one is chosen by hand: each carries the note);
    ``heads``: (name, short name) of each seat (ScoreSheet.column_heads);
    ``bids``: the bids in force, by seat, shown at the head of each
    player's column of tricks (app.css shows them there only);
    ``wide_for``: where given, only these seats are offered the choices
    that are not numbers (Blind Nil, where the options allow it)."""
    values, errors, parts = values or {}, errors or {}, _chip_parts(choices)
    numbers_only = [part for part, (value, _text) in zip(parts, choices, strict=True) if isinstance(value, int)]
    shorts = [short for _name, short in heads] if heads else names
    bid_field = hand_field(spec, "bids") if bids else None
    spec_field = hand_field(spec, field)
    groups = []
    for i, seat in enumerate(seats):
        name = f"{field}_{seat}"
        auto = fill_last and i == len(seats) - 1
        # Translators: a player's field named for the offline queue's message: "Bob (tricks)".
        label = _("%(name)s (%(field)s)") % {"name": names[seat], "field": spec_field.label.lower()}
        says = f"{names[seat]} {spec_field.says}" if spec_field.says else ""
        current, error, noted = values.get(name), errors.get(name), note if fill_last else ""
        offered = parts if wide_for in (None, "") or seat in wide_for else numbers_only
        group = chips(
            name, names[seat], choices, current, error, auto, offered, noted, says=says, label=label, short=shorts[seat]
        )
        if bid_field is not None and seat < len(bids):
            bid = shown(dict(bid_field.choices).get(bids[seat], bids[seat]))
            words = bid_field.says.replace("{}", str(bid)) if bid_field.says else str(bid)
            group = group.replace("</legend>", f' <span class="head-bid">{escape(words)}</span></legend>', 1)
        groups.append(group)
    return mark_safe('<div class="chip-table">\n' + "\n".join(groups) + "\n</div>")


@register.simple_tag
def checkable(sheet, row, viewer) -> bool:
    """{% checkable sheet row viewer as c %}: a Check link beside a hand
    waiting for the other side, only on a screen whose answer the check view
    takes (check_card.may_check): not the link or login that made the hand
    as it stands (that phone shows the pass-the-phone card instead), nor a
    match abandoned or accepted as it is."""
    return row.confirmation == PENDING and may_check(sheet, row, viewer)


@register.filter
def editable_by(row, viewer) -> bool:
    """An Edit link: organisers always; a table while the match goes on, a
    confirmed (locked) hand excepted; once the match is over, only a hand
    the other side marked as wrong."""
    if viewer.is_organiser:
        return True
    if viewer.can_score:
        return not row.locked
    return viewer.can_check and row.confirmation == "disputed"


@register.simple_tag
def needed_fields(spec, players, phases="bidding play"):
    """The inputs a save must carry, from the game's spec (data-needs of a
    save button: the offline queue keeps nothing with one missing): every
    required field of those phases, one per player where it is per player;
    a field required only with another's value ("when") is the server's to
    check."""
    wanted = phases.split()
    names = []
    for spec_field in spec.hand_fields:
        if spec_field.phase not in wanted or not spec_field.required or spec_field.when or spec_field.kind == "bool":
            continue
        if spec_field.per_player:
            names += [f"{spec_field.name}_{seat}" for seat in range(int(players))]
        elif spec_field.per_side:
            names += [f"{spec_field.name}_{side}" for side in range(len(spec.sides))]
        else:
            names.append(spec_field.name)
    return " ".join(names)
