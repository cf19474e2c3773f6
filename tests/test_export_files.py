"""Every export format on every deck shape: a common back, cards' own backs, a mix of both,
single-sided cards, landscape cards, a lone card, more different cards than one Tabletop
Simulator sheet holds, tokens with and without backs, boards with one and two sides (every
bundled game: test_export_bundled.py and test_export_bundled_tts.py, with these checks). Each
file that cards.csv or a TTS saved object names must exist and have the pixel size its card
calls for; each DriveThruCards PDF has a page per face."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from urllib.parse import unquote

import pytest
from PIL import Image
from pypdf import PdfReader

from pnpgen import presets
from pnpgen.build import Project, load
from pnpgen.export import export_game, tts_sheets
from pnpgen.export.faces import deck_faces
from pnpgen.export.formats import FORMATS

from .minigame import make_game
from .test_export_tts import check_saved_object

INCH = 25.4
BASE = "https://example.org/kit/"
SHOPS = list(presets.shops())
PNG_DPI = 60     # low, to keep the test quick: the sizes follow from it all the same


def _rect(fill: str, size=(63.5, 88.9), extra: str = "") -> str:
    w, h = size
    return (f"size: [{w}, {h}]\nelements:\n  - rect: {{x: 0, y: 0, w: {w}, h: {h}, fill: '{fill}', bleed: true}}\n"
            + extra)


TITLE = "  - text: {x: 4, y: 30, w: 50, h: 10, text: '{{ title }}', size: 10}\n"
TEMPLATES = {
    "face": _rect("#2a6f3a", extra=TITLE), "back": _rect("#6a2a2a"), "own-back": _rect("#2a2a6a", extra=TITLE),
    "wide": _rect("#8a6f1d", (88.9, 63.5), TITLE), "wide-back": _rect("#1d6f8a", (88.9, 63.5)),
    "coin": "shape: round\n" + _rect("#d4a017", (20, 20)), "coin-back": "shape: round\n" + _rect("#5a5a5a", (20, 20)),
    "chit": _rect("#a01717", (15, 25)), "mat": _rect("#1d5c8a", (200, 150)), "mat-b": _rect("#8a5c1d", (200, 150)),
}
FIELDS = "fields:\n  title: {required: true}\n"


def _cards(n: int, extra=lambda i: "") -> str:
    return "cards:\n" + "".join(f"  - {{title: Card {i}, count: {1 + i % 2}{extra(i)}}}\n" for i in range(n))


DECKS = {
    "common": "name: Common back\ntemplate: face\nback: {template: back}\n" + FIELDS + _cards(5),
    "own": "name: Own backs\ntemplate: face\nback: {template: own-back, per_card: true}\n" + FIELDS + _cards(4),
    "mixed": "name: Mixed backs\ntemplate: face\nback: {template: back}\n" + FIELDS
             + _cards(6, lambda i: ", back: own-back" if i % 3 == 0 else ""),
    "single": "name: Single-sided\ntemplate: face\n" + FIELDS + _cards(3),
    "wide": "name: Landscape\ncard_size: [88.9, 63.5]\ntemplate: wide\nback: {template: wide-back}\n" + FIELDS
            + _cards(16),
    "lone": "name: Lone card\ntemplate: face\nback: {template: back}\n" + FIELDS + "cards:\n  - {title: Only}\n",
    "many": "name: Many\ntemplate: face\nback: {template: back}\n" + FIELDS + _cards(75),
    "tokens": "name: Tokens\npack: true\ntemplate: coin\n" + FIELDS
              + "cards:\n  - {title: Gold, count: 3, back: coin-back}\n  - {title: Copper, count: 2}\n"
                "  - {title: Chit, template: chit, count: 4}\n",
}


def shapes_game(root: Path):
    """A game with a deck of every shape and two boards (one two-sided)."""
    folder = make_game(root, "title: Shapes\ncode: SH\n", DECKS["common"], TEMPLATES, game_id="shapes",
                       deck_id="common")
    for deck_id, text in DECKS.items():
        (folder / "decks" / f"{deck_id}.yaml").write_text(text)
    (folder / "boards").mkdir()
    (folder / "boards" / "mat.yaml").write_text("name: Play mat\nsize: [200, 150]\ntemplate: mat\nback: mat-b\n")
    (folder / "boards" / "plain.yaml").write_text("name: Plain mat\nsize: [200, 150]\ntemplate: mat\n")
    return load(Project(root), "shapes")


@pytest.fixture(scope="module")
def shapes(tmp_path_factory):
    """The shapes game and export(FORMAT) -> its folder, each format exported once, when a
    test first asks for it (each format's tests run on whichever worker, exporting only it)."""
    root = tmp_path_factory.mktemp("shapes")
    game, folders = shapes_game(root), {}

    def export(fmt: str) -> Path:
        if fmt not in folders:
            url_base = BASE if fmt == "tts" else None
            folders[fmt] = export_game(game, fmt, root / "out", dpi=PNG_DPI, url_base=url_base).folder
        return folders[fmt]
    return game, export


# --- checks shared with the bundled games ---------------------------------------------------

def sizes_by_code(game) -> dict[str, dict[str, tuple[float, float]]]:
    """{deck id: {card code: trim mm}} from the game's own faces."""
    return {d.id: {f.code: f.size for f in d.fronts} for d in deck_faces(game, boards=True)}


def csv_rows(path: Path) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def check_png(game, folder: Path, dpi: float) -> int:
    """Every file cards.csv names exists, at trim + 2 x bleed at `dpi`; returns the files checked."""
    bleed, checked = game.game.bleed, 0
    for board in (d for d in deck_faces(game, boards=True) if d.kind == "board"):    # at most 150 DPI
        for face in board.faces():
            with Image.open(folder / "boards" / f"{board.id}-{face.code}.png") as im:
                assert im.size == tuple(round((t + 2 * bleed) / INCH * min(dpi, 150)) for t in face.size)
            checked += 1
    for deck_id, sizes in sizes_by_code(game).items():
        if not (folder / deck_id / "cards.csv").exists():
            continue
        rows = csv_rows(folder / deck_id / "cards.csv")
        assert [r["code"] for r in rows] == list(sizes), deck_id
        for row in rows:
            w, h = sizes[row["code"]]
            for name in filter(None, (row["front"], row["back"])):
                with Image.open(folder / deck_id / name) as im:
                    assert im.size == (round((w + 2 * bleed) / INCH * dpi), round((h + 2 * bleed) / INCH * dpi)), name
                checked += 1
    return checked


def check_shop(game, folder: Path, fmt: str) -> int:
    """Images at the shop's size (trim x DPI + its bleed), or DriveThruCards pages: a front and a
    back page for every copy of every card."""
    shop, checked = presets.shops()[fmt], 0
    for deck in deck_faces(game):
        if not (folder / deck.id).exists():
            continue
        w, h = deck.fronts[0].size
        if shop["format"] == "pdf":
            pages = PdfReader(folder / deck.id / f"{deck.id}.pdf").pages
            assert len(pages) == 2 * sum(front.count for front in deck.fronts), deck.id
            for page in pages:
                size = (float(page.mediabox.width), float(page.mediabox.height))
                assert size == pytest.approx(((w / INCH + 0.25) * 72, (h / INCH + 0.25) * 72), abs=0.05)
            checked += len(pages)
            continue
        expected = tuple(round(t / INCH * shop["dpi"] + 2 * shop["bleed_px"]) for t in (w, h))
        for row in csv_rows(folder / deck.id / "cards.csv"):
            assert row["front"], row
            for name in filter(None, (row["front"], row["back"])):
                with Image.open(folder / deck.id / name) as im:
                    assert im.size == expected and im.mode == "RGB", name
                checked += 1
    return checked


def local(url: str, folder: Path) -> Path:
    assert url.startswith(BASE), url
    return folder / unquote(url[len(BASE):])


def check_tts(game, folder: Path) -> int:
    """Each image a saved object names exists: face sheets of NumWidth x NumHeight cards in
    the cards' proportions within 4096 px, back sheets alike, tokens at their trim at
    tts_sheets.DPI (300), boards in their proportions."""
    checked = 0
    for deck in deck_faces(game, boards=True):
        states = json.loads((folder / f"{deck.id}.json").read_text(encoding="utf-8"))["ObjectStates"]
        for state in states:
            checked += _check_state(state, deck, folder)
    return checked


def _check_state(state: dict, deck, folder: Path) -> int:
    if state["Name"] == "Custom_Board":
        w, h = deck.fronts[0].size
        with Image.open(local(state["CustomImage"]["ImageURL"], folder)) as im:
            assert max(im.size) <= 4096 and abs(im.width / im.height - w / h) < 0.01
        return 1
    if state["Name"] == "Bag":
        checked = 0
        sizes = {f.code: f.size for f in deck.fronts}
        for token in state["ContainedObjects"]:
            w, h = sizes[token["Description"]]
            for url in filter(None, (token["CustomImage"]["ImageURL"], token["CustomImage"]["ImageSecondaryURL"])):
                with Image.open(local(url, folder)) as im:
                    assert im.size == (int(w / INCH * tts_sheets.DPI), int(h / INCH * tts_sheets.DPI)), url
                checked += 1
        return checked
    w, h = deck.fronts[0].size
    checked = 0
    for entry in (state["CustomDeck"].values()):
        cols, rows = entry["NumWidth"], entry["NumHeight"]
        with Image.open(local(entry["FaceURL"], folder)) as im:
            assert im.width <= 4096 and im.height <= 4096 and im.width % cols == 0 and im.height % rows == 0
            card = (im.width // cols, im.height // rows)
            assert abs(card[0] / card[1] - w / h) < 0.01, entry["FaceURL"]
        with Image.open(local(entry["BackURL"], folder)) as back:
            if entry["UniqueBack"]:
                assert back.size == (card[0] * cols, card[1] * rows)
            else:
                assert abs(back.width / back.height - w / h) < 0.01 and back.width <= 4096
        checked += 2
    return checked


# --- the shapes game --------------------------------------------------------------------------

def test_png_of_every_deck_shape_names_only_files_it_wrote(shapes):
    game, export = shapes
    folders = {"png": export("png")}
    # a front for every card; a back for every card but the 3 single-sided ones and 2 of the tokens
    # a front for every card; a back for every card but the 3 single-sided ones and 2 of the tokens;
    # three sides of boards
    assert check_png(game, folders["png"], PNG_DPI) == 2 * (5 + 4 + 6 + 3 + 16 + 1 + 75 + 3) - 3 - 2 + 3
    rows = {r["code"]: r for r in csv_rows(folders["png"] / "mixed" / "cards.csv")}
    own = [code for code, r in rows.items() if r["back"] == f"{code}-back.png"]
    assert len(own) == 2 and all(r["back"] in (f"{c}-back.png", "back-back.png") for c, r in rows.items())
    assert all(r["back"] == "" for r in csv_rows(folders["png"] / "single" / "cards.csv"))
    tokens = csv_rows(folders["png"] / "tokens" / "cards.csv")
    assert [bool(r["back"]) for r in tokens] == [True, False, False]
    for side in ("a", "b"):
        assert (folders["png"] / "boards" / f"mat-{side}.png").exists()
    assert sorted(p.name for p in (folders["png"] / "boards").iterdir()) == ["mat-a.png", "mat-b.png", "plain-a.png"]


@pytest.mark.parametrize("fmt", SHOPS)
def test_every_shop_export_of_every_deck_shape_has_its_sizes(shapes, fmt):
    game, export = shapes
    folders = {fmt: export(fmt)}
    assert check_shop(game, folders[fmt], fmt) > 0
    exported = sorted(p.name for p in folders[fmt].iterdir())
    assert exported == ["common", "lone", "many", "mixed", "own", "single", "wide"]     # no tokens, no boards
    if presets.shops()[fmt]["format"] == "png":
        rows = csv_rows(folders[fmt] / "mixed" / "cards.csv")
        assert sorted({r["back"].split("/")[0] for r in rows}) == ["back.png", "backs"]


def test_tts_of_every_deck_shape_names_only_files_it_wrote(shapes):
    game, export = shapes
    folders = {"tts": export("tts")}
    assert check_tts(game, folders["tts"]) > 0
    named = set()
    for path in folders["tts"].glob("*.json"):
        named |= {local(u, folders["tts"]).name for u in _urls(json.loads(path.read_text()))}
    assert named == {p.name for p in folders["tts"].glob("*.png")}     # and every image is named


def test_png_faces_are_compressed_fast_and_tts_images_small(shapes):
    _, export = shapes
    faces = [p for fmt in ("png", *(f for f in SHOPS if presets.shops()[f]["format"] == "png"))
             for p in sorted(export(fmt).rglob("*.png"))]
    sheets = sorted(export("tts").glob("*.png"))
    assert len(faces) > 100 and len(sheets) > 5
    assert {zlib_level(p) for p in faces} == {1}       # levels 2 to 5 (6, Pillow's default, says 2)
    assert {zlib_level(p) for p in sheets} == {2}      # sheets and tokens: every player downloads them


def zlib_level(png: Path) -> int:
    """The compression level a PNG's zlib stream declares (FLEVEL of its first IDAT chunk:
    0 fastest, 1 fast, 2 default, 3 smallest)."""
    data = png.read_bytes()
    return data[data.index(b"IDAT") + 5] >> 6       # (the stream's second byte, FLG)


def _urls(value) -> list[str]:
    if isinstance(value, dict):
        return [u for k, v in value.items() for u in ([v] if k.endswith("URL") and v else _urls(v))]
    if isinstance(value, list):
        return [u for v in value for u in _urls(v)]
    return []
