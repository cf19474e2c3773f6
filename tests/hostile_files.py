"""Damaged image and font files, made from good ones (cut short, bytes flipped, sizes in the
header that the data does not have, a character map that claims millions of characters), and
a small game that uses one of each: shared by tests/test_hostile.py and tools/fuzz.py, which
runs the same mutations longer."""

from __future__ import annotations

import random
import shutil
import struct
import zlib
from pathlib import Path

from PIL import Image

from pnpgen import fonts

from .minigame import make_game

GAME = """title: Hostile
code: HOS
fonts:
  display: fonts/display.ttf
icons:
  gem: {image: icons/gem.png}
"""
DECK = """name: Deck
template: face
fields:
  title: {required: true}
cards:
  - {title: Alpha}
  - {title: Beta}
"""
FACE = """size: poker
elements:
  - image: {src: art/a.png, x: 0, y: 0, w: 63.5, h: 40}
  - image: {src: art/b.jpg, x: 0, y: 40, w: 63.5, h: 30}
  - text: {x: 5, y: 72, w: 53.5, h: 10, text: "{{ title }} :gem:", font: display, size: 12}
"""
RULEBOOK = "# Rules\n\nDraw a card.\n"
FILES = ("art/a.png", "art/b.jpg", "fonts/display.ttf", "icons/gem.png")
"""The game's image and font files, relative to its folder: what the mutators are applied to."""


def hostile_game(root: Path) -> Path:
    """A game `mini` under root/cards/ with two images, an icon, a font of its own and a rulebook
    (all good); returns its folder."""
    folder = make_game(root, GAME, DECK, {"face": FACE})
    for sub in ("art", "icons", "fonts"):
        (folder / sub).mkdir()
    noise = Image.effect_noise((240, 160), 50).convert("RGB")
    noise.save(folder / "art" / "a.png")
    noise.save(folder / "art" / "b.jpg", quality=85)
    Image.new("RGBA", (32, 32), (200, 30, 30, 255)).save(folder / "icons" / "gem.png")
    shutil.copy(fonts.BUILTIN["vera"], folder / "fonts" / "display.ttf")
    (folder / "rulebook.md").write_text(RULEBOOK)
    return folder


# --- mutators: bytes in, damaged bytes out ----------------------------------------------------

def truncate(data: bytes, rng: random.Random) -> bytes:
    """The file cut short somewhere after its first tenth."""
    return data[:rng.randrange(len(data) // 10, len(data) - 1)]


def flip_bytes(data: bytes, rng: random.Random, count: int = 8) -> bytes:
    """`count` bytes replaced by random ones, most of them near the start (headers, tables)."""
    out = bytearray(data)
    for _ in range(count):
        out[rng.randrange(min(len(out), 2048) if rng.random() < 0.7 else len(out))] = rng.randrange(256)
    return bytes(out)


def huge_dimensions(data: bytes, width: int = 10_000, height: int = 8_000) -> bytes:
    """A PNG or JPEG whose header claims `width` x `height` pixels (the data is unchanged)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        ihdr = bytearray(data[16:29])
        ihdr[0:8] = struct.pack(">II", width, height)
        crc = struct.pack(">I", zlib.crc32(b"IHDR" + ihdr) & 0xFFFFFFFF)
        return data[:16] + bytes(ihdr) + crc + data[33:]
    out, at = bytearray(data), 2
    while at + 9 < len(out) and out[at] == 0xFF:
        marker, length = out[at + 1], struct.unpack(">H", out[at + 2:at + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):         # start of frame: precision, height, width
            out[at + 5:at + 9] = struct.pack(">HH", height, width)
            return bytes(out)
        at += 2 + length
    raise ValueError("no JPEG frame header found")


def huge_cmap(data: bytes, last: int = 0x00FFFFFF) -> bytes:
    """A TrueType font whose character map (format 12) claims every code from 0 to `last`: a
    reader that trusts it builds a table of `last` entries (16 million: gigabytes)."""
    count = struct.unpack(">H", data[4:6])[0]
    subtable = struct.pack(">HHIIIIII", 12, 0, 28, 0, 1, 0, last, 1)
    cmap = struct.pack(">HHHHI", 0, 1, 3, 10, 12) + subtable
    out = bytearray(data)
    while len(out) % 4:
        out.append(0)
    where = len(out)
    out += cmap
    for i in range(count):
        record = 12 + 16 * i
        if out[record:record + 4] == b"cmap":
            out[record + 8:record + 16] = struct.pack(">II", where, len(cmap))
            return bytes(out)
    raise ValueError("the font has no cmap table")


MUTATORS = {"truncate": truncate, "flip": flip_bytes,
            "huge": lambda data, rng: huge_dimensions(data) if not data.startswith(b"\x00\x01") else huge_cmap(data)}
"""Each mutator by name, as the fuzzer picks them: (bytes, rng) -> bytes."""
