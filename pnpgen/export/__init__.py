"""Every way a kit leaves the machine besides home sheets: PNG card faces, print-shop
uploads (The Game Crafter, MakePlayingCards, DriveThruCards) and Tabletop Simulator decks.

faces (one face a page, drawn like the sheets) -> raster (pages to exact-size PNGs) ->
shops / tts (file layouts the uploaders expect). Everything lands in out/<game>/<format>/,
written beside and renamed into place, so a failed export leaves the old one whole."""

from __future__ import annotations

import csv
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from .. import files, presets
from ..build import Options
from ..errors import InputError
from ..game.loader import GameSource
from .faces import DeckFaces, Face, deck_faces, write_pages
from .formats import FORMATS, Job
from .raster import render_pages

INCH = 25.4
MAX_DPI = 1200
BOARD_DPI = 150
"""Boards are exported at most at this resolution (a 490 x 340 mm mat is 2894 x 2008 px)."""


@dataclass
class ExportResult:
    """What an export wrote and what it has to say."""

    format: str
    folder: Path
    files: int
    notes: list[str] = field(default_factory=list)


def export_game(game: GameSource, fmt: str, out: Path, dpi: float = 300, bleed: bool = True,
                url_base: str | None = None, workers: int | None = None) -> ExportResult:
    """Export every deck of `game` as `fmt` into out/<game>/<fmt>/ (replacing what was there)."""
    if fmt not in FORMATS:
        raise InputError.at("pnpgen export", None, f"unknown format '{fmt}'; choose one of {', '.join(FORMATS)}")
    if not 50 <= dpi <= MAX_DPI:
        raise InputError.at("pnpgen export", None, f"--dpi {dpi:g}: give 50 to {MAX_DPI}")
    decks = [d for d in deck_faces(game, Options(), boards=FORMATS[fmt].boards) if d.fronts]
    target = out / game.id / fmt
    work = files.temp_folder_beside(target)
    try:
        notes = FORMATS[fmt].write(Job(fmt, game, decks, work, target, dpi, bleed, url_base, workers))
        count = sum(1 for p in work.rglob("*") if p.is_file())
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    files.replace_folder(work, target)
    return ExportResult(fmt, target, count, notes)


def px(mm: float, dpi: float) -> int:
    return round(mm / INCH * dpi)


def _render(deck: DeckFaces, faces: list[Face], names: list[Path], bleed_mm: float, size_px, dpi, work: Path,
            workers, alpha: bool = False) -> None:
    """Draw `faces` one to a page, then render each page to its PNG of `size_px(face)` pixels."""
    pdf = work / f".{deck.id}.faces.pdf"
    write_pages(pdf, faces, deck, bleed_mm, deck.name)
    for path in names:
        path.parent.mkdir(parents=True, exist_ok=True)
    render_pages(pdf, [(i, size_px(f), n) for i, (f, n) in enumerate(zip(faces, names))], dpi, workers, alpha)
    pdf.unlink()


def _png(game: GameSource, decks: list[DeckFaces], work: Path, dpi: float, bleed: bool, workers) -> list[str]:
    """One PNG per card face, named by code (SWM-017-front.png), per deck folder."""
    b = game.game.bleed if bleed else 0.0
    notes = []
    for deck in decks:
        faces = deck.fronts + deck.backs + ([deck.common_back] if deck.common_back else [])
        if deck.board:    # a board: <board>-a.png (and -b), at most BOARD_DPI so a big mat stays a sane file
            board_dpi = min(dpi, BOARD_DPI)
            names = [work / "boards" / f"{deck.id}-{f.code}.png" for f in faces]
            _render(deck, faces, names, b, lambda f: (px(f.size[0] + 2 * b, board_dpi), px(f.size[1] + 2 * b,
                                                                                          board_dpi)),
                    board_dpi, work, workers)
            notes.append(f"{deck.id}: board, {len(faces)} side{'s' if len(faces) > 1 else ''} at {board_dpi:g} DPI")
            continue
        names = [work / deck.id / f"{f.code}-{f.side}.png" for f in faces]
        _render(deck, faces, names, b, lambda f: (px(f.size[0] + 2 * b, dpi), px(f.size[1] + 2 * b, dpi)), dpi,
                work, workers, alpha=any(f.shape == "round" for f in faces))
        _manifest(work / deck.id / "cards.csv", deck, lambda f: f"{f.code}-front.png",
                  lambda f: f"{f.code}-back.png" if deck.backs else ("back-back.png" if deck.common_back else ""))
    cards = [d for d in decks if not d.board]
    return [f"{sum(len(d.fronts) + len(d.backs) + bool(d.common_back) for d in cards)} card faces at {dpi:g} DPI"
            + (f" with {b:g} mm bleed" if b else ", trimmed")] + notes


def _product(shop: dict, deck: DeckFaces, game: GameSource) -> tuple[str, tuple[float, float]]:
    # raises InputError naming the shop's sizes when it has none like the deck's
    """The shop's card product whose trim matches the deck's (either way round)."""
    w, h = deck.fronts[0].size
    for name, (pw, ph) in shop["products"].items():
        pw, ph = pw * INCH, ph * INCH
        if abs(w - pw) < 0.3 and abs(h - ph) < 0.3:
            return name, (pw, ph)
        if abs(w - ph) < 0.3 and abs(h - pw) < 0.3:
            return name, (ph, pw)
    sizes = ", ".join(f"{n} {a:g} x {b:g} in" for n, (a, b) in shop["products"].items())
    path = next((d.path for d in game.decks if d.id == deck.id), deck.id)
    raise InputError.at(game.rel(path), None, f"the deck's cards are {w:g} x {h:g} mm: {shop['name']} has no card "
                        f"of that size (it prints {sizes}); choose another card_size or another shop")


def _shop(game: GameSource, decks: list[DeckFaces], work: Path, fmt: str, workers) -> list[str]:
    """A shop's upload files: <deck>/fronts/<code>.png and <deck>/back.png (one common back)
    or <deck>/backs/<code>.png, at the shop's exact pixel size; DriveThruCards gets one PDF
    per deck, a card a page with its bleed."""
    shop = presets.shops()[fmt]
    dpi, bleed_px = shop["dpi"], shop["bleed_px"]
    notes = []
    for deck in decks:
        if deck.pack:
            notes.append(f"{deck.id}: tokens, not cards: not exported for {shop['name']}")
            continue
        try:
            product, (tw, th) = _product(shop, deck, game)
        except InputError as exc:     # e.g. a player-aid sheet among the cards: the others still go
            notes.append("warning: " + str(exc.problems[0]) + " (deck not exported)")
            continue
        bleed_mm = bleed_px / dpi * INCH
        if bleed_mm > game.game.bleed + 0.01:
            notes.append(f"{deck.id}: the game's bleed ({game.game.bleed:g} mm) is less than {shop['name']}'s "
                         f"({bleed_mm:.2f} mm): the outer edge repeats no art")
        size = (round(tw / INCH * dpi + 2 * bleed_px), round(th / INCH * dpi + 2 * bleed_px))
        folder = work / deck.id
        if shop["format"] == "pdf":
            folder.mkdir(parents=True, exist_ok=True)
            faces = []
            for i, front in enumerate(deck.fronts):   # each card's front, then its back
                faces.append(front)
                if deck.backs:
                    faces.append(deck.backs[i])
            if deck.common_back:
                faces.insert(0, deck.common_back)    # one back first, then every front
            write_pages(folder / f"{deck.id}.pdf", faces, deck, bleed_mm, f"{game.game.title} - {deck.name}")
            notes.append(f"{deck.id}: {product}, {len(faces)} pages of {size[0] / dpi:g} x {size[1] / dpi:g} in")
        else:
            faces = list(deck.fronts) + list(deck.backs) + ([deck.common_back] if deck.common_back else [])
            names = ([folder / "fronts" / f"{f.code}.png" for f in deck.fronts]
                     + [folder / "backs" / f"{f.code}.png" for f in deck.backs]
                     + ([folder / "back.png"] if deck.common_back else []))
            _render(deck, faces, names, bleed_mm, lambda f: size, dpi, work, workers)
            notes.append(f"{deck.id}: {product}, {len(names)} images of {size[0]} x {size[1]} px")
        _manifest(folder / "cards.csv", deck, lambda f: f"fronts/{f.code}.png" if shop["format"] == "png" else "",
                  lambda f: (f"backs/{f.code}.png" if deck.backs else "back.png") if shop["format"] == "png" else "")
    return notes


def _manifest(path: Path, deck: DeckFaces, front, back) -> None:
    """cards.csv: each card's code, title, copies and files, for the uploader's quantities."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["code", "title", "copies", "front", "back"])
        for f in deck.fronts:
            out.writerow([f.code, f.title, f.count, front(f), back(f)])
