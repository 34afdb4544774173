"""A dim room (issue 28, item 5): ♦ and ♥ in red wherever suits show,
readable (4.5:1 or more, WCAG AA) on whatever they sit on, in the light and
the dark, a chosen chip included; the tricks the contract needs marked by a
ring and a dot, not a thin outline.

Draw Bridge, Ann and Bob. Hand 1: Ann 2♥, 8 tricks (made: 2 over six x
30 = 60, RULES.md 3.3). Hand 2 in play: Bob 3♦, needs 6 + 3 = 9 tricks."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import NAMES2, App

pytestmark = pytest.mark.e2e

# Each red suit's colour and the colour it sits on (the first ancestor with
# a background), as the browser computes them: [[text, background, where, on a chosen chip], ...].
COLOURS = """() => [...document.querySelectorAll('.suit-red')].filter(e => e.getClientRects().length).map(e => {
  let box = e, bg = 'rgba(0, 0, 0, 0)';
  while (box && (bg === 'rgba(0, 0, 0, 0)' || bg === 'transparent')) {
    bg = getComputedStyle(box).backgroundColor;
    box = box.parentElement;
  }
  const where = e.closest('fieldset, .big-contract, .entry-line, .why');
  const label = e.closest('label'), chosen = !!(label && label.querySelector('input:checked'));
  return [getComputedStyle(e).color, bg, (where ? where.className : '') + (chosen ? ' (chosen)' : ''), chosen];
})"""


def rgb(colour: str) -> tuple[float, ...]:
    return tuple(float(v) for v in colour[colour.index("(") + 1 : colour.index(")")].split(",")[:3])


def luminance(colour: str) -> float:
    def linear(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def is_red(colour: str) -> bool:
    """Red or pink: red clearly above green and blue."""
    r, g, b = rgb(colour)
    return r >= 120 and r - g >= 60 and r - b >= 50


def is_dark_red(colour: str) -> bool:
    r, g, b = rgb(colour)
    return r >= 100 and g <= 40 and b <= 60


def a_sheet(app: App):
    user = app.make_organiser()
    app.log_in_fast(user)
    hands = [{"declarer": 0, "level": 2, "strain": "H", "tricks": 8}]
    match = app.make_match(
        "drawbridge", NAMES2, {"target": 500}, hands, owner=user, pending={"declarer": 1, "level": 3, "strain": "D"}
    )
    app.page.goto(f"/matches/{match.pk}/")
    return match


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_red_suits_are_red_and_readable(app, shot, scheme):
    page = app.page
    page.emulate_media(color_scheme=scheme)
    a_sheet(app)
    # The contract in play and the history row: ♦ and ♥ red, ♠ and ♣ not.
    expect(page.locator("#entry .big-contract .suit-red")).to_have_text("♦")
    expect(page.locator("#history .entry-line .suit-red")).to_have_text("♥")
    # The trumps to choose from (under "Correct the contract"), one of them chosen.
    page.locator("#entry details.more > summary").click()
    trumps = page.locator("fieldset.segmented").filter(has=page.locator("legend", has_text="Trumps"))
    expect(trumps.locator(".suit-red")).to_have_text(["♦", "♥"])
    expect(trumps.locator("label", has_text="♣ clubs").locator(".suit-red")).to_have_count(0)
    expect(trumps.locator("input[value=D]")).to_be_checked()
    # The preview's why-line: Bob 3♦ with 9 tricks, made.
    app.step_to("tricks", 9)
    expect(page.locator("#preview .why .suit-red")).to_have_text("♦")
    shot(f"dim-room-red-suits-{scheme}")

    seen = page.evaluate(COLOURS)
    assert len(seen) >= 5, seen  # big contract, history, two trumps, preview
    for text, background, where, chosen in seen:
        # On a chosen chip (the accent) a red of its own: pink on dark green, deep red on bright green.
        assert is_red(text) or (chosen and is_dark_red(text)), f"{where}: {text} is not red"
        ratio = contrast(text, background)
        assert ratio >= 4.5, f"{where}: {text} on {background} is {ratio:.2f}:1"
    # The chosen trumps (♦ on the accent) has a colour of its own, still red.
    chosen = trumps.locator("input:checked + span .suit-red")
    chosen_colour = chosen.evaluate("e => getComputedStyle(e).color")
    chosen_bg = chosen.evaluate("e => getComputedStyle(e.closest('label > span')).backgroundColor")
    assert contrast(chosen_colour, chosen_bg) >= 4.5
    assert is_red(chosen_colour) or is_dark_red(chosen_colour)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_needed_tricks_chip_is_ringed_and_dotted(app, screenshot_dir, size, scheme):
    page = app.page
    page.emulate_media(color_scheme=scheme)
    a_sheet(app)
    needed = page.locator("#in-tricks label.chip-mark")
    expect(needed).to_have_count(1)
    expect(needed.locator("input")).to_have_value("9")
    span, plain = needed.locator("span").first, app.chip("tricks", 8).locator("span").first
    width = "e => parseFloat(getComputedStyle(e).borderTopWidth)"
    assert span.evaluate(width) >= 3, "the needed chip's ring is thin"
    assert plain.evaluate(width) <= 1
    dot = span.evaluate(
        "e => { const s = getComputedStyle(e, '::after'); return [s.content, parseFloat(s.width), s.backgroundColor]; }"
    )
    assert dot[0] not in ("none", "normal") and dot[1] >= 6, f"no marker on the needed chip: {dot}"
    ring = span.evaluate("e => getComputedStyle(e).borderTopColor")
    assert contrast(ring, span.evaluate("e => getComputedStyle(e).backgroundColor")) >= 3  # non-text contrast
    page.locator("#in-tricks").screenshot(path=str(screenshot_dir / f"dim-room-needed-chip-{scheme}--{size}.png"))
    # Chosen, the needed chip still shows its ring and dot against the accent.
    app.step_to("tricks", 9)
    chosen_bg = span.evaluate("e => getComputedStyle(e).backgroundColor")
    chosen_ring = span.evaluate("e => getComputedStyle(e).borderTopColor")
    chosen_dot = span.evaluate("e => getComputedStyle(e, '::after').backgroundColor")
    assert contrast(chosen_ring, chosen_bg) >= 3 and contrast(chosen_dot, chosen_bg) >= 3
    page.locator("#in-tricks").screenshot(path=str(screenshot_dir / f"dim-room-needed-chosen-{scheme}--{size}.png"))
