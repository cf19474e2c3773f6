"""Images and game fonts: drawn from the game folder, stored once in the PDF, embedded."""

from __future__ import annotations

import shutil

from PIL import Image
from pypdf import PdfReader

from pnpgen import fonts
from pnpgen.build import Options, Project, build_game

from .minigame import make_game
from .pdfread import fonts_of, is_embedded

GAME = """title: Assets
code: AST
fonts:
  display: fonts/display.ttf
icons:
  gem: {image: icons/gem.png}
"""
DECK = """name: Deck
template: face
back: {template: back}
fields:
  title: {required: true}
cards:
%s
""" % "\n".join(f"  - {{title: Card {i}, count: 2}}" for i in range(1, 11))
FACE = """size: poker
elements:
  - image: {src: art/forest.png, x: 0, y: 0, w: 63.5, h: 40, bleed: true}
  - text: {x: 5, y: 45, w: 53.5, h: 10, text: "{{ title }} :gem:", font: display, size: 14}
"""
BACK = """size: poker
elements:
  - image: {src: art/forest.png, w: 63.5, h: 88.9, fit: contain}
"""


def test_images_are_stored_once_and_game_fonts_embedded(tmp_path):
    folder = make_game(tmp_path, GAME, DECK, {"face": FACE, "back": BACK})
    (folder / "art").mkdir()
    (folder / "icons").mkdir()
    (folder / "fonts").mkdir()
    Image.new("RGB", (300, 200), (30, 120, 60)).save(folder / "art" / "forest.png")
    Image.new("RGBA", (64, 64), (200, 30, 30, 255)).save(folder / "icons" / "gem.png")
    shutil.copy(fonts.BUILTIN["serif-bold"], folder / "fonts" / "display.ttf")
    result, = build_game(Project(tmp_path), "mini", Options(out=tmp_path / "out"))
    assert result.cards == 20 and not result.warnings
    reader = PdfReader(result.path)
    images = set()

    def walk(resources):
        for ref in ((resources or {}).get("/XObject") or {}).values():
            xobj = ref.get_object()
            if xobj["/Subtype"] == "/Image":
                images.add(ref.idnum)
            elif xobj["/Subtype"] == "/Form":
                walk(xobj.get("/Resources"))

    for page in reader.pages:
        walk(page["/Resources"])
    # the art and the icon, each stored once however many cards use them
    assert len(images) == 2
    names = [str(f["/BaseFont"]) for f in fonts_of(reader)]
    assert any(name.endswith("DejaVuSerifCondensed-Bold") for name in names)
    assert all(is_embedded(f) for f in fonts_of(reader))
