"""`pnpgen export png`: one PNG per card face at the asked DPI, with the game's bleed or cut
at the trim: <deck>/<code>-front.png, <code>-back.png for a card's own back, back-back.png
for a deck's common back, and cards.csv; boards as boards/<board>-a.png (and -b)."""

from __future__ import annotations

from .cards_csv import write_cards_csv
from .faces import BoardFaces, DeckFaces
from .job import Job, px
from .raster import render_faces

BOARD_DPI = 150
"""Boards are exported at most at this resolution (a 490 x 340 mm mat is 2894 x 2008 px)."""


def write_png(job: Job) -> list[str]:
    """Every deck's faces and every board's sides as PNGs into job.work; returns the notes."""
    bleed = job.game.game.bleed if job.bleed else 0.0
    notes = []
    for deck in job.decks:
        if deck.kind == "board":
            notes.append(_board(job, deck, bleed))
        else:
            _deck(job, deck, bleed)
    cards = [d for d in job.decks if d.kind == "deck"]
    return [f"{sum(len(d.faces()) for d in cards)} card faces at {job.dpi:g} DPI"
            + (f" with {bleed:g} mm bleed" if bleed else ", trimmed")] + notes


def _deck(job: Job, deck: DeckFaces, bleed: float) -> None:
    faces = deck.faces()
    names = [f"{face.code}-{face.side}.png" for face in faces]     # the common back is "back-back.png"
    folder = job.work / deck.id
    sizes = [(px(f.size[0] + 2 * bleed, job.dpi), px(f.size[1] + 2 * bleed, job.dpi)) for f in faces]
    render_faces(deck, faces, [folder / n for n in names], sizes, bleed, job.dpi, job.work, job.workers,
                 alpha=any(f.shape == "round" or f.outline for f in faces))
    write_cards_csv(folder / "cards.csv", deck, {id(f): n for f, n in zip(faces, names)})


def _board(job: Job, deck: BoardFaces, bleed: float) -> str:
    """A board: <board>-a.png (and -b), at most BOARD_DPI so that a big mat stays a sane file."""
    faces = deck.faces()
    dpi = min(job.dpi, BOARD_DPI)
    paths = [job.work / "boards" / f"{deck.id}-{f.code}.png" for f in faces]
    sizes = [(px(f.size[0] + 2 * bleed, dpi), px(f.size[1] + 2 * bleed, dpi)) for f in faces]
    render_faces(deck, faces, paths, sizes, bleed, dpi, job.work, job.workers)
    return f"{deck.id}: board, {len(faces)} side{'s' if len(faces) > 1 else ''} at {dpi:g} DPI"
