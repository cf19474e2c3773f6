"""Pictures of what changed: for each face that prints differently, one PNG with the face as
it was, as it is, and the difference (the new face faded, every pixel that changed in
magenta), side by side under a label; an added or removed face is pictured alone. Faces are
drawn by the same code as the sheets (export.faces) and rendered with pdfium; a face of an
earlier build folder is cut out of the PDF it was printed in (built.cut), at the same size."""

from __future__ import annotations

import json
import math
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFont

from .. import files, fonts
from ..errors import InputError
from ..export.faces import write_pages
from ..export.raster import render_pages
from .built import PrintedFace, cut
from .compare import Change, Drawn, GameChanges

DPI = 150
MAX_SIDE = 1600
"""Pixels on a picture panel's longer side at most: a board is drawn at a lower resolution."""
MARGIN = 16          # px round and between the panels, at 150 DPI (scaled with the resolution)
HEADER = 26          # px for the title line
LABEL = 22           # px for each panel's label
MAGENTA = (255, 0, 255)
FADE = 0.75          # how far the new face is washed towards white under the marks
THRESHOLD = 32       # a pixel changed when a channel moved by more than this (of 255)
MARKER = "changes.json"
"""Written with the pictures; its presence marks a folder as ours to replace on the next run."""


@dataclass
class Picture:
    """One written picture of one face of one change."""

    path: Path
    change: Change
    side: str                 # "front" or "back" (side A or B of a board)
    panel: tuple[int, int]    # one panel's size in px (the face as drawn)
    size: tuple[int, int]     # the whole picture's size in px
    changed_pixels: int       # pixels the difference marks (0 for an added or removed face)


def render(drawn: list[Drawn], dpi: float = DPI, bleed: float = 0.0) -> list[Image.Image]:
    """Each face as an RGB image, trim plus `bleed` mm (at most the game's), at `dpi` or less for
    a face larger than MAX_SIDE px; faces of one deck are drawn in one PDF."""
    images: list[Image.Image | None] = [None] * len(drawn)
    printed = [i for i, d in enumerate(drawn) if isinstance(d.face, PrintedFace)]
    if printed:
        jobs = [(drawn[i].face, panel_size(drawn[i], dpi, min(bleed, drawn[i].bleed)), min(bleed, drawn[i].bleed))
                for i in printed]
        for i, image in zip(printed, cut(jobs)):
            images[i] = image
    with tempfile.TemporaryDirectory(prefix="pnpgen-faces-") as tmp:
        groups: dict[int, list[int]] = {}
        for i, d in enumerate(drawn):
            if images[i] is None:
                groups.setdefault(id(d.deck), []).append(i)
        for g, indexes in enumerate(groups.values()):
            deck = drawn[indexes[0]].deck
            b = min(bleed, drawn[indexes[0]].bleed)
            pdf = Path(tmp) / f"{g}.pdf"
            write_pages(pdf, [drawn[i].face for i in indexes], deck, b, deck.name)
            jobs = []
            for page, i in enumerate(indexes):
                jobs.append((page, panel_size(drawn[i], dpi, b), Path(tmp) / f"{g}-{page}.png"))
            render_pages(pdf, jobs, dpi)
            for (page, _, path), i in zip(jobs, indexes):
                with Image.open(path) as im:
                    images[i] = im.convert("RGB")
    return images


def panel_size(d: Drawn, dpi: float = DPI, bleed: float = 0.0) -> tuple[int, int]:
    """The pixel size a face is drawn at: trim plus bleed at `dpi`, the longer side at most MAX_SIDE."""
    w, h = (d.face.size[0] + 2 * bleed, d.face.size[1] + 2 * bleed)
    scale = min(dpi / 25.4, MAX_SIDE / max(w, h))
    return max(1, round(w * scale)), max(1, round(h * scale))


def difference(before: Image.Image, after: Image.Image) -> tuple[Image.Image, int]:
    """The new face faded towards white, every pixel that differs from the old one in magenta;
    and how many pixels differ. Faces of different sizes are compared from their top-left."""
    w, h = max(before.width, after.width), max(before.height, after.height)
    a, b = _padded(before, (w, h)), _padded(after, (w, h))
    delta = ImageChops.difference(a, b).split()
    moved = ImageChops.lighter(ImageChops.lighter(delta[0], delta[1]), delta[2])
    mask = moved.point(lambda v: 255 if v > THRESHOLD else 0)
    out = Image.blend(b, Image.new("RGB", (w, h), "white"), FADE)
    out.paste(Image.new("RGB", (w, h), MAGENTA), mask=mask)
    return out, mask.histogram()[255]


def picture(change: Change, side: str, before: Image.Image | None, after: Image.Image | None, since: str,
            dpi: float = DPI) -> tuple[Image.Image, int]:
    """One labelled picture: before | after | difference for a changed face, the one face for an
    added or removed one. Returns it and the number of changed pixels."""
    k = dpi / DPI
    margin, header, label = round(MARGIN * k), round(HEADER * k), round(LABEL * k)
    panels: list[tuple[str, Image.Image]] = []
    changed = 0
    if before is not None and after is not None:
        diff, changed = difference(before, after)
        panels = [(f"before: {since}", before), ("now", after),
                  ("difference" if changed else "difference: none visible", diff)]
    elif after is not None:
        panels = [("added", after)]
    elif before is not None:
        panels = [(f"removed: as at {since}", before)]
    title_font = ImageFont.truetype(str(fonts.BUILTIN["sans-bold"]), max(8, round(15 * k)))
    label_font = ImageFont.truetype(str(fonts.BUILTIN["sans"]), max(8, round(13 * k)))
    heading = _heading(change, side)
    # a panel is as wide as its face or its label, whichever is wider (a small token's labels
    # would otherwise run into each other), and the picture as wide as its heading
    pw = max(max(p.width, math.ceil(label_font.getlength(t))) for t, p in panels)
    ph = max(p.height for _, p in panels)
    size = (max(margin + len(panels) * (pw + margin), 2 * margin + math.ceil(title_font.getlength(heading))),
            margin + header + label + ph + margin)
    out = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(out)
    draw.text((margin, margin), heading, fill=(31, 26, 20), font=title_font)
    for i, (text, image) in enumerate(panels):
        x = margin + i * (pw + margin)
        y = margin + header
        draw.text((x, y), text, fill=(90, 90, 90), font=label_font)
        out.paste(image, (x, y + label))
        draw.rectangle((x - 1, y + label - 1, x + image.width, y + label + image.height), outline=(200, 200, 200))
    return out, changed


def _heading(change: Change, side: str) -> str:
    what = f"side {'A' if side == 'front' else 'B'}" if change.board else side
    code = "" if change.board or change.code == "back" else f"{change.code} \u00b7 "
    was = []
    if change.old_code:
        was.append(f"was {change.old_code}")
    if change.old_title:
        was.append(f'was "{change.old_title}"')
    return f"{code}{change.title}{' (' + ', '.join(was) + ')' if was else ''} \u00b7 {what} \u00b7 {change.kind}"


def sides_to_picture(change: Change) -> list[str]:
    """The faces worth a picture: those that print differently (a renumbered card or a change of
    copies has none)."""
    if change.kind in ("changed", "added", "removed"):
        return [s for s in change.sides if s in change.before or s in change.after]
    return []


def file_name(change: Change, side: str) -> str:
    if change.board:
        return f"{change.deck}-{'a' if side == 'front' else 'b'}-{change.kind}.png"
    return f"{change.code}-{side}-{change.kind}.png"


def write_pictures(changes: GameChanges, out: Path, dpi: float = DPI) -> list[Picture]:
    """<out>/<game>/<deck>/<code>-<side>-<kind>.png for every face that prints differently, and
    <out>/<game>/changes.json listing them. The game's folder is built beside and swapped in
    whole, so no picture of an earlier run is left over; a folder of other files is refused."""
    target = out / changes.game
    if target.exists() and (not target.is_dir() or (any(target.iterdir()) and not (target / MARKER).is_file())):
        raise InputError.at(str(target), None, "this folder holds files that pnpgen changes did not write; "
                            "give --out a folder of its own (e.g. out/changes)")
    jobs = [(c, s) for c in changes.changes for s in sides_to_picture(c)]
    work = files.temp_folder_beside(target)
    try:
        wanted = {id(d): d for c, s in jobs for d in (c.before.get(s), c.after.get(s)) if d is not None}
        images = dict(zip(wanted, render(list(wanted.values()), dpi)))
        written = []
        for change, side in jobs:
            before, after = change.before.get(side), change.after.get(side)
            if change.kind == "added":
                before = None
            if change.kind == "removed":
                after = None
            shown = [images[id(d)] if d is not None else None for d in (before, after)]
            image, changed = picture(change, side, shown[0], shown[1], changes.since, dpi)
            rel = Path(change.deck) / file_name(change, side)
            (work / rel).parent.mkdir(parents=True, exist_ok=True)
            image.save(work / rel, format="PNG", dpi=(dpi, dpi))
            panel = (shown[1] if shown[1] is not None else shown[0]).size
            written.append(Picture(target / rel, change, side, panel, image.size, changed))
        index = changes.as_dict()
        index["pictures"] = [{"deck": p.change.deck, "code": p.change.code, "side": p.side, "kind": p.change.kind,
                              "file": p.path.relative_to(target).as_posix(), "changed_pixels": p.changed_pixels}
                             for p in written]
        (work / MARKER).write_text(json.dumps(index, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        shutil.rmtree(work, ignore_errors=True)
        raise files.unwritable(target, exc) from None
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    files.replace_folder(work, target)
    return written


def _padded(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    if image.size == size:
        return image
    out = Image.new("RGB", size, "white")
    out.paste(image, (0, 0))
    return out
