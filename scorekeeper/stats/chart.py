"""A match's story as a chart: the running totals hand by hand, one line per
player, the target marked. Pure geometry (no Django); the template
(templates/partials/chart.html) draws it as SVG with classes only, since
the CSP allows no inline style."""

from __future__ import annotations

import math
from dataclasses import dataclass

WIDTH, HEIGHT = 380, 240
LEFT, RIGHT, TOP, BOTTOM = 40, 84, 12, 26  # room for the scale and (at least) the names at the line ends
CHAR_WIDTH = 8  # a letter of a name at a line's end (app.css .chart-name: 13 px, bold), a little generously


@dataclass(frozen=True)
class Line:
    seat: int
    name: str
    points: str  # the SVG polyline's points
    end_x: float
    end_y: float
    total: int
    label_y: float = 0.0  # the name at the line's end, kept clear of the others


@dataclass(frozen=True)
class Tick:
    value: int
    y: float


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: list[Line]
    ticks: list[Tick]
    target_y: float | None
    target: int | None
    hands: int
    plot_left: float
    plot_right: float
    plot_top: float
    plot_bottom: float
    zero_y: float
    label_x: float  # where the names at the line ends start
    rtl: bool
    hand_ticks: list[Tick]  # hand numbers along the bottom: value = hand, y = its x
    tick_x: float  # where the scale's numbers stand
    target_label_x: float  # "to 500" inside the plot, at the first hands' end, above the line
    start_anchor: str  # "start" or "end": text-anchor of the names ("end" for the scale)
    end_anchor: str


def nice_step(span: float, most: int = 6) -> int:
    """A round step (1, 2 or 5 times a power of ten) giving at most ``most``
    intervals over ``span``."""
    if span <= 0:
        return 1
    raw = span / most
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return max(1, int(factor * power))
    return max(1, int(10 * power))


def running_totals(
    names: list[str],
    totals_by_hand: list[list[int]],
    target: int | None = None,
    *,
    rtl: bool = False,
    width: int = WIDTH,
    height: int = HEIGHT,
) -> Chart:
    """``totals_by_hand[k][i]``: seat i's total after hand k + 1. Every line
    starts at 0 before the first hand. With ``rtl`` the hands run from right
    to left, as a right-to-left reader expects."""
    hands = len(totals_by_hand)
    values = [0, *(t for row in totals_by_hand for t in row)]
    if target is not None:
        values.append(target)
    low, high = min(values), max(values)
    if low == high:
        high = low + 1
    step = nice_step(high - low)
    low = step * math.floor(low / step)
    high = step * math.ceil(high / step)
    # The names at the line ends need room: a side's two names ("Ann & Cat 165") more than one.
    finals = totals_by_hand[-1] if totals_by_hand else [0] * len(names)
    longest = max((len(f"{name} {total}") for name, total in zip(names, finals, strict=False)), default=0)
    room = min(max(RIGHT, CHAR_WIDTH * longest + 10), width // 2)
    left, right = (room, width - LEFT) if rtl else (LEFT, width - room)
    top, bottom = TOP, height - BOTTOM

    def x(k: int) -> float:
        share = k / hands if hands else 0
        return round(right - share * (right - left) if rtl else left + share * (right - left), 1)

    def y(value: float) -> float:
        return round(bottom - (value - low) / (high - low) * (bottom - top), 1)

    lines = []
    for seat, name in enumerate(names):
        path = [(x(0), y(0))] + [(x(k + 1), y(row[seat])) for k, row in enumerate(totals_by_hand)]
        final = totals_by_hand[-1][seat] if totals_by_hand else 0
        lines.append(Line(seat, name, " ".join(f"{px:g},{py:g}" for px, py in path), path[-1][0], path[-1][1], final))
    lines = _spread_labels(lines, top, bottom)
    ticks = [Tick(v, y(v)) for v in range(int(low), int(high) + 1, step)]
    return Chart(
        width=width,
        height=height,
        lines=lines,
        ticks=ticks,
        target_y=y(target) if target is not None else None,
        target=target,
        hands=hands,
        plot_left=left,
        plot_right=right,
        plot_top=top,
        plot_bottom=bottom,
        zero_y=y(0),
        label_x=(left - 6) if rtl else (right + 6),
        rtl=rtl,
        hand_ticks=[Tick(k, x(k)) for k in range(nice_step(hands, 8), hands + 1, nice_step(hands, 8))] if hands else [],
        tick_x=(right + 6) if rtl else (left - 6),
        target_label_x=(right - 4) if rtl else (left + 4),
        start_anchor="end" if rtl else "start",
        end_anchor="start" if rtl else "end",
    )


LABEL_GAP = 15


def _spread_labels(lines: list[Line], top: float, bottom: float) -> list[Line]:
    """Names at the line ends at least LABEL_GAP apart, in the lines' order
    from the top, so close totals stay readable."""
    order = sorted(lines, key=lambda line: (line.end_y, line.seat))
    placed: dict[int, float] = {}
    previous = None
    for line in order:
        label = line.end_y + 4
        if previous is not None and label < previous + LABEL_GAP:
            label = previous + LABEL_GAP
        placed[line.seat] = label
        previous = label
    overflow = previous - (bottom + 4) if previous is not None else 0
    if overflow > 0:  # pushed below the plot: move them all up
        placed = {seat: max(top + 8, y - overflow) for seat, y in placed.items()}
    return [Line(**{**line.__dict__, "label_y": round(placed[line.seat], 1)}) for line in lines]
