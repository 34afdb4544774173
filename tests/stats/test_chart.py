"""The match chart: geometry, and the SVG the sheet draws."""

from scorekeeper.stats.chart import nice_step, running_totals


def points(line):
    return [tuple(float(v) for v in p.split(",")) for p in line.points.split()]


def test_one_line_per_player_starting_at_zero_and_rising_with_the_totals():
    chart = running_totals(["Ann", "Bob"], [[71, 41], [-29, 98], [150, 200]], 500)
    assert [line.name for line in chart.lines] == ["Ann", "Bob"]
    ann, bob = (points(line) for line in chart.lines)
    assert len(ann) == len(bob) == 4  # the start, then one point per hand
    assert ann[0] == bob[0] and ann[0][1] == chart.zero_y
    # Higher totals are higher on the page (smaller y); x grows with the hand.
    assert ann[1][1] < ann[0][1] < ann[2][1]
    assert [p[0] for p in ann] == sorted(p[0] for p in ann)
    assert chart.target_y < min(p[1] for p in ann + bob)  # 500 is above every total
    assert [line.total for line in chart.lines] == [150, 200]


def test_right_to_left_runs_the_hands_the_other_way():
    ltr = running_totals(["Ann", "Bob"], [[10, 20], [30, 5]])
    rtl = running_totals(["Ann", "Bob"], [[10, 20], [30, 5]], rtl=True)
    xs_ltr = [p[0] for p in points(ltr.lines[0])]
    xs_rtl = [p[0] for p in points(rtl.lines[0])]
    assert xs_ltr == sorted(xs_ltr) and xs_rtl == sorted(xs_rtl, reverse=True)
    assert [p[1] for p in points(ltr.lines[0])] == [p[1] for p in points(rtl.lines[0])]


def test_close_totals_keep_their_names_apart():
    chart = running_totals(["Ann", "Bob", "Cy"], [[100, 101, 99]])
    ys = sorted(line.label_y for line in chart.lines)
    assert all(b - a >= 15 for a, b in zip(ys, ys[1:], strict=False))


def test_nice_steps():
    assert [nice_step(s) for s in (6, 60, 600, 7, 1300)] == [1, 10, 100, 2, 500]


def test_a_sides_names_at_the_line_ends_fit_inside_the_chart():
    """Two partners' names ("Ann & Cat 165") take more room than one name: the plot gives it up."""
    from scorekeeper.stats.chart import CHAR_WIDTH

    names = ["Annabel & Catherine", "Bob & Dan"]
    for rtl in (False, True):
        chart = running_totals(names, [[43, 165]], rtl=rtl)
        room = CHAR_WIDTH * len("Annabel & Catherine 43")
        if rtl:
            assert chart.label_x - room >= 0
        else:
            assert chart.label_x + room <= chart.width
    short = running_totals(["Ann", "Bob"], [[1, 0]])
    assert short.plot_right == short.width - 84  # a short name keeps the usual plot
