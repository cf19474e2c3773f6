"""Boards larger than the paper: tiling geometry (pure), poster pages, and the built PDFs."""

from __future__ import annotations


import pytest
from pypdf import PdfReader

from pnpgen import presets
from pnpgen.build import Options, build_game
from pnpgen.errors import InputError
from pnpgen.sheets.tile import FRAME, LABEL_ROOM, poster, tile

from .pdfread import fonts_of, is_embedded, page_texts

PAPERS = presets.papers()


def _to_board(place, x, y):
    """Page mm -> board mm (place is a translation with y flipped)."""
    a, b, c, d, e, f = place
    return (x - e) / a, (y - f) / d


@pytest.mark.parametrize("paper,board,overlap", [
    ("letter", (490, 330), 12), ("a4", (490, 330), 12), ("letter", (330, 300), 10), ("a4", (600, 420), 15),
    ("letter", (180, 240), 12)])
def test_tiles_cover_the_board_with_the_overlap_asked_for(paper, board, overlap):
    margin, bleed = 5, 3.175
    layout = tile(PAPERS[paper], board, bleed, margin, overlap)
    W, H = layout.page
    assert len(layout.tiles) == layout.cols * layout.rows
    m = bleed + FRAME
    for t in layout.tiles:
        x, y, w, h = t.clip   # everything printed sits inside the printable page
        assert x >= margin - 1e-9 and x + w <= W - margin + 1e-9
        assert y >= margin + LABEL_ROOM - 1e-9 and y + h <= H - margin + 1e-9
        wx, wy, ww, wh = t.window
        assert (ww, wh) == pytest.approx((w, h))
    # the union of windows covers the board, its bleed and the frame for marks
    xs = sorted({t.window[0] for t in layout.tiles})
    ys = sorted({t.window[1] for t in layout.tiles})
    first, last = layout.tiles[0].window, layout.tiles[-1].window
    assert first[0] <= -m + 1e-9 and first[1] <= -m + 1e-9
    assert last[0] + last[2] >= board[0] + m - 1e-9 and last[1] + last[3] >= board[1] + m - 1e-9
    # neighbours overlap by at least `overlap` (the first page of a row or column may reach further)
    for a, b in zip(xs, xs[1:]):
        assert a + first[2] - b >= overlap - 1e-9
    for a, b in zip(ys, ys[1:]):
        assert a + first[3] - b >= overlap - 1e-9


def test_cut_lines_and_alignment_marks_meet_across_each_seam():
    layout = tile(PAPERS["letter"], (490, 330), 3.175, 5, 12)
    assert (layout.cols, layout.rows) == (2, 2) and layout.page[0] > layout.page[1]  # landscape: 4 pages
    by_pos = {(t.col, t.row): t for t in layout.tiles}
    for (c, r), t in by_pos.items():
        # a cut line along the middle of every overlap on the tile's left and top
        assert len(t.cuts) == (c > 0) + (r > 0)
        for (x0, y0), (x1, y1) in t.cuts:
            bx, by = _to_board(t.place, x0, y0)
            if x0 == x1:
                assert bx == pytest.approx(t.window[0] + 6) == pytest.approx(layout.cuts_x[c - 1])
            else:
                assert by == pytest.approx(t.window[1] + 6) == pytest.approx(layout.cuts_y[r - 1])
    # at each seam the page underneath has a line ending at the cut, in the part left in sight,
    # and the page laid over it a line starting at its cut edge: one line once laid together
    _marks_meet_across_seams(layout)


def _seam_lines(tile_, axis):
    """The tile's seam lines (5 mm, along `axis`), board mm, as ((start, end), across)."""
    out = []
    i, j = (0, 1) if axis == "x" else (1, 0)
    for (x0, y0), (x1, y1) in tile_.marks:
        a, b = _to_board(tile_.place, x0, y0), _to_board(tile_.place, x1, y1)
        if abs(a[j] - b[j]) < 1e-9 and abs(abs(a[i] - b[i]) - 5) < 1e-9:
            out.append((tuple(sorted((a[i], b[i]))), round(a[j], 6)))
    return out


def _marks_meet_across_seams(layout):
    by_pos = {(t.col, t.row): t for t in layout.tiles}
    seams = [("x", i, x) for i, x in enumerate(layout.cuts_x)] + [("y", i, y) for i, y in enumerate(layout.cuts_y)]
    assert seams
    pairs = 0
    for axis, i, at in seams:
        for (c, r), under in by_pos.items():
            if (axis == "x" and c != i) or (axis == "y" and r != i):
                continue
            over = by_pos[(c + 1, r) if axis == "x" else (c, r + 1)]
            under_lines = [(s, a) for s, a in _seam_lines(under, axis) if s[1] == pytest.approx(at)]
            over_lines = [(s, a) for s, a in _seam_lines(over, axis) if s[0] == pytest.approx(at)]
            assert sorted(a for _, a in under_lines) == sorted(a for _, a in over_lines)   # they run on as one
            start = under.window[0] if axis == "x" else under.window[1]
            assert all(s[0] >= start and s[1] <= at + 1e-9 for s, _ in under_lines)   # in sight, before the cut
            assert all(s[0] >= at - 1e-9 for s, _ in over_lines)                      # kept, after the cut
            pairs += len(under_lines)
    assert pairs >= 2 * len(seams)      # two a seam at least: one in each outer frame it crosses


def test_a_poster_puts_the_board_whole_on_one_page_or_says_it_cannot():
    layout = poster(PAPERS["a2"], (490, 330), 3.175, 5)
    (only,) = layout.tiles
    W, H = layout.page
    x, y, w, h = only.clip
    assert x >= 5 and y >= 5 and x + w <= W - 5 and y + h <= H - 5
    # crop marks at the four corners of the trim, outside the bleed
    corners = {(round(p[0], 6), round(p[1], 6)) for m in only.marks for p in m}
    ax, ay = only.place[4], only.place[5]
    for cx, cy in ((ax, ay), (ax + 490, ay), (ax, ay - 330), (ax + 490, ay - 330)):
        assert any(abs(px - cx) < 1e-6 or abs(py - cy) < 1e-6 for px, py in corners)
    with pytest.raises(InputError, match="choose a larger --poster size"):
        poster(PAPERS["a3"], (490, 330), 3.175, 5)


def test_the_playmat_builds_as_tiles_of_vector_art_with_embedded_fonts(built):
    (mat,) = [r for r in built["swamp-monsters"] if r.id == "swamp"]
    reader = PdfReader(mat.path)
    assert len(reader.pages) == 1 + 4   # the assembly page and 2 x 2 tiles
    texts = page_texts(mat.path)
    assert "assembly" in texts[0]
    for label in ("A1", "B1", "A2", "B2"):
        assert any(f"page {label} (column {label[0]} of 2, row {label[1]} of 2)" in t for t in texts[1:]), label
    for font in fonts_of(reader):
        assert is_embedded(font)
    # the board is one form, drawn once and shown by every page; no raster images in it
    forms = set()
    for page in reader.pages:
        xobjects = page["/Resources"]["/XObject"]
        forms |= {k for k in xobjects if "board" in k}
        for v in xobjects.values():
            assert v.get_object().get("/Subtype") != "/Image"
    assert forms == {"/FormXob.board:swamp:a"}


def test_poster_option_writes_the_board_on_one_page(project, tmp_path):
    results = build_game(project, "swamp-monsters", Options(out=tmp_path, poster="a2", rulebook=False))
    (mat,) = [r for r in results if r.id == "swamp"]
    reader = PdfReader(mat.path)
    assert len(reader.pages) == 1
    w, h = (float(v) / 72 * 25.4 for v in reader.pages[0].mediabox[2:])
    assert sorted((round(w), round(h))) == [420, 594]


def test_a_board_template_error_names_the_board(project, tmp_path):
    import shutil
    for part in ("cards", "templates"):
        shutil.copytree(project.root / part, tmp_path / part)
    path = tmp_path / "templates" / "swamp-monsters" / "playmat.yaml"
    path.write_text(path.read_text().replace("fill: water, bleed: true", "fill: \"{{ watr }}\", bleed: true"))
    from pnpgen.build import Project
    with pytest.raises(InputError, match=r"playmat.yaml:\d+: elements\[0\]: undefined name 'watr'"):
        build_game(Project(tmp_path), "swamp-monsters", Options(out=tmp_path / "out"))
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))


def _hex_ops(project, seed=None):
    from pnpgen import ops
    from pnpgen.layout.boards import board_card
    from pnpgen.build import load
    from pnpgen.layout.layouter import Layouter
    game = load(project, "swarm")
    (board,) = game.boards
    card = board_card(board, seed)
    layouter = Layouter(game, board)
    body = [inner for op in layouter.layout(card, card.front)
            for inner in (layouter.forms[op.name].body if isinstance(op, ops.Form) else [op])]
    return card.entry.fields, body


def test_the_swarm_board_draws_every_hex_once_with_its_terrain(project):
    """100 filled hexes, each shared edge stroked once, terrain numbers matching the map, four
    start rings; all vector."""
    from pnpgen.maps import hexmap
    from pnpgen import ops
    fields, body = _hex_ops(project)
    grid = hexmap.parse(fields["hexes"])
    filled = [op for op in body if isinstance(op, ops.Path) and op.closed and op.paint.fill is not None]
    edges = [op for op in body if isinstance(op, ops.Path) and not op.closed]
    rings = [op for op in body if isinstance(op, ops.Path) and op.closed and op.paint.fill is None]
    assert len(filled) == grid.cols * grid.rows == 100
    # edges of a 10 x 10 flat-topped board: 3 per hex plus the open outline, each once
    unique = {tuple(sorted((tuple(round(v, 3) for v in a), tuple(round(v, 3) for v in b)))) for a, b in
              (op.points for op in edges)}
    assert len(unique) == len(edges)
    assert len(rings) == 4
    numbers = [op.lines[0][2][0].text for op in body if isinstance(op, ops.Text) and op.lines[0][0] < 300
               and op.lines[0][2][0].text.isdigit() and len(op.lines[0][2][0].text) == 1]   # the map, not the legend
    assert sorted(numbers) == sorted(c for row in grid.cells for c in row)


def test_a_seed_gives_the_same_board_and_another_seed_another(project):
    a, _ = _hex_ops(project)
    b, _ = _hex_ops(project)
    c, _ = _hex_ops(project, seed=7)
    assert a["hexes"] == b["hexes"] and a["seed"] == 21
    assert c["hexes"] != a["hexes"] and c["seed"] == 7


def test_the_seed_is_printed_on_the_board(project, tmp_path):
    results = build_game(project, "swarm", Options(out=tmp_path, seed=7, rulebook=False))
    (board,) = [r for r in results if r.id == "board"]
    text = "".join(page_texts(board.path))
    assert "board from seed 7" in text


def test_counters_are_packed_discs_bled_and_cut_round(built, project):
    """The Swarm counters: 300 discs of 16 mm; on the page, the bleed ring round each disc
    carries its colour, while the corner of its square beyond the ring stays paper."""
    import math

    import pypdfium2 as pdfium

    from pnpgen.build import load
    from pnpgen.sheets.impose import pack
    (counters,) = [r for r in built["swarm"] if r.id == "counters"]
    assert counters.cards == 300 and counters.sheets == len(PdfReader(counters.path).pages) // 2
    game = load(project, "swarm")
    sheets = pack(PAPERS["letter"], [(16, 16)] * 300, ["round"] * 300, 3.175, 5)
    assert len(sheets) == counters.sheets
    image = pdfium.PdfDocument(str(counters.path))[0].render(scale=150 / 72).to_pil().convert("RGB")
    H = PAPERS["letter"][1]

    def px(x, y):
        return image.getpixel((round(x / 25.4 * 150), round((H - y) / 25.4 * 150)))
    red = tuple(int(game.game.colors["player1"][i:i + 2], 16) for i in (1, 3, 5))
    for slot in sheets[0].fronts[:10]:
        x, y, w, h = slot.trim
        cx, cy = x + w / 2, y + h / 2
        ring = (cx + (8 + 1.6) * math.cos(math.radians(30)), cy + (8 + 1.6) * math.sin(math.radians(30)))
        corner = (x - 2.5, y - 2.5)   # inside the square bleed box, outside the disc's bleed
        assert px(*ring) == pytest.approx(red, abs=12)
        assert px(*corner) == (255, 255, 255)


def test_a_fold_over_standee_shows_the_figure_upright_on_both_panels(project):
    """The standee's figure is drawn twice: as the back panel, and turned 180 degrees about
    the middle fold as the front panel, so each panel mirrors the other through the fold's
    centre; the three fold lines run across at the panel joins."""
    from pnpgen import ops
    from pnpgen.build import load
    from pnpgen.game.expand import assign_numbers, expand
    from pnpgen.layout.layouter import Layouter
    game = load(project, "swamp-fox")
    deck = next(d for d in game.decks if d.id == "soldiers")
    layouter = Layouter(game, deck)
    card = expand(game, deck, assign_numbers(game))[0]
    body = [inner for op in layouter.layout(card, card.front)
            for inner in (layouter.forms[op.name].body if isinstance(op, ops.Form) else [op])]
    groups = [op for op in body if isinstance(op, ops.Group)]
    assert len(groups) == 2
    back, front = groups
    assert back.transform == pytest.approx((1, 0, 0, 1, 0, 49.5))
    assert front.transform == pytest.approx((-1, 0, 0, -1, 15, 49.5), abs=1e-9)   # turned about (7.5, 49.5)
    assert back.body == front.body   # the same figure

    def apply(t, x, y):
        a, b, c, d, e, f = t
        return a * x + c * y + e, b * x + d * y + f
    # a point of the figure lands at mirror positions through the middle of the fold
    for u, v in ((3, 5), (7.5, 37.6), (13, 30)):
        (bx, by), (fx, fy) = apply(back.transform, u, v), apply(front.transform, u, v)
        assert ((bx + fx) / 2, (by + fy) / 2) == pytest.approx((7.5, 49.5))
        assert 49.5 <= by <= 94.5 and 4.5 <= fy <= 49.5
    folds = sorted(op.points[0][1] for op in body if isinstance(op, ops.Path) and not op.closed
                   and op.points[0][1] == op.points[1][1] and op.paint.dash)
    assert folds == [4.5, 49.5, 94.5]


def test_island_rules_catch_a_space_cut_off_by_pits(project, tmp_path):
    """BM-20 reads the board file's map: pits round a corner cut A1 off from the X."""
    import shutil

    from pnpgen.build import Project, load
    from pnpgen.rules.ruleset import check_game
    for part in ("cards", "templates"):
        shutil.copytree(project.root / part, tmp_path / part)
    path = tmp_path / "cards" / "bad-maps" / "boards" / "island.yaml"
    text = path.read_text()
    assert '  cells: [". . . . . . . . .",\n          ". r' in text
    text = text.replace('  cells: [". . . . . . . . .",\n          ". r', '  cells: [". P . . . . . . .",\n          "P r', 1)
    path.write_text(text)
    report = check_game(load(Project(tmp_path), "bad-maps"))
    (v,) = [v for v in report.errors if v.rule == "BM-20"]
    assert "cannot reach X" in v.message and "A1" in v.message
    assert v.path.endswith("boards/island.yaml") and v.line == text[:text.index("  cells:")].count("\n") + 1


def test_every_playmat_zone_holds_a_card(project):
    """SMT-18: the Swamp has 4 front-row and 3 back-row spaces, the Champion, Deck, Discard/
    Jail, Utility, Event / Gambit, Capitol and the Bank, each at least a poker card's size
    under its name band; the front-row and Champion spaces take a card turned sideways too
    (88.9 mm both ways), as a Persona's status needs."""
    from pnpgen import ops
    from pnpgen.layout.boards import board_card
    from pnpgen.build import load
    from pnpgen.layout.layouter import Layouter
    game = load(project, "swamp-monsters")
    (board,) = game.boards
    card = board_card(board)
    layouter = Layouter(game, board)
    body = [inner for op in layouter.layout(card, card.front)
            for inner in (layouter.forms[op.name].body if isinstance(op, ops.Form) else [op])]
    labels = [op for op in body if isinstance(op, ops.Text)]
    names = [op.lines[0][2][0].text for op in labels]
    for zone, n in (("FRONT ROW", 4), ("BACK ROW", 3), ("CHAMPION", 1), ("DECK", 1), ("DISCARD / JAIL", 1),
                    ("UTILITY", 1), ("EVENT / GAMBIT", 1), ("CAPITOL", 1), ("BANK", 1)):
        assert names.count(zone) == n, zone
    paper = layouter.res.color("paper")
    rects = [op for op in body if isinstance(op, ops.Rect)]
    panels = [op for op in rects if op.paint.fill == paper and op.paint.stroke is not None]
    assert len(panels) >= 14

    def room(label):
        """The (w, h) a card has in the panel a name band sits on: the panel less its band."""
        y_label = label.lines[0][1]
        (panel,) = [p for p in panels if p.x <= label.cx <= p.x + p.w and p.y <= y_label <= p.y + 8]
        (band,) = [b for b in rects if (b.x, b.y, b.w) == (panel.x, panel.y, panel.w) and b.h < panel.h
                   and b.paint.fill != paper]
        return panel.w, panel.h - band.h
    for label, name in zip(labels, names):
        if name in ("FRONT ROW", "BACK ROW", "CHAMPION", "DECK", "DISCARD / JAIL", "UTILITY", "EVENT / GAMBIT",
                    "CAPITOL"):
            w, h = room(label)
            assert w >= 63.5 and h >= 88.9, (name, w, h)
            if name in ("FRONT ROW", "CHAMPION"):
                assert min(w, h) >= 88.9 + 4, (name, w, h)   # turned sideways, with room to place it


FIXED_GAME = """title: Fixed
code: FIX
colors: {a: "#ddeecc", b: "#99bbdd"}
"""
FIXED_DECK = "name: D\ntemplate: face\nfields:\n  title: {}\ncards:\n  - {title: A}\n"
FIXED_FACE = "size: poker\nelements:\n  - rect: {w: 63.5, h: 88.9, fill: a, bleed: true}\n"
FIXED_BOARD = """name: Fixed board
size: [120, 100]
template: hexes
fields:
  hexes: ["1 5 1", "5 1 5", "1 1 1"]
"""
FIXED_HEXES = """size: [120, 100]
code: false
elements:
  - hexgrid:
      cells: "{{ hexes }}"
      across: 20
      x: 10
      y: 10
      terrain: {"1": {fill: a}, "5": {fill: b}}
"""


def test_a_fixed_hex_map_from_the_board_file(tmp_path):
    """A designer's own map, rows of codes in the board's fields, is drawn hex for hex; a code
    the template does not know is an error at the template's line naming the card's file."""
    from pnpgen.build import Project
    from .minigame import make_game
    folder = make_game(tmp_path, FIXED_GAME, FIXED_DECK, {"face": FIXED_FACE, "hexes": FIXED_HEXES})
    (folder / "boards").mkdir()
    (folder / "boards" / "fixed.yaml").write_text(FIXED_BOARD)
    results = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out"))
    (board,) = [r for r in results if r.id == "fixed"]
    assert board.path.is_file() and board.pages >= 1
    (folder / "boards" / "fixed.yaml").write_text(FIXED_BOARD.replace('"1 1 1"', '"1 1 7"'))
    with pytest.raises(InputError, match=r"hexes.yaml:\d+: elements\[0\]: hexes: .*7"):
        build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out2"))
