"""The preview shows a hex or polygon tile as it is cut: its thumbnail and its full-size face
are clipped to the tile's outline and transparent outside it, as `pnpgen export png` draws
them; a rectangular card stays an opaque rectangle. Read back from the PNGs the preview
serves (its state and its face images, in-process)."""

from __future__ import annotations

import io
import json
import math

from PIL import Image
from shapely.geometry import Point, Polygon

from pnpgen.build import Project
from pnpgen.game.outline import outline
from pnpgen.preview.live import Live

from .minigame import make_game

W = 50.0
H = round(2 * W / math.sqrt(3), 3)       # a pointy hex 50 mm across its flats
BLEED = 3.0
GAME = f"title: Shapes\ncode: SH\nbleed: {BLEED}\n"
TILES = """name: Tiles
template: hex
pack: true
fields: {color: {}}
cards:
  - {color: "#2e7d32"}
  - {color: "#b5542a", template: tri}
"""
HEX = f"""size: [{W}, {H}]
shape: hex-pointy
code: false
elements:
  - rect: {{w: {W}, h: {H}, fill: "{{{{ color }}}}", bleed: true}}
"""
TRIANGLE = [[0, 40], [20, 0], [40, 40]]
TRI = f"""size: [40, 40]
shape: polygon
points: {TRIANGLE}
code: false
elements:
  - rect: {{w: 40, h: 40, fill: "{{{{ color }}}}", bleed: true}}
"""
CARD = """size: poker
code: false
elements:
  - rect: {w: 63.5, h: 88.9, fill: "#204080", bleed: true}
"""
CARDS = "name: Cards\ntemplate: card\ncards:\n  - {count: 1}\n"


def live_preview(tmp_path) -> tuple[Live, dict[str, list]]:
    make_game(tmp_path, GAME, TILES, {"hex": HEX, "tri": TRI, "card": CARD}, game_id="sh", deck_id="tiles")
    (tmp_path / "cards" / "sh" / "decks" / "cards.yaml").write_text(CARDS)
    live = Live(Project(tmp_path))
    live.refresh()
    state = json.loads(live.state_json())
    (game,) = state["games"]
    assert not game["errors"], game["errors"]
    return live, {d["id"]: d["cards"] for d in game["decks"]}


def picture(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGBA")


def alpha_agrees_with(image: Image.Image, shape: Polygon, box: tuple[float, float], margin: float) -> int:
    """Check every 7th pixel: opaque inside `shape` (mm, in a `box` mm picture), transparent
    outside it, pixels within `margin` mm of the outline skipped (anti-aliasing); returns how
    many pixels were checked."""
    w, h = image.size
    checked = 0
    for py in range(0, h, 7):
        for px in range(0, w, 7):
            where = Point((px + 0.5) * box[0] / w, (py + 0.5) * box[1] / h)
            if shape.exterior.distance(where) < margin:
                continue
            alpha = image.getpixel((px, py))[3]
            assert alpha == (255 if shape.contains(where) else 0), (px, py, alpha)
            checked += 1
    return checked


def test_a_hex_tile_is_shown_clipped_to_its_hexagon(tmp_path):
    live, cards = live_preview(tmp_path)
    face = cards["tiles"][0]["front"]
    assert face["shape"] == "hex-pointy"
    hexagon = Polygon(outline("hex-pointy", (W, H)))
    thumb = picture(live.image("sh", face["digest"], full=False))
    assert thumb.size == (round(W / 25.4 * 100), round(H / 25.4 * 100))
    assert alpha_agrees_with(thumb, hexagon, (W, H), 0.6) > 300
    assert thumb.getpixel((thumb.width // 2, thumb.height // 2)) == (0x2e, 0x7d, 0x32, 255)
    # opened at print resolution: the hexagon grown by the bleed (corners mitred), nothing beyond
    full = picture(live.image("sh", face["digest"], full=True))
    grown = Polygon([(x + BLEED, y + BLEED) for x, y in hexagon.exterior.coords]).buffer(BLEED, join_style="mitre")
    box = (W + 2 * BLEED, H + 2 * BLEED)
    assert alpha_agrees_with(full, grown.intersection(Polygon([(0, 0), (box[0], 0), box, (0, box[1])])), box, 0.3) > 3000


def test_a_polygon_tile_is_shown_clipped_to_its_points(tmp_path):
    live, cards = live_preview(tmp_path)
    face = cards["tiles"][1]["front"]
    assert face["shape"] == "polygon"
    thumb = picture(live.image("sh", face["digest"], full=False))
    assert alpha_agrees_with(thumb, Polygon(TRIANGLE), (40, 40), 0.6) > 150
    assert thumb.getpixel((thumb.width // 2, thumb.height - 10)) == (0xb5, 0x54, 0x2a, 255)


def test_a_rectangular_card_stays_an_opaque_rectangle(tmp_path):
    live, cards = live_preview(tmp_path)
    face = cards["cards"][0]["front"]
    assert face["shape"] == "rect"
    thumb = Image.open(io.BytesIO(live.image("sh", face["digest"], full=False)))
    assert thumb.mode == "RGB" and thumb.getpixel((1, 1)) == (0x20, 0x40, 0x80)
