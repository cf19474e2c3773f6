"""Duplex calibration: the calibration sheet read back from its PDF (its pairs of lines, their
labels, where a printer's error makes them meet), and --back-offset / back_offset moving
every back by exactly the reading, with the same sign for both flip edges."""

from __future__ import annotations

import itertools
import re

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnpgen.build import calibrate
from pnpgen import presets
from pnpgen.build import Options, Project, build_game
from pnpgen.cli import main
from pnpgen.sheets.impose import flip_transform

from .minigame import make_game
from .pdfread import MM, apply, fonts_of, is_embedded, page_geometry

CASES = list(itertools.product(["letter", "a4"], ["long", "short"]))
LABEL = re.compile(r"(?<![\w.+-])([+-]\d+\.\d\d|0)(?![\w.])")


@pytest.fixture(scope="module")
def sheets(tmp_path_factory):
    """{(paper, flip): path} of the calibration PDF, written by the command."""
    out = tmp_path_factory.mktemp("calibrate")
    paths = {}
    for paper, flip in CASES:
        path = out / f"{paper}-{flip}.pdf"
        result = CliRunner().invoke(main, ["calibrate", "--paper", paper, "--flip", flip, "--out", str(path)])
        assert result.exit_code == 0, result.output
        paths[paper, flip] = path
    return paths


def scale_lines(reader, page):
    """Scale lines on a page, mm: [((x0, y0), (x1, y1))], told from other strokes by width."""
    out = []
    for (x0, y0), (x1, y1), width in page_geometry(reader, page).lines:
        if abs(width - calibrate.LINE * MM) < 1e-3:
            out.append(((x0 / MM, y0 / MM), (x1 / MM, y1 / MM)))
    return out


def labels(path):
    """[(value, (left, bottom, right, top) mm)] of every number printed like a pair label."""
    page = pdfium.PdfDocument(str(path))[0]
    text = page.get_textpage()
    s = text.get_text_range()
    assert len(s) == text.count_chars()
    out = []
    for m in LABEL.finditer(s):
        boxes = [text.get_charbox(i) for i in range(m.start(), m.end())]
        out.append((float(m.group(1)), tuple(v / MM for v in (min(b[0] for b in boxes), min(b[1] for b in boxes),
                                                               max(b[2] for b in boxes), max(b[3] for b in boxes)))))
    return out


def read_pairs(path):
    """{axis: [(value, front line, back line)]} as printed: each front line with the label
    beside it and the back line drawn for it (in back-page mm)."""
    reader = PdfReader(path)
    front, back = scale_lines(reader, 0), scale_lines(reader, 1)
    found = labels(path)
    pairs = {"x": [], "y": []}
    for (x0, y0), (x1, y1) in front:
        if abs(x0 - x1) < 1e-6:     # vertical: X scale, label centred above
            top = max(y0, y1)
            near = [v for v, (l, b, r, t) in found if abs((l + r) / 2 - x0) < 1.5 and 0 < b - top < 3]
            axis = "x"
        else:                       # horizontal: Y scale, label to the left
            left = min(x0, x1)
            near = [v for v, (l, b, r, t) in found if 0 < left - r < 2.5 and abs((b + t) / 2 - y0) < 1.5]
            axis = "y"
        assert len(near) == 1, ((x0, y0), near)
        pairs[axis].append((near[0], ((x0, y0), (x1, y1))))
    return pairs, back


def land(point, error, flip_t):
    """Where a back-page point printed with the printer's `error` (back-page mm) lies on the
    front page: moved by the error, then seen through the paper."""
    return apply(flip_t, point[0] + error[0], point[1] + error[1])


def reading(path, page, flip, error):
    """What a user reads off the sheet for a printer that puts backs `error` mm off: on each
    scale, the label of the front line that some back line meets end to end, in line."""
    pairs, back = read_pairs(path)
    flip_t = flip_transform(page, flip)
    landed = [tuple(land(p, error, flip_t) for p in line) for line in back]
    out = {}
    for axis, i in (("x", 0), ("y", 1)):
        j = 1 - i    # the axis along the lines
        misses = []
        for value, ((f0, f1)) in pairs[axis]:
            f_lo, f_hi = sorted((f0[j], f1[j]))
            for b0, b1 in landed:
                if abs(b0[i] - b1[i]) > 1e-6 or abs(f0[i] - f1[i]) > 1e-6:
                    continue   # not parallel to this scale's lines
                b_lo, b_hi = sorted((b0[j], b1[j]))
                # the partner sits just past the front line's end (below it, or right of it)
                end_to_end = abs(b_hi - f_lo) if axis == "x" else abs(b_lo - f_hi)
                if end_to_end <= calibrate.RANGE + 0.5:
                    misses.append((abs(b0[i] - f0[i]), value))
        misses.sort()
        assert misses[2][0] >= 0.25 - 1e-3, (axis, misses[:3])   # only the nearest two come close
        out[axis] = (misses[0][1], misses[0][0], misses[1][0])
    return out


@pytest.mark.parametrize("paper,flip", CASES)
def test_two_pages_of_the_paper_with_embedded_fonts(sheets, paper, flip):
    reader = PdfReader(sheets[paper, flip])
    assert len(reader.pages) == 2
    W, H = presets.papers()[paper]
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx((W * MM, H * MM), abs=0.01)
    fonts = fonts_of(reader)
    assert fonts
    for font in fonts:
        assert font["/Subtype"] in ("/TrueType", "/Type0") and is_embedded(font), font["/BaseFont"]
    text = pdfium.PdfDocument(str(sheets[paper, flip]))[0].get_textpage().get_text_range()
    assert "Duplex calibration" in text and "--back-offset X,Y" in text and f"flip on the {flip} edge" in text


@pytest.mark.parametrize("paper,flip", CASES)
def test_pairs_run_in_quarter_millimetres_and_zero_marks_meet(sheets, paper, flip):
    """Every front line is labelled, the labels run -4..+4 mm in 0.25 mm steps on each axis,
    and each back line is its front line turned over the flip edge and moved by its label
    along its axis: so for a perfect printer the two 0 lines meet exactly."""
    page = presets.papers()[paper]
    flip_t = flip_transform(page, flip)
    pairs, back = read_pairs(sheets[paper, flip])
    want = [k * 0.25 for k in range(-16, 17)]
    used = set()
    for axis, i in (("x", 0), ("y", 1)):
        assert sorted(v for v, _ in pairs[axis]) == want
        for value, line in pairs[axis]:
            turned = [list(apply(flip_t, *p)) for p in line]
            for p in turned:
                p[i] += value
            match = [n for n, b in enumerate(back) if _touches(turned, b, axis)]
            assert len(match) == 1, (axis, value, match)
            used.add(match[0])
            b = back[match[0]]
            # exactly in line with the front line moved by its value (to 0.001 mm)
            assert b[0][i] == pytest.approx(turned[0][i], abs=1e-3) and b[1][i] == pytest.approx(turned[0][i], abs=1e-3)
            if value == 0:   # the zero marks coincide for a perfect printer
                assert abs(b[0][i] - apply(flip_t, *line[0])[i]) < 1e-3
    assert used == set(range(len(back)))   # and no other back lines
    # the neighbouring pairs of a row are far enough apart that no back line can meet a
    # neighbour's front line within the range
    xs = sorted({round(line[0][0], 3) for _, line in pairs["x"]})
    assert min(b - a for a, b in zip(xs, xs[1:])) > 2 * calibrate.RANGE


def _touches(turned, back_line, axis):
    """The back line continues the (turned, moved) front line: same position across the
    lines, and meeting it end to end along them."""
    i, j = (0, 1) if axis == "x" else (1, 0)
    (a0, a1), (b0, b1) = turned, back_line
    if not (abs(b0[i] - a0[i]) < 1e-3 and abs(b1[i] - a0[i]) < 1e-3):
        return False
    ends_a = {round(a0[j], 3), round(a1[j], 3)}
    ends_b = {round(b0[j], 3), round(b1[j], 3)}
    return bool(ends_a & ends_b)


ERRORS = [(0, 0), (-0.75, 0.5), (1.25, -2), (3.5, 4), (-4, -3.75), (0.6, -1.1)]


@pytest.mark.parametrize("paper,flip", CASES)
@pytest.mark.parametrize("error", ERRORS)
def test_the_reading_is_the_offset_that_cancels_the_printer(sheets, paper, flip, error):
    """A printer that puts every back `error` mm off (back-page axes) makes the pair labelled
    -error meet: the number the user reads is the offset to type."""
    page = presets.papers()[paper]
    read = reading(sheets[paper, flip], page, flip, error)
    for axis, e in zip("xy", error):
        value, miss, runner_up = read[axis]
        assert abs(value + e) <= 0.125 + 1e-9, (axis, value, e)
        assert miss <= 0.125 + 1e-6
        if float(4 * e).is_integer():   # on the 0.25 mm grid: one pair meets exactly, the rest visibly miss
            assert miss < 1e-3 and value == -e and runner_up >= 0.25 - 1e-3


GAME = "title: Mini\ncode: MIN\npaper: letter\n"
DECK = """name: Cards
template: face
back: {template: back}
fields:
  title: {required: true}
cards:
%s
""" % "\n".join(f"  - {{title: Card{i}}}" for i in range(1, 12))
TOKENS = """name: Tokens
template: token
card_size: [20, 20]
safe: 1
pack: true
back: {template: token-back}
fields:
  title: {required: true}
cards:
  - {title: T, count: 5}
"""
FACE = """size: poker
elements:
  - rect: {w: 63.5, h: 88.9, fill: "#ffeecc", bleed: true}
  - text: {x: 5, y: 5, w: 53.5, h: 10, text: "{{ title }}", size: 12}
"""
BACK = """size: poker
elements:
  - rect: {w: 63.5, h: 88.9, fill: "#ccddff", bleed: true}
"""
TOKEN = """size: [20, 20]
code: false
elements:
  - rect: {w: 20, h: 20, fill: "#ddeeaa", bleed: true}
"""


def mini(root, game=GAME):
    templates = {"face": FACE, "back": BACK, "token": TOKEN, "token-back": TOKEN}
    make_game(root, game, DECK, templates)
    make_game(root, game, TOKENS, templates, deck_id="tokens")
    return Project(root)


def centres(path, size):
    """[(front centres, back centres)] per sheet, points, from each placement's matrix."""
    reader = PdfReader(path)
    w, h = (v * MM for v in size)
    out = []
    for page in range(0, len(reader.pages), 2):
        f = [apply(p.matrix, w / 2, h / 2) for p in page_geometry(reader, page).placements]
        b = [apply(p.matrix, w / 2, h / 2) for p in page_geometry(reader, page + 1).placements]
        assert len(f) == len(b) > 0
        out.append((f, b))
    return out


def built(project, out, **options):
    return {r.id: r.path for r in build_game(project, "mini", Options(out=out, **options))}


def assert_shifted(plain, moved, size, dx, dy):
    for (f0, b0), (f1, b1) in zip(centres(plain, size), centres(moved, size), strict=True):
        assert [c for xy in f1 for c in xy] == pytest.approx([c for xy in f0 for c in xy], abs=1e-3)  # fronts stay
        for (x0, y0), (x1, y1) in zip(b0, b1, strict=True):
            assert (x1 - x0, y1 - y0) == pytest.approx((dx * MM, dy * MM), abs=1e-3)


def test_back_offset_flag_moves_every_back_and_no_front(tmp_path):
    project = mini(tmp_path)
    plain = built(project, tmp_path / "plain")
    run = CliRunner().invoke(main, ["--root", str(tmp_path), "build", "--back-offset", "1,-0.5",
                                    "--out", str(tmp_path / "moved")])
    assert run.exit_code == 0, run.output
    moved = tmp_path / "moved" / "mini"
    assert_shifted(plain["deck"], moved / "deck.pdf", (63.5, 88.9), 1, -0.5)
    assert_shifted(plain["tokens"], moved / "tokens.pdf", (20, 20), 1, -0.5)   # packed tokens too
    pdf = pdfium.PdfDocument(str(moved / "deck.pdf"))
    assert "BACK (shifted +1.00, -0.50 mm)" in pdf[1].get_textpage().get_text_range()
    assert "shifted" not in pdf[0].get_textpage().get_text_range()


@pytest.mark.parametrize("paper,flip", CASES)
@pytest.mark.parametrize("error", [(-0.75, 0.5), (1.25, -2), (0.25, 3)])
def test_building_with_the_reading_puts_backs_behind_fronts(sheets, tmp_path, paper, flip, error):
    """End to end, for both flip edges: read the calibration sheet for a printer `error` mm
    off, build with that reading, print with the same error: each back lands exactly behind
    its own front."""
    page = presets.papers()[paper]
    read = reading(sheets[paper, flip], page, flip, error)
    offset = (read["x"][0], read["y"][0])
    project = mini(tmp_path)
    path = built(project, tmp_path / "out", paper=paper, flip=flip, back_offset=offset)["deck"]
    flip_t = flip_transform((page[0] * MM, page[1] * MM), flip)
    for fronts, backs in centres(path, (63.5, 88.9)):
        for (fx, fy), (bx, by) in zip(fronts, backs):
            assert apply(flip_t, bx + error[0] * MM, by + error[1] * MM) == pytest.approx((fx, fy), abs=1e-3)


def test_game_yaml_back_offset_and_the_flag_overrides_it(tmp_path):
    plain = built(mini(tmp_path / "a"), tmp_path / "a" / "out")["deck"]
    project = mini(tmp_path / "b", GAME + "back_offset: [0.5, 0.25]\n")
    from_yaml = built(project, tmp_path / "b" / "yaml")["deck"]
    assert_shifted(plain, from_yaml, (63.5, 88.9), 0.5, 0.25)
    for flag, (dx, dy) in (("0,0", (0, 0)), ("-2,1.5", (-2, 1.5))):
        out = tmp_path / "b" / flag
        run = CliRunner().invoke(main, ["--root", str(tmp_path / "b"), "build", f"--back-offset={flag}",
                                        "--out", str(out)])
        assert run.exit_code == 0, run.output
        assert_shifted(plain, out / "mini" / "deck.pdf", (63.5, 88.9), dx, dy)
    # a negative first number also works as a separate argument
    run = CliRunner().invoke(main, ["--root", str(tmp_path / "b"), "build", "--back-offset", "-2,1.5",
                                    "--out", str(tmp_path / "b" / "sep")])
    assert run.exit_code == 0, run.output
    assert_shifted(plain, tmp_path / "b" / "sep" / "mini" / "deck.pdf", (63.5, 88.9), -2, 1.5)


@pytest.mark.parametrize("value,message", [
    ("1;2", "is not X,Y"), ("1", "is not X,Y"), ("a,b", "is not X,Y"), ("1,2,3", "is not X,Y"),
    ("11,0", "X = 11 mm is outside -10..10 mm"), ("0,-10.5", "Y = -10.5 mm is outside"),
    ("nan,0", "is not a number"), ("inf,0", "is not a number"),
])
def test_bad_back_offset_flag_is_a_usage_error(tmp_path, value, message):
    project = mini(tmp_path)
    run = CliRunner().invoke(main, ["--root", str(project.root), "build", f"--back-offset={value}",
                                    "--out", str(tmp_path / "out")])
    assert run.exit_code == 2
    assert "--back-offset" in run.output and message in run.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("value,message", [
    ("[20, 0]", "back offset X = 20 mm is outside -10..10 mm"), ("[0, -11]", "Y = -11 mm is outside"),
    ('"1,2"', "expected [x, y] in mm"), ("[1]", "expected [x, y] in mm"), ("[a, 1]", "expected [x, y] in mm"),
    ("[.nan, 0]", "is not a number"),
])
def test_bad_back_offset_in_game_yaml_is_an_input_error(tmp_path, value, message):
    project = mini(tmp_path, GAME + f"back_offset: {value}\n")
    run = CliRunner().invoke(main, ["--root", str(project.root), "build", "--out", str(tmp_path / "out")])
    assert run.exit_code == 2
    assert "game.yaml:4: back_offset: " in run.output and message in run.output, run.output


@pytest.mark.parametrize("paper,flip", CASES)
def test_nothing_inside_the_printer_margin(sheets, paper, flip):
    dpi = 72
    W, H = presets.papers()[paper]
    pdf = pdfium.PdfDocument(str(sheets[paper, flip]))
    m = round(calibrate.MARGIN / 25.4 * dpi) - 1
    for i in range(2):
        image = pdf[i].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
        w, h = image.size
        for box in ((0, 0, w, m), (0, h - m, w, h), (0, 0, m, h), (w - m, 0, w, h)):
            assert image.crop(box).getextrema() == (255, 255), (i, box)
        assert image.getextrema()[0] < 128   # the page is not blank


def test_scales_stay_near_the_middle_of_the_page(sheets):
    """Both scales sit near the page's centre, where a slight skew of the back moves it least."""
    W, H = presets.papers()["letter"]
    pairs, _ = read_pairs(sheets["letter", "long"])
    for axis in "xy":
        xs = [p[0] for _, line in pairs[axis] for p in line]
        ys = [p[1] for _, line in pairs[axis] for p in line]
        assert abs((min(xs) + max(xs)) / 2 - W / 2) < 60 and abs((min(ys) + max(ys)) / 2 - H / 2) < 30


def test_the_sheet_is_byte_identical_and_goes_to_out_by_default(tmp_path):
    first = CliRunner().invoke(main, ["--root", str(tmp_path), "calibrate"])
    assert first.exit_code == 0, first.output
    path = tmp_path / "out" / "calibrate.pdf"
    data = path.read_bytes()
    calibrate.write(tmp_path / "again.pdf")
    assert (tmp_path / "again.pdf").read_bytes() == data
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["calibrate.pdf"]   # no temporary left


def test_parse_offset():
    assert calibrate.parse_offset("0.75,-0.5") == (0.75, -0.5)
    assert calibrate.parse_offset(" -1 , 2 ") == (-1.0, 2.0)
    assert calibrate.parse_offset("10,-10") == (10.0, -10.0)
    with pytest.raises(ValueError, match="not X,Y"):
        calibrate.parse_offset("1 2")
