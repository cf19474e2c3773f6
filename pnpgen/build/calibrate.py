"""The duplex calibration sheet (`pnpgen calibrate`) and the back offset it measures.

A home duplexer prints the back image a little away from where the PDF puts it, by the
same amount on every sheet (commonly 0.5-2 mm). The sheet measures that amount with
pairs of lines, one pair per candidate offset v from -4 to +4 mm in 0.25 mm steps, on
each axis: a line on the front, and its partner on the back drawn exactly where a back
page built with `--back-offset v` would put it. Held to a window, the pair whose two
lines meet in one straight line is the offset that cancels the printer's error, so the
user types the very number they read, whichever the flip edge. Neighbouring pairs are
PITCH apart, more than the widest possible miss, so a back line can never meet the
wrong partner within the range.

Offsets are in back-page axes: millimetres, x to the right and y up as seen looking at
the back page (the PDF's own axes for that page). All geometry here is in millimetres
with y up; points appear only in pnpgen.render."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from .. import files, fonts, presets
from ..errors import InputError
from ..game.models import BACK_OFFSET_MAX, check_back_offset
from ..sheets.impose import apply, flip_transform

STEP = 0.25          # the resolution of a reading, mm
RANGE = 4.0          # readings run from -RANGE to +RANGE, mm
PITCH = 8.5          # between neighbouring pairs, mm: > 2 * RANGE, so no pair can meet a neighbour
PER_ROW = 11         # pairs in one row (X) or column (Y) of a scale
HALF = 6.0           # length of each line of a pair, mm
LINE = 0.2           # width of the scale lines, mm
BAND = 20.0          # between the rows (X) or columns (Y) of a scale, mm
LABEL = 6.5          # size of the pair labels, pt
MARGIN = 5.0         # the printer's unprintable border, mm: nothing is drawn there
GREY = (0.35, 0.35, 0.35)
PT = 25.4 / 72       # mm per point


@dataclass(frozen=True)
class Pair:
    """One reading of one axis: a line on the front and its partner on the back."""

    axis: str            # "x" (vertical lines, read left-right) or "y" (horizontal lines)
    value: float         # the back offset this pair reads, mm
    label: str           # the number printed beside it
    front: tuple         # ((x0, y0), (x1, y1)) on the front page, mm
    back: tuple          # ((x0, y0), (x1, y1)) on the back page, mm


@dataclass(frozen=True)
class Page:
    """One page of the calibration sheet: what it draws."""

    lines: tuple = ()    # (x0, y0, x1, y1, width) mm
    circles: tuple = ()  # (x, y, r, stroke width or 0, filled)
    texts: tuple = ()    # (x, y, text, font, size pt, align, colour or None)


@dataclass(frozen=True)
class Calibration:
    """The duplex calibration sheet: its pages and where it went."""

    paper: str
    flip: str
    page: tuple          # (W, H) mm
    pairs: tuple
    front: Page
    back: Page
    ring: tuple          # (x, y, r) on the front where the back's dot must show


def parse_offset(text: str) -> tuple[float, float]:
    """'X,Y' in mm (as typed after --back-offset) -> (x, y), or ValueError saying why not."""
    parts = [p.strip() for p in str(text).split(",")]
    if len(parts) != 2:
        raise ValueError(f"'{text}' is not X,Y: give two numbers in mm separated by a comma, e.g. 0.75,-0.5")
    try:
        x, y = (float(p) for p in parts)
    except ValueError:
        raise ValueError(f"'{text}' is not X,Y: give two numbers in mm separated by a comma, "
                         "e.g. 0.75,-0.5") from None
    return check_back_offset(x, y)


def label(value: float) -> str:
    return "0" if value == 0 else f"{value:+.2f}"


def _pairs(page, flip):
    """The X scale (three rows of vertical lines) left of centre, the Y scale (three columns
    of horizontal lines) right of it; values rise to the right and upwards, like the
    offsets they read. A back line is its front line turned over the flip edge and moved
    by its value along its axis: where a back built with that offset would print it."""
    W, H = page
    flip_t = flip_transform(page, flip)
    n = round(RANGE / STEP)
    values = [k * STEP for k in range(-n, n + 1)]
    assert len(values) == 3 * PER_ROW
    cy = H / 2 - 8
    pairs = []
    xc = W / 2 - 46                       # centre of the X rows
    for i, v in enumerate(values):
        band, j = divmod(i, PER_ROW)
        x = xc + (j - PER_ROW // 2) * PITCH
        y = cy + (1 - band) * BAND        # first band on top: the most negative values
        front = ((x, y), (x, y + HALF))
        back = tuple(_moved(apply(flip_t, *p), v, 0) for p in ((x, y - HALF), (x, y)))
        pairs.append(Pair("x", v, label(v), front, back))
    for i, v in enumerate(values):
        band, j = divmod(i, PER_ROW)
        x = W / 2 + 52 + (band - 1) * BAND * 1.2   # first band on the left: the most negative
        y = cy + (j - PER_ROW // 2) * PITCH
        front = ((x - HALF, y), (x, y))
        back = tuple(_moved(apply(flip_t, *p), 0, v) for p in ((x, y), (x + HALF, y)))
        pairs.append(Pair("y", v, label(v), front, back))
    return pairs


def _moved(point, dx, dy):
    return (point[0] + dx, point[1] + dy)


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap to `width` mm."""
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and fonts.width(trial, font) * size * PT > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + [line] if line else lines


def sheet(paper: str = "letter", flip: str = "long") -> Calibration:
    """The calibration sheet's geometry and text for a paper and flip edge."""
    page = presets.papers()[paper]
    W, H = page
    flip_t = flip_transform(page, flip)
    sans = fonts.builtin("sans")
    bold = fonts.ensure("sans-bold", fonts.BUILTIN["sans-bold"])
    pairs = _pairs(page, flip)
    paper_name = {"letter": "Letter", "a4": "A4"}[paper]

    lines, texts, circles = [], [], []
    scales_top = _scales(pairs, sans, bold, lines, texts)
    steps_bottom = _steps(page, paper, paper_name, flip, sans, bold, texts)
    if steps_bottom < scales_top:   # cannot happen on Letter or A4; a guard for other papers
        raise InputError.at("(calibrate)", None, f"the calibration sheet does not fit on {paper_name}")
    ring, bar_y = _below_scales(page, pairs, flip, sans, bold, lines, texts, circles)
    front = Page(tuple(lines), tuple(circles), tuple(texts))
    back = _back(page, pairs, flip_t, ring, bar_y, paper_name, flip, sans)
    return Calibration(paper, flip, page, tuple(pairs), front, back, ring)


def _scales(pairs: list[Pair], sans: str, bold: str, lines: list, texts: list) -> float:
    """The front's line of each pair with its label, and each scale's heading; returns the
    top of the scales (mm), which the reading steps must stay above."""
    for p in pairs:
        (x0, y0), (x1, y1) = p.front
        lines.append((x0, y0, x1, y1, LINE))
        font = bold if p.value == 0 else sans
        if p.axis == "x":
            texts.append((x1, y1 + 1.2, p.label, font, LABEL, "center", None))
        else:
            texts.append((x0 - 1.0, y0 - 0.8, p.label, font, LABEL, "right", None))
    xs = [p for p in pairs if p.axis == "x"]
    ys = [p for p in pairs if p.axis == "y"]
    x_mid = (min(p.front[0][0] for p in xs) + max(p.front[0][0] for p in xs)) / 2
    x_top = max(p.front[1][1] for p in xs) + 1.2 + LABEL * PT + 3
    texts.append((x_mid, x_top + 3.2, "X: left-right", bold, 10, "center", None))
    texts.append((x_mid, x_top, "each line's partner from the back shows through below it", sans, 7, "center", GREY))
    y_mid = (min(p.front[0][0] for p in ys) + max(p.front[1][0] for p in ys)) / 2
    y_top = max(p.front[0][1] for p in ys) + 5.5
    texts.append((y_mid, y_top + 3.2, "Y: up-down", bold, 10, "center", None))
    texts.append((y_mid, y_top, "each line's partner shows through to its right", sans, 7, "center", GREY))
    x_top, y_top = x_top + 3.2, y_top + 3.2
    return max(x_top, y_top) + 4


def _steps(page, paper: str, paper_name: str, flip: str, sans: str, bold: str, texts: list) -> float:
    """The title and the reading steps, top down; returns where they end (mm)."""
    W, H = page
    edge = flip.upper()
    other = "short" if flip == "long" else "long"
    left, width = 15.0, W - 30.0
    y = H - 16
    texts.append((left, y, "Duplex calibration", bold, 15, "left", None))
    y -= 6.5
    texts.append((left, y, f"{paper_name}, for printing duplex flipped on the {edge} edge. pnpgen calibrate "
                  f"--paper {paper} --flip {flip}", sans, 9, "left", GREY))
    steps = [
        f"Print both pages on one sheet: duplex, flip on the {flip} edge, at 100 % / actual size (not "
        "\"fit to page\"). The bar at the bottom must measure 100 mm.",
        "Hold the sheet against a bright window with this side towards you: the lines printed on the back "
        "show through.",
        "Each number labels a pair of lines: one printed on this side, its partner on the back. On each scale "
        "find the pair whose two lines meet in one straight line, with no step between them (if two "
        "neighbours look equally good, take either).",
        "Its number is your offset: X from the left scale, Y from the right one. Build with "
        "pnpgen build --back-offset X,Y (or put back_offset: [X, Y] in game.yaml). Every back page "
        "is moved by it; fronts never move.",
        "Signs: X = +0.75 means this printer puts backs 0.75 mm too far left, as seen looking at the back, so "
        "every back is moved 0.75 mm right; Y = -0.5 means backs land 0.5 mm too high and are moved "
        "0.5 mm down.",
        f"No pair lines up? The printer is more than {RANGE:g} mm off, or scales the page (measure the bar), "
        f"or flipped on the {other} edge (the dot from the back is then outside the ring). Calibrate with "
        "the flip edge you print cards with.",
    ]
    y -= 8
    for n, step in enumerate(steps, 1):
        texts.append((left, y, f"{n}.", bold, 9, "left", None))
        for row in _wrap(step, sans, 9, width - 5):
            texts.append((left + 5, y, row, sans, 9, "left", None))
            y -= 4.3
        y -= 1.2
    return y


def _below_scales(page, pairs: list[Pair], flip: str, sans: str, bold: str, lines: list, texts: list,
                  circles: list) -> tuple[tuple, float]:
    """Below the scales: where to write the reading, the flip check and the 100 mm bar;
    returns the flip-check ring (x, y, r) and the bar's height on the page (mm)."""
    W, H = page
    other = "short" if flip == "long" else "long"
    left = 15.0
    xs = [p for p in pairs if p.axis == "x"]
    ys = [p for p in pairs if p.axis == "y"]
    bottom = min(min(p.front[0][1] for p in xs) - HALF, min(p.front[0][1] for p in ys)) - RANGE - 7
    texts.append((left, bottom, "Reading:   X = ________ mm     Y = ________ mm     then   pnpgen build "
                  "--back-offset X,Y", bold, 9, "left", None))
    ring = (left + 12, bottom - 22, 7.0)   # wider than RANGE: only a wrong flip edge puts the dot outside
    circles.append((*ring, 0.3, False))
    texts.append((ring[0] + ring[2] + 4, ring[1] + 0.8, "Flip check: the dot printed on the back shows inside this ring.",
                  sans, 8, "left", None))
    texts.append((ring[0] + ring[2] + 4, ring[1] - 3.2, f"Elsewhere: the printer flipped on the {other} edge; "
                  f"set it to the {flip} edge.", sans, 8, "left", None))
    bar_y = MARGIN + 12
    x0 = W / 2 - 50
    lines.append((x0, bar_y, x0 + 100, bar_y, 0.3))
    for k in range(11):
        tall = 3.0 if k % 5 == 0 else 1.8
        lines.append((x0 + 10 * k, bar_y, x0 + 10 * k, bar_y + tall, 0.3))
    texts.append((W / 2, bar_y + 4.2, "This bar must measure 100 mm: if not, print at 100 % / actual size",
                  sans, 8, "center", None))
    return ring, bar_y


def _back(page, pairs: list[Pair], flip_t, ring: tuple, bar_y: float, paper_name: str, flip: str,
          sans: str) -> Page:
    """The back: each pair's partner line, the flip-check dot, and a note that lands on
    blank paper behind the front's bar."""
    W, H = page
    blines = [(p.back[0][0], p.back[0][1], p.back[1][0], p.back[1][1], LINE) for p in pairs]
    dot = apply(flip_t, ring[0], ring[1])
    bnote = apply(flip_t, W / 2, bar_y - 5.5)
    btexts = [(bnote[0], bnote[1] - 1.0, f"Back of the duplex calibration sheet ({paper_name}, {flip}-edge flip): "
               "turn over and read the other side against a window.", sans, 7, "center", GREY)]
    return Page(tuple(blines), ((dot[0], dot[1], 2.0, 0, True),), tuple(btexts))


def write(path: Path, paper: str = "letter", flip: str = "long") -> Calibration:
    """Write the two-page calibration PDF (front, then back) to `path`, atomically."""
    from ..pdf.canvas import CardCanvas

    cal = sheet(paper, flip)
    path = Path(path)
    font = fonts.builtin("sans")
    with files.Staged() as staged:
        tmp = staged.add(path)
        canvas = CardCanvas(tmp, cal.page, f"pnpgen duplex calibration ({paper}, {flip}-edge flip)", {}, 0.0,
                            font)
        for side in (cal.front, cal.back):
            canvas.plain(side.lines, side.circles, side.texts)
            canvas.page()
        try:
            canvas.save()
        except OSError as exc:
            raise files.unwritable(path, exc) from None
        files.finish(tmp, path)
        staged.commit()
    return cal



assert PITCH > 2 * RANGE and RANGE <= BACK_OFFSET_MAX and math.isclose(RANGE / STEP, round(RANGE / STEP))
